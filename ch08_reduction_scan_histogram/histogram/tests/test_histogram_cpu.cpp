// CPU tests of the histogram's host side: the bin function at its edges, the input generators,
// the reference and its check, and the grid bound that keeps 32-bit shared counters exact.
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ch08_histogram_stages.hpp"
#include "errors.hpp"
#include "run_stage.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_inputs.hpp"
#include "histogram_reference.hpp"
#include "histogram_sample_type.hpp"
#include "inputs.hpp"

using namespace harness;

namespace {

// CUB's float formula written out independently (dispatch_histogram.cuh, ScaleTransform):
// valid iff lo <= x < hi; bin = int((x - lo) * (float(bins) / (hi - lo))), all in float.
int cub_float_bin(int bins, float lo, float hi, float x) {
  if (!(x >= lo && x < hi)) return -1;
  volatile float width = hi - lo;
  volatile float scale = static_cast<float>(bins) / width;
  volatile float d = x - lo;
  volatile float s = d * scale;
  return static_cast<int>(s);  // may be == bins; CUB then counts the sample nowhere
}

// Exact floor((x - lower) * bins / (upper - lower)) for integers, in 128 bits.
long long exact_int_bin(long long lower, long long upper, int bins, long long x) {
  if (x < lower || x >= upper) return -1;
  const unsigned __int128 d = static_cast<unsigned __int128>(x - lower);
  return static_cast<long long>(d * static_cast<unsigned>(bins) /
                                static_cast<unsigned __int128>(upper - lower));
}

}  // namespace

TEST_CASE("8-bit samples, 256 bins over [0, 256): the formula is the identity", "[cpu][histogram][bins]") {
  const IntBins m = make_bin_map<unsigned char>(256, 0, 256);
  CHECK(m.mode == IntBins::unit);
  for (int x = 0; x < 256; ++x) {
    const auto u = static_cast<unsigned char>(x);
    REQUIRE(bin_of(m, u) == x);
    REQUIRE(bin_of(IdentityBins{}, u) == x);
  }
  CHECK(is_byte_identity(DType::u8, 256, 0, 256));
  CHECK_FALSE(is_byte_identity(DType::u8, 128, 0, 256));
  CHECK_FALSE(is_byte_identity(DType::i32, 256, 0, 256));
}

TEST_CASE("8-bit samples with other ranges and bin counts", "[cpu][histogram][bins]") {
  const IntBins m = make_bin_map<unsigned char>(10, 20, 120);  // 10 bins of 10 values
  CHECK(bin_of(m, static_cast<unsigned char>(19)) == -1);
  CHECK(bin_of(m, static_cast<unsigned char>(20)) == 0);
  CHECK(bin_of(m, static_cast<unsigned char>(119)) == 9);
  CHECK(bin_of(m, static_cast<unsigned char>(120)) == -1);
  CHECK(bin_of(m, static_cast<unsigned char>(255)) == -1);
  const IntBins neg = make_bin_map<unsigned char>(4, -256, 256);  // only the upper half reachable
  CHECK(bin_of(neg, static_cast<unsigned char>(0)) == 2);
  CHECK(bin_of(neg, static_cast<unsigned char>(255)) == 3);
}

TEST_CASE("int samples: range edges and negative values", "[cpu][histogram][bins]") {
  const IntBins m = make_bin_map<int>(10, -50, 50);
  CHECK(m.mode == IntBins::narrow);
  CHECK(bin_of(m, -51) == -1);
  CHECK(bin_of(m, -50) == 0);
  CHECK(bin_of(m, -41) == 0);
  CHECK(bin_of(m, -40) == 1);
  CHECK(bin_of(m, -5) == 4);  // d = 45: a negative sample is never wrapped into a high bin
  CHECK(bin_of(m, -1) == 4);
  CHECK(bin_of(m, 0) == 5);
  CHECK(bin_of(m, 49) == 9);  // just below upper
  CHECK(bin_of(m, 50) == -1);  // exactly upper
  CHECK(bin_of(m, std::numeric_limits<int>::min()) == -1);
  CHECK(bin_of(m, std::numeric_limits<int>::max()) == -1);
}

TEST_CASE("int samples: the 32-bit and 64-bit quotients are the exact floor", "[cpu][histogram][bins]") {
  const int imin = std::numeric_limits<int>::min(), imax = std::numeric_limits<int>::max();
  const IntBins wide = make_bin_map<int>(1000, imin, imax);
  CHECK(wide.mode == IntBins::wide);
  CHECK(bin_of(wide, imin) == 0);
  CHECK(bin_of(wide, 0) == exact_int_bin(imin, imax, 1000, 0));
  CHECK(bin_of(wide, imax - 1) == 999);
  CHECK(bin_of(wide, imax) == -1);
  const IntBins odd = make_bin_map<int>(7, -1001, 2999);  // narrow, bins do not divide the range
  CHECK(odd.mode == IntBins::narrow);
  for (long long x = -1010; x <= 3010; ++x)
    REQUIRE(bin_of(odd, static_cast<int>(x)) == exact_int_bin(-1001, 2999, 7, x));
  std::uint64_t s = 12345;
  for (int k = 0; k < 100000; ++k) {
    s = splitmix64(s);
    const int x = static_cast<int>(static_cast<std::uint32_t>(s));
    REQUIRE(bin_of(wide, x) == exact_int_bin(imin, imax, 1000, x));
  }
}

TEST_CASE("one bin", "[cpu][histogram][bins]") {
  const IntBins i1 = make_bin_map<int>(1, -3, 3);
  for (int x = -3; x < 3; ++x) CHECK(bin_of(i1, x) == 0);
  CHECK(bin_of(i1, 3) == -1);
  CHECK(bin_of(i1, -4) == -1);
  const FloatBins f1 = make_bin_map<float>(1, 0, 1);
  CHECK(bin_of(f1, 0.0f) == 0);
  CHECK(bin_of(f1, 0.5f) == 0);
  CHECK(bin_of(f1, std::nextafter(1.0f, 0.0f)) == 0);
  CHECK(bin_of(f1, 1.0f) == -1);
}

TEST_CASE("float samples: 7 bins over an odd range, edges, NaN and infinities", "[cpu][histogram][bins]") {
  const double lower = -1.3, upper = 2.9;
  const FloatBins m = make_bin_map<float>(7, lower, upper);
  const float lo = static_cast<float>(lower), hi = static_cast<float>(upper);
  CHECK(m.lower == lo);
  CHECK(m.upper == hi);
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(bin_of(m, lo) == 0);
  CHECK(bin_of(m, std::nextafter(lo, -inf)) == -1);
  CHECK(bin_of(m, hi) == -1);  // exactly upper
  CHECK(bin_of(m, std::numeric_limits<float>::quiet_NaN()) == -1);
  CHECK(bin_of(m, inf) == -1);
  CHECK(bin_of(m, -inf) == -1);
  CHECK(bin_of(m, 0.0f) == 2);  // (0 + 1.3) * 7 / 4.2 = 2.17
  // Every float in [lo, hi) and the neighbourhood of every inner edge: bin_of equals CUB's formula,
  // with CUB's "bin == bins" written as -1.
  float x = std::nextafter(hi, -inf);
  for (int k = 0; k < 4096; ++k, x = std::nextafter(x, -inf)) {
    const int cub = cub_float_bin(7, lo, hi, x);
    REQUIRE(bin_of(m, x) == (cub >= 7 ? -1 : cub));
    REQUIRE(bin_of(m, x) >= -1);
    REQUIRE(bin_of(m, x) <= 6);
  }
  for (int edge = 1; edge < 7; ++edge) {
    float e = static_cast<float>(lower + edge * (upper - lower) / 7);
    for (int k = 0; k < 64; ++k) e = std::nextafter(e, -inf);
    for (int k = 0; k < 128; ++k, e = std::nextafter(e, inf)) {
      const int got = bin_of(m, e);
      REQUIRE(got == cub_float_bin(7, lo, hi, e));
      REQUIRE((got == edge - 1 || got == edge));
    }
  }
}

TEST_CASE("float samples just below upper that round to bin == bins are not counted (as CUB)", "[cpu][histogram][bins]") {
  // Look for such a sample over a few odd ranges; the documented rule must hold where one exists.
  int found = 0;
  for (int bins = 3; bins <= 64 && found < 5; ++bins) {
    for (double upper : {0.7, 2.9, 10.1, 1000.3}) {
      const FloatBins m = make_bin_map<float>(bins, -1.3, upper);
      float x = std::nextafter(m.upper, -std::numeric_limits<float>::infinity());
      for (int k = 0; k < 16; ++k, x = std::nextafter(x, -std::numeric_limits<float>::infinity())) {
        if (cub_float_bin(bins, m.lower, m.upper, x) == bins) {
          ++found;
          CHECK(bin_of(m, x) == -1);
          const HistogramReference ref = reference_histogram(&x, 1, bins, -1.3, upper);
          CHECK(ref.dropped == 1);
          CHECK(ref.counted == 0);
        }
      }
    }
  }
  INFO("samples found that round to bin == bins: " << found);
  CHECK(found > 0);
}

TEST_CASE("bad ranges are refused", "[cpu][histogram][bins]") {
  CHECK_THROWS_AS(make_bin_map<int>(0, 0, 10), UsageError);
  CHECK_THROWS_AS(make_bin_map<int>(4, 10, 10), UsageError);
  CHECK_THROWS_AS(make_bin_map<int>(4, 0.5, 10), UsageError);
  CHECK_THROWS_AS(make_bin_map<int>(4, 0, 3e9), UsageError);
  CHECK_THROWS_AS(make_bin_map<float>(4, 0, std::nan("")), UsageError);
  CHECK_THROWS_AS(make_bin_map<float>(4, 1.0, 1.0 + 1e-12), UsageError);  // same float
  CHECK_THROWS_AS(with_sample_type(DType::f64, [](auto) { return 0; }), UsageError);
  CHECK(with_sample_type(DType::u8, [](auto t) { return sizeof(t); }) == 1);
}

TEST_CASE("uniform input is well mixed: no 32-sample warp repeats another", "[cpu][histogram][inputs]") {
  HistInputSpec spec;
  spec.seed = 99;
  const std::size_t n = std::size_t{1} << 18;
  const auto a = make_histogram_input<unsigned char>(n, spec);
  std::set<std::string> warps;
  for (std::size_t w = 0; w < n / 32; ++w)
    warps.insert(std::string(reinterpret_cast<const char*>(a.data() + 32 * w), 32));
  CHECK(warps.size() == n / 32);
  // No short period either: a[i] == a[i + p] for every i would need p to be a period.
  for (std::size_t p = 1; p <= 4096; ++p) {
    std::size_t same = 0;
    for (std::size_t i = 0; i < 4096; ++i) same += a[i] == a[i + p];
    REQUIRE(same < 64);  // about 16 expected by chance
  }
  // Close to flat: every bin within 6 standard deviations of n / 256.
  const HistogramReference ref = reference_histogram(a.data(), n, 256, 0, 256);
  const double mean = n / 256.0, sd = std::sqrt(mean);
  for (Count c : ref.counts) REQUIRE(std::fabs(static_cast<double>(c) - mean) < 6 * sd);
  // Deterministic, and the seed matters.
  CHECK(make_histogram_input<unsigned char>(1000, spec) ==
        std::vector<unsigned char>(a.begin(), a.begin() + 1000));
  spec.seed = 100;
  CHECK(make_histogram_input<unsigned char>(1000, spec) !=
        std::vector<unsigned char>(a.begin(), a.begin() + 1000));
}

TEST_CASE("one-bin puts every sample in one bin, for every sample type", "[cpu][histogram][inputs]") {
  HistInputSpec spec;
  spec.dist = HistDist::one_bin;
  spec.seed = 5;
  const std::size_t n = 100003;
  {
    const auto a = make_histogram_input<unsigned char>(n, spec);
    const auto ref = reference_histogram(a.data(), n, 256, 0, 256);
    CHECK(ref.counts[static_cast<std::size_t>(hot_bin(spec))] == n);
  }
  spec.bins = 37;
  spec.lower = -1000;
  spec.upper = 1000;
  {
    const auto a = make_histogram_input<int>(n, spec);
    const auto ref = reference_histogram(a.data(), n, 37, -1000, 1000);
    CHECK(ref.counts[static_cast<std::size_t>(hot_bin(spec))] == n);
    CHECK(std::set<int>(a.begin(), a.end()).size() > 1);  // different values, one bin
  }
  spec.bins = 7;
  spec.lower = -1.3;
  spec.upper = 2.9;
  {
    const auto a = make_histogram_input<float>(n, spec);
    const auto ref = reference_histogram(a.data(), n, 7, -1.3, 2.9);
    CHECK(ref.counts[static_cast<std::size_t>(hot_bin(spec))] == n);
  }
}

TEST_CASE("hot share puts the asked share of samples in the hot bin", "[cpu][histogram][inputs]") {
  HistInputSpec spec;
  spec.dist = HistDist::hot;
  spec.seed = 11;
  const std::size_t n = std::size_t{1} << 18;
  for (double share : {1.0 / 256, 0.01, 0.1, 0.5, 0.9, 1.0}) {
    spec.hot_share = share;
    const auto a = make_histogram_input<unsigned char>(n, spec);
    const auto ref = reference_histogram(a.data(), n, 256, 0, 256);
    const double got = static_cast<double>(ref.counts[static_cast<std::size_t>(hot_bin(spec))]) / n;
    INFO("share " << share << " got " << got);
    CHECK(std::fabs(got - share) < 0.005);
    // The rest is spread over every other bin.
    if (share < 0.9)
      for (Count c : ref.counts) REQUIRE(c > 0);
  }
}

TEST_CASE("zipf and image inputs have their shapes", "[cpu][histogram][inputs]") {
  const std::size_t n = std::size_t{1} << 18;
  HistInputSpec spec;
  spec.seed = 3;
  spec.dist = HistDist::zipf;
  const auto z = make_histogram_input<unsigned char>(n, spec);
  const auto zr = reference_histogram(z.data(), n, 256, 0, 256);
  Count top = 0;
  for (Count c : zr.counts) top = std::max(top, c);
  CHECK(static_cast<double>(top) / n > 0.1);  // a hot bin
  CHECK(zr.counts[0] < top);                  // ranks are scattered: rank 0 is not bin 0 (seed 3)
  spec.dist = HistDist::image;
  const auto im = make_histogram_input<unsigned char>(n, spec);
  double step = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) step += std::abs(im[i + 1] - im[i]);
  CHECK(step / (n - 1) < 16);  // smooth along a row (uniform data: about 85)
  const auto ir = reference_histogram(im.data(), n, 256, 0, 256);
  int used = 0;
  for (Count c : ir.counts) used += c > 0;
  CHECK(used > 100);
}

TEST_CASE("invalid samples: out of range and NaN, counted as dropped", "[cpu][histogram][inputs]") {
  const std::size_t n = std::size_t{1} << 16;
  HistInputSpec spec;
  spec.seed = 8;
  spec.invalid_share = 0.25;
  spec.bins = 7;
  spec.lower = -1.3;
  spec.upper = 2.9;
  const auto f = make_histogram_input<float>(n, spec);
  const auto fr = reference_histogram(f.data(), n, 7, -1.3, 2.9);
  CHECK(std::fabs(static_cast<double>(fr.dropped) / n - 0.25) < 0.02);
  CHECK(fr.counted + fr.dropped == n);
  bool nan = false;
  for (float x : f) nan = nan || std::isnan(x);
  CHECK(nan);
  spec.bins = 100;
  spec.lower = -50;
  spec.upper = 50;
  const auto i = make_histogram_input<int>(n, spec);
  const auto ir = reference_histogram(i.data(), n, 100, -50, 50);
  CHECK(std::fabs(static_cast<double>(ir.dropped) / n - 0.25) < 0.02);
  HistInputSpec bytes;
  bytes.invalid_share = 0.1;
  CHECK_THROWS_AS(make_histogram_input<unsigned char>(10, bytes), UsageError);
}

TEST_CASE("the reference counts exactly, in parallel", "[cpu][histogram][reference]") {
  const std::vector<int> small{-3, 0, 1, 1, 7, 9, 10, 11, -4, 5};
  // 5 bins over [-3, 10): bin = (x + 3) * 5 / 13, so [-3, -0.4) [-0.4, 2.2) [2.2, 4.8) [4.8, 7.4) [7.4, 10)
  const auto r = reference_histogram(small.data(), small.size(), 5, -3, 10);
  CHECK(r.counts == std::vector<Count>{1, 3, 0, 2, 1});  // {-3} {0,1,1} {} {5,7} {9}
  CHECK(r.dropped == 3);                                 // 10, 11, -4
  CHECK(r.counted == 7);
  // Many chunks on many threads give the serial count.
  HistInputSpec spec;
  spec.dist = HistDist::zipf;
  const std::size_t n = (std::size_t{1} << 21) + 3;
  const auto a = make_histogram_input<unsigned char>(n, spec);
  const auto ref = reference_histogram(DType::u8, a.data(), n, 256, 0, 256);
  std::vector<Count> serial(256, 0);
  for (unsigned char x : a) ++serial[x];
  CHECK(ref.counts == serial);
  CHECK(ref.counted == n);
}

TEST_CASE("the check fails on a histogram missing one sample, at the right bin", "[cpu][histogram][reference]") {
  HistInputSpec spec;
  spec.seed = 21;
  const std::size_t n = 100000;
  const auto a = make_histogram_input<unsigned char>(n, spec);
  const auto ref = reference_histogram(a.data(), n, 256, 0, 256);
  CHECK(check_histogram(ref.counts, ref).ok);
  // The histogram of all samples but the last: wrong exactly at the last sample's bin.
  const auto missing = reference_histogram(a.data(), n - 1, 256, 0, 256);
  const Verification v = check_histogram(missing.counts, ref);
  CHECK_FALSE(v.ok);
  CHECK(v.kind == CheckKind::exact);
  CHECK(v.first_bad == a[n - 1]);
  CHECK(v.got + 1 == v.expected);
  CHECK(v.message.find("bin " + std::to_string(a[n - 1]) + ":") != std::string::npos);
  CHECK(v.message.find("got 99999, expected 100000") != std::string::npos);
  // A wrong number of bins fails too.
  CHECK_FALSE(check_histogram(std::vector<Count>(255, 0), ref).ok);
}

TEST_CASE("the grid bound keeps every shared-memory counter below 2^32", "[cpu][histogram][grid]") {
  CHECK(min_blocks_for_counters(0) == 1);
  CHECK(min_blocks_for_counters(kMaxSamplesPerBlock) == 1);
  CHECK(min_blocks_for_counters(kMaxSamplesPerBlock + 1) == 2);
  CHECK(min_blocks_for_counters(std::size_t{1} << 40) == 512);
  // The worst share of a block in a grid-stride loop over vectors of up to 16 samples:
  for (std::size_t n : {std::size_t{1} << 33, (std::size_t{1} << 37) + 12345}) {
    const std::size_t grid = min_blocks_for_counters(n);
    const std::size_t block = 1024, per_vector = 16;
    const std::size_t vectors = (n + per_vector - 1) / per_vector;
    const std::size_t per_block = ((vectors + grid * block - 1) / (grid * block)) * block * per_vector;
    CHECK(per_block + 32 <= 0xFFFFFFFFull);  // + head and tail samples of block 0
  }
  CHECK(stage_grid(0, 100, 1000) == 100);
  CHECK(stage_grid(5, 100, 1000) == 5);                       // --grid honoured
  CHECK(stage_grid(1, 100, std::size_t{1} << 34) == 8);       // raised to keep counters exact
  CHECK(stage_grid(0, std::size_t{1} << 40, 1000) == 2147483647);  // CUDA's grid limit
}

TEST_CASE("bad settings are refused before anything runs: the kernel's own bin cap, integer limits",
          "[cpu][histogram][validate]") {
  auto args = [](DType type, int block, int bins, double lower, double upper) {
    HistogramArgs a;
    a.type = type;
    a.n = 1000;
    a.block = block;
    a.bins = bins;
    a.lower = lower;
    a.upper = upper;
    return a;
  };
  // Shared memory is the device's to judge (check_device_fit), not validate_config's: 3072 bins at
  // block 1024 (384 KiB of warp copies) pass here and are refused on every GPU below.
  const Stage<Histogram> per_warp = ch08::histogram_stage_named("histogram_stage_2");
  CHECK_NOTHROW(validate_config(per_warp, args(DType::u8, 1024, 3072, 0, 3072)));
  // The byte counters' own cap: 256 bins.
  const Stage<Histogram> counters = ch08::histogram_stage_named("histogram_stage_5");
  CHECK_NOTHROW(validate_config(counters, args(DType::u8, 256, 256, 0, 256)));
  CHECK_THROWS_AS(validate_config(counters, args(DType::u8, 128, 257, 0, 257)), UsageError);
  CHECK_THROWS_AS(validate_config(counters, args(DType::u8, 512, 256, 0, 256)), UsageError);
  // Integer samples need integer limits: refused here, not at launch.
  for (const Stage<Histogram>& s : ch08::all_histogram_stages()) {
    INFO(s.name);
    CHECK_THROWS_AS(validate_config(s, args(DType::u8, 256, 16, 0.5, 200)), UsageError);
    CHECK_THROWS_AS(validate_config(s, args(DType::i32, 256, 16, -3, 7.25)), UsageError);
    CHECK_NOTHROW(validate_config(s, args(DType::f32, 256, 16, 0.5, 7.25)));
  }
}

namespace {

// The arguments a stage program or the ladder runs with when nothing is given: 256 bins over
// [0, 256), uint8 samples, the stage's default block.
HistogramArgs default_args(const Stage<Histogram>& s) {
  HistogramArgs a;
  a.type = DType::u8;
  a.n = std::size_t{1} << 24;
  a.block = default_block_of(s);
  return a;
}

// `a` at another block size and bin count (the range does not matter to the device's rules).
HistogramArgs with(HistogramArgs a, int block, int bins) {
  a.block = block;
  a.bins = bins;
  return a;
}

// The message check_device_fit throws for `s` at `a` under `limits`; empty when it does not throw.
std::string refusal_message(const Stage<Histogram>& s, const HistogramArgs& a, const DeviceLimits& limits) {
  try {
    check_device_fit(s, a, limits);
  } catch (const UnsupportedError& e) {
    return e.what();
  }
  return {};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("every histogram stage's defaults fit every reader's GPU", "[cpu][histogram][device]") {
  std::vector<Stage<Histogram>> stages = ch08::all_histogram_stages();
  // Every form of histogram_stage_7 --copies 1|2|4 (4: block 64 on a T4 or an RTX card; below).
  for (const Stage<Histogram>& s : ch08::histogram_stage_7_copy_stages()) stages.push_back(s);
  REQUIRE(stages.size() == ch08::all_histogram_stages().size() + 3);
  for (const Stage<Histogram>& s : stages) {
    // Every stage that asks for dynamic shared memory says how much (stage 0 has none).
    INFO(s.name << " (" << s.label << ")");
    CHECK(static_cast<bool>(s.shared_bytes) == (s.name != "histogram_stage_0"));
    if (s.shared_bytes)
      CHECK(s.shared_bytes(with(default_args(s), default_block_of(s, default_args(s), limits_sm75()), 256)) <=
            limits_sm75().smem_per_block);
    for (const DeviceLimits& g : reader_gpus()) {
      // The block a program picks on this GPU when none is given.
      const HistogramArgs a = with(default_args(s), default_block_of(s, default_args(s), g), 256);
      INFO(g.name << ", block " << a.block);
      CHECK(device_refusal(s, a, g).empty());
      CHECK_NOTHROW(check_device_fit(s, a, g));
    }
  }
}

TEST_CASE("each histogram stage's shared memory, and what each GPU refuses", "[cpu][histogram][device]") {
  const DeviceLimits t4 = limits_sm75(), rtx = limits_sm86(), a100 = limits_sm80(), h200 = limits_sm90();

  SECTION("stages 5 and 6: bins x block + 4 x bins bytes; block 256 by default, 128 on a T4") {
    for (const char* name : {"histogram_stage_5", "histogram_stage_6"}) {
      const Stage<Histogram> s = ch08::histogram_stage_named(name);
      INFO(name);
      CHECK(s.max_block == 256);
      // Without --block: 256 where the GPU gives a block 66,560 bytes, 128 on a T4.
      CHECK(default_block_of(s) == 256);
      CHECK(default_block_of(s, default_args(s), t4) == 128);
      for (const DeviceLimits& g : {rtx, a100, h200}) CHECK(default_block_of(s, default_args(s), g) == 256);
      const HistogramArgs d = with(default_args(s), 128, 256);
      CHECK(s.shared_bytes(d) == 33792);
      CHECK(s.shared_bytes(with(d, 256, 256)) == 66560);
      CHECK(s.shared_bytes(with(d, 32, 7)) == 2 * 32 * 4 + 7 * 4);  // 7 bins: two words per thread
      const std::string m = refusal_message(s, with(d, 256, 256), t4);
      INFO(m);
      CHECK(has(m, kCannotRunHere));
      CHECK(has(m, "66560 bytes"));
      CHECK(has(m, "65536"));
      CHECK(has(m, "--block 128"));
      CHECK_THROWS_AS(check_device_fit(s, with(d, 256, 256), t4), UnsupportedError);
      for (const DeviceLimits& g : {rtx, limits_sm89(), limits_sm120(), a100, h200}) {
        INFO(g.name);
        CHECK(device_refusal(s, with(d, 256, 256), g).empty());
      }
    }
  }

  SECTION("stage 7: copies x bins x 128 bytes, not stage 4's warps x bins x 4") {
    const Stage<Histogram> s = ch08::histogram_stage_named("histogram_stage_7");
    const HistogramArgs d = default_args(s);
    CHECK(s.shared_bytes(d) == 32768);                    // one copy of 256 bins
    CHECK(s.shared_bytes(with(d, 256, 1024)) == 131072);  // stage 4's formula would say 32768
    CHECK(s.shared_bytes(with(d, 32, 1024)) == 131072);   // one copy at any block
    for (const DeviceLimits& g : {t4, rtx, limits_sm89(), limits_sm120()}) {
      const std::string m = refusal_message(s, with(d, 256, 1024), g);
      INFO(g.name << ": " << m);
      CHECK(has(m, "131072 bytes"));
      CHECK(has(m, "run histogram_stage_4 instead"));  // no block holds 1024 bins there
    }
    CHECK(device_refusal(s, with(d, 256, 1024), a100).empty());
    CHECK(device_refusal(s, with(d, 256, 1024), h200).empty());
    // The most bins per GPU: 512 on a T4, 1816 on an H200.
    CHECK(device_refusal(s, with(d, 256, 512), t4).empty());
    CHECK_FALSE(device_refusal(s, with(d, 256, 513), t4).empty());
    CHECK(device_refusal(s, with(d, 256, 1816), h200).empty());
    CHECK_FALSE(device_refusal(s, with(d, 256, 1817), h200).empty());
  }

  SECTION("stage 7 with 2 and 4 copies: a smaller block holds fewer copies; defaults fit every GPU") {
    const std::vector<Stage<Histogram>> copies = ch08::histogram_stage_7_copy_stages();
    REQUIRE(copies.size() == 3);
    const Stage<Histogram>& one = copies[0];
    const Stage<Histogram>& two = copies[1];
    const Stage<Histogram>& four = copies[2];
    // Default blocks: 256 on every GPU for 1 and 2 copies (32,768 and 65,536 bytes: a T4 holds 2
    // copies exactly). 4 copies of 256 bins need 131,072 bytes at block 128 or 256: block 256 where
    // the GPU has that (an A100, an H100/H200), else block 64, which holds 2 copies (65,536 bytes).
    for (const DeviceLimits& g : reader_gpus()) {
      INFO(g.name);
      CHECK(default_block_of(one, default_args(one), g) == 256);
      CHECK(default_block_of(two, default_args(two), g) == 256);
      const int b = default_block_of(four, default_args(four), g);
      CHECK(b == (g.smem_per_block >= 131072 ? 256 : 64));
      CHECK(four.shared_bytes(with(default_args(four), b, 256)) == (b == 256 ? 131072u : 65536u));
      CHECK(device_refusal(four, with(default_args(four), b, 256), g).empty());
    }
    CHECK(default_block_of(four, default_args(four), t4) == 64);
    CHECK(default_block_of(four, default_args(four), rtx) == 64);
    CHECK(default_block_of(four, default_args(four), h200) == 256);
    CHECK(one.shared_bytes(default_args(one)) == 32768);
    CHECK(two.shared_bytes(default_args(two)) == 65536);  // fits a T4 exactly
    const HistogramArgs d = with(default_args(four), 256, 256);  // --copies 4 --block 256
    CHECK(four.shared_bytes(d) == 131072);                       // 4 copies
    CHECK(four.shared_bytes(with(d, 128, 256)) == 131072);       // 4 warps, 4 copies
    CHECK(two.shared_bytes(d) == 65536);
    for (const DeviceLimits& g : {t4, rtx, limits_sm89(), limits_sm120()}) {
      const std::string m = refusal_message(four, d, g);
      INFO(g.name << ": " << m);
      CHECK(has(m, "131072 bytes"));
      CHECK(has(m, "--block 64"));
      CHECK_FALSE(device_refusal(four, with(d, 128, 256), g).empty());
    }
    CHECK(device_refusal(four, d, a100).empty());
    CHECK(device_refusal(four, d, h200).empty());
    // 4 copies of 1024 bins (512 KiB) fit nowhere; block 32 (one copy, 128 KiB) fits an H200.
    const std::string m = refusal_message(four, with(d, 256, 1024), h200);
    INFO(m);
    CHECK(has(m, "524288 bytes"));
    CHECK(has(m, "--block 32"));
  }

  SECTION("stages 2, 3, 4, 9 and 10: one copy per warp; the advice is the largest block that fits") {
    for (const char* name : {"histogram_stage_2", "histogram_stage_3", "histogram_stage_4", "histogram_stage_9",
                             "histogram_stage_10"}) {
      const Stage<Histogram> s = ch08::histogram_stage_named(name);
      INFO(name);
      const HistogramArgs big = with(default_args(s), 1024, 3072);
      CHECK(s.shared_bytes(big) == 393216);
      CHECK(s.shared_bytes(with(big, 256, 3072)) == 98304);
      const std::string on_h200 = refusal_message(s, big, h200), on_rtx = refusal_message(s, big, rtx),
                        on_t4 = refusal_message(s, big, t4);
      INFO(on_h200 << "\n" << on_rtx << "\n" << on_t4);
      CHECK(has(on_h200, "393216 bytes"));
      CHECK(has(on_h200, "--block 512"));  // 196608 bytes
      CHECK(has(on_rtx, "--block 256"));   // 98304 of 101376
      CHECK(has(on_t4, "--block 128"));    // 49152 of 65536
      // Where not even block 32 holds the bins, another stage is named.
      const std::string none = refusal_message(s, with(big, 32, 16385), t4);
      INFO(none);
      CHECK(has(none, "65540 bytes"));
      CHECK(has(none, "run histogram_stage_0 instead"));
    }
  }

  SECTION("stage 1: bins x 4 bytes at any block; past that, stage 0") {
    for (const Stage<Histogram>& s : ch08::all_histogram_stages()) {
      if (s.name != "histogram_stage_1" && s.name.rfind("histogram_stage_1_", 0) != 0) continue;  // not 10
      INFO(s.name);
      const HistogramArgs d = default_args(s);
      CHECK(s.shared_bytes(d) == 1024);
      CHECK(s.shared_bytes(with(d, 1024, 16384)) == 65536);
      CHECK(device_refusal(s, with(d, 1024, 16384), t4).empty());
      const std::string m = refusal_message(s, with(d, 256, 16385), t4);
      INFO(m);
      CHECK(has(m, "65540 bytes"));
      CHECK(has(m, "run histogram_stage_0 instead"));
      CHECK(device_refusal(s, with(d, 256, 58112), h200).empty());
      CHECK_FALSE(device_refusal(s, with(d, 256, 58113), h200).empty());
    }
  }
}
