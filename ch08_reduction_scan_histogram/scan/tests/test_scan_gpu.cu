// GPU tests of the scan stages, in plain CUDA with harness pieces (DeviceBuffer, fill_host,
// check_scan); the lead adapts them to the generic Session once it exists.
//   - every stage x float/double/int x exclusive/inclusive x awkward sizes x block sizes, on exact
//     data (equality) with poisoned outputs, aligned and misaligned pointers;
//   - determinism: the single-pass stages run 10 times (100 in [long]) on one float input (the number
//     of distinct outputs is reported; it may be above 1), the three-pass stages must give 1, ints
//     always 1;
//   - the broken stage fails the check; the --trace kernel agrees with the host model;
//   - [large], hidden, in [long] (CTest label `long`): n = 2^31 + 1 ints through every multi-block
//     stage (test_ch08_scan_stages runs one stage of each family there in the default run).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "inputs.hpp"
#include "scan/broken_scan.hpp"
#include "scan/scan_check.hpp"
#include "ch08_scan_stages.hpp"

using harness::DType;
using harness::Dist;
using ScanStage = harness::Stage<harness::Scan>;

namespace {

// Every multi-block stage this GPU runs at block 256 (stage 8 needs sm_90 and a toolkit with its
// kernel: left out elsewhere, with a warning saying why).
std::vector<ScanStage> multi_block_stages() {
  std::vector<ScanStage> stages;
  for (ScanStage& s : ch08::all_scan_stages()) {
    const std::string why = ch08::scan_refusal_here(s, 256);
    if (why.empty()) stages.push_back(std::move(s));
    else WARN(s.name << " not run: " << why);
  }
  return stages;
}

// One input on the device (at `offset` elements into its buffer, to test misaligned pointers),
// scanned by any stage into a poisoned output.
template <class T>
struct Runner {
  std::size_t n, offset;
  std::vector<T> host;
  harness::DeviceBuffer in, out, ws;

  Runner(std::size_t n_, Dist dist, std::uint64_t seed, std::size_t offset_ = 0)
      : n(n_), offset(offset_), host(n_), in((n_ + offset_) * sizeof(T)), out((n_ + offset_) * sizeof(T)) {
    harness::fill_host(host.data(), n, dist, seed);
    CUDA_CHECK(cudaMemcpy(in.as<T>() + offset, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }

  harness::ScanArgs args(int block, bool inclusive) const {
    harness::ScanArgs a;
    a.type = harness::dtype_of<T>();
    a.in = in.as<T>() + offset;
    a.out = out.as<T>() + offset;
    a.n = n;
    a.block = block;
    a.inclusive = inclusive;
    return a;
  }

  std::vector<T> run(const ScanStage& s, int block, bool inclusive) {
    harness::ScanArgs a = args(block, inclusive);
    const std::size_t bytes = s.workspace_bytes ? s.workspace_bytes(a) : 0;
    if (ws.bytes() < bytes) ws = harness::DeviceBuffer(bytes);
    a.workspace = ws.data();
    a.workspace_size = ws.bytes();
    if (s.workspace_zeroed_bytes > 0) {  // stage 9: what Session::poison_for does, on a workspace other stages used
      ws.fill_bytes(0xFF);
      CUDA_CHECK(cudaMemset(ws.data(), 0, std::min(s.workspace_zeroed_bytes, ws.bytes())));
    }
    out.fill_bytes(0xA5);  // poison: a missed element cannot look right by accident
    s.launch(a);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> r(n);
    CUDA_CHECK(cudaMemcpy(r.data(), out.as<T>() + offset, n * sizeof(T), cudaMemcpyDeviceToHost));
    return r;
  }

  harness::Verification check(const ScanStage& s, const std::vector<T>& got, int block, bool inclusive,
                              bool exact) const {
    const double depth = s.depth ? s.depth(args(block, inclusive)) : 1.0;
    return harness::check_scan(host.data(), got.data(), n, inclusive, exact, depth);
  }
};

// FNV-1a over the output's bytes: equal outputs give equal hashes.
template <class T>
std::uint64_t fingerprint(const std::vector<T>& v) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

template <class T>
std::size_t distinct_outputs(const ScanStage& s, std::size_t n, int runs, Dist dist) {
  Runner<T> r(n, dist, 2024);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < runs; ++i) {
    const auto out = r.run(s, 256, false);
    const harness::Verification v = r.check(s, out, 256, false, dist == Dist::exact);
    INFO(s.name << " run " << i << ": " << v.message);
    REQUIRE(v.ok);
    seen.insert(fingerprint(out));
  }
  return seen.size();
}

const std::vector<std::size_t> kSizes{1,    2,    31,   32,   33,   1000, 1023,          1024,
                                      1025, 4095, 4096, 4097, 8191, 8193, (1u << 20) + 3};

}  // namespace

TEMPLATE_TEST_CASE("every scan stage on exact data, awkward sizes, every block size", "[gpu][scan]",
                   float, double, int) {
  std::vector<ScanStage> stages = multi_block_stages();
  stages.insert(stages.begin(), ch08::scan_stage_named("scan_block_blelloch"));
  for (std::size_t n : kSizes) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {  // 1: misaligned, the scalar path
      Runner<TestType> r(n, Dist::exact, 77 + n, offset);
      for (const ScanStage& s : stages) {
        for (int block : {32, 64, 128, 256, 512, 1024}) {
          if (block < s.min_block || block > s.max_block) continue;
          if (!ch08::scan_refusal_here(s, block).empty()) continue;  // e.g. past this GPU's shared memory
          if (s.caps.max_n && n > s.caps.max_n(block)) continue;
          for (bool inclusive : {false, true}) {
            const auto out = r.run(s, block, inclusive);
            const harness::Verification v = r.check(s, out, block, inclusive, true);
            INFO(s.name << " n=" << n << " offset=" << offset << " block=" << block
                        << (inclusive ? " inclusive: " : " exclusive: ") << v.message);
            CHECK(v.ok);
          }
        }
      }
    }
  }
}

TEST_CASE("random signed floats: within the depth bound", "[gpu][scan]") {
  Runner<float> r((1u << 22) + 5, Dist::signed_uniform, 5);
  for (const ScanStage& s : multi_block_stages()) {
    const auto out = r.run(s, 256, true);
    const harness::Verification v = r.check(s, out, 256, true, false);
    INFO(s.name << ": " << harness::check_name(v.kind) << ": " << v.message);
    CHECK(v.ok);
  }
}

// The determinism checks, with `runs` runs per input: 10 in the default run, 100 in [long].
static void single_pass_distinct_outputs(int runs) {
  for (const ScanStage& s : multi_block_stages()) {
    if (s.deterministic) continue;
    const std::size_t count = distinct_outputs<float>(s, (1u << 22) + 7, runs, Dist::signed_uniform);
    WARN(s.name << ": " << count << " distinct float outputs in " << runs << " runs");
    CHECK(count >= 1);
  }
}

static void three_pass_same_bits(int runs) {
  for (const ScanStage& s : multi_block_stages()) {
    if (!s.deterministic) continue;
    INFO(s.name);
    CHECK(distinct_outputs<float>(s, (1u << 22) + 7, runs, Dist::signed_uniform) == 1);
    CHECK(distinct_outputs<double>(s, (1u << 20) + 7, std::max(2, runs / 5), Dist::signed_uniform) == 1);
  }
}

static void int_same_bits(int runs) {
  for (const ScanStage& s : multi_block_stages()) {
    INFO(s.name);
    CHECK(distinct_outputs<int>(s, (1u << 22) + 7, runs, Dist::signed_uniform) == 1);
  }
}

TEST_CASE("single-pass scans: distinct float outputs in 10 runs", "[gpu][scan][determinism]") {
  single_pass_distinct_outputs(10);
}
TEST_CASE("three-pass scans give the same bits on every run (10 runs)", "[gpu][scan][determinism]") {
  three_pass_same_bits(10);
}
TEST_CASE("int scans give the same bits on every run (10 runs)", "[gpu][scan][determinism]") {
  int_same_bits(10);
}
TEST_CASE("single-pass scans: distinct float outputs in 100 runs", "[.][long][gpu][scan][determinism]") {
  single_pass_distinct_outputs(100);
}
TEST_CASE("three-pass scans give the same bits on every run (100 runs)", "[.][long][gpu][scan][determinism]") {
  three_pass_same_bits(100);
}
TEST_CASE("int scans give the same bits on every run (100 runs)", "[.][long][gpu][scan][determinism]") {
  int_same_bits(100);
}

TEST_CASE("the broken stage fails the check", "[gpu][scan][selftest]") {
  const ScanStage broken = harness::broken_shifted_scan_stage();
  for (bool inclusive : {false, true}) {
    Runner<int> ri(100003, Dist::exact, 3);
    CHECK_FALSE(ri.check(broken, ri.run(broken, 256, inclusive), 256, inclusive, true).ok);
    Runner<float> rf(100003, Dist::signed_uniform, 3);
    const harness::Verification v = rf.check(broken, rf.run(broken, 256, inclusive), 256, inclusive, false);
    INFO(v.message);
    CHECK_FALSE(v.ok);
    CHECK(v.first_bad == 0);  // inclusive: out[0] = 0, expected a_0; exclusive: out[0] = a_0, expected 0
  }
}

TEST_CASE("the --trace kernel agrees with the host model (exercise 3)", "[gpu][scan][blelloch]") {
  CHECK(ch08::blelloch_trace(DType::f32, {1, 2, 3, 4}) == 0);
  CHECK(ch08::blelloch_trace(DType::i32, {3, 1, 7, 0, 4, 1, 6, 3, 5}) == 0);
}

// Hidden ([long]): test_ch08_scan_stages runs one stage of each family at 2^31 + 1 ints in the
// default run; this runs every multi-block stage there, through this file's own runner (its own
// input and check).
TEST_CASE("n = 2^31 + 1 ints through every multi-block stage", "[.][long][gpu][scan][large]") {
  Runner<int> r((std::size_t{1} << 31) + 1, Dist::signed_uniform, 31);
  for (const ScanStage& s : multi_block_stages()) {
    const auto out = r.run(s, 256, false);
    const harness::Verification v = r.check(s, out, 256, false, true);
    INFO(s.name << ": " << v.message);
    CHECK(v.ok);
  }
}
