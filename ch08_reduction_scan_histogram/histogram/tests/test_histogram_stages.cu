// GPU tests of the histogram stages and the CUB baseline: every stage against the CPU reference
// (every bin equal) over awkward sizes, misaligned inputs, every block size, all three sample
// types, ranges with out-of-range samples and NaN, 1 to max_bins bins, and inputs that make the
// 8-bit counters of stages 5 and 6 wrap many times; the broken stage must fail.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "broken_histogram.cuh"
#include "catch.hpp"
#include "cub_histogram.hpp"
#include "cuda_raii.hpp"
#include "histogram_inputs.hpp"
#include "histogram_reference.hpp"
#include "ch08_histogram_stages.hpp"
#include "device_limits.hpp"
#include "run_stage.hpp"

using namespace harness;

namespace {

std::vector<Stage<Histogram>> stages_under_test() {
  auto stages = ch08::all_histogram_stages();
  stages.push_back(cub_histogram_stage());
  return stages;
}

// One case: the input (generated on the host), where it starts in device memory, the launch shape.
struct Case {
  DType type = DType::u8;
  HistInputSpec spec;
  std::size_t n = 1000;
  std::size_t offset = 0;  // samples between the 256-byte aligned allocation and the input
  int block = 256;
  std::size_t grid = 0;
};

std::string describe(const Stage<Histogram>& s, const Case& c) {
  return s.name + " (" + s.label + ") type " + dtype_name(c.type) + " dist " + hist_dist_name(c.spec.dist) +
         " n " + std::to_string(c.n) + " offset " + std::to_string(c.offset) + " block " +
         std::to_string(c.block) + " grid " + std::to_string(c.grid) + " bins " + std::to_string(c.spec.bins) +
         " [" + std::to_string(c.spec.lower) + ", " + std::to_string(c.spec.upper) + ")";
}

// Prepares a stage's workspace as the harness does (Session::poison_for): 0xFF bytes, then its
// first Stage::workspace_zeroed_bytes zeroed.
void prepare_workspace(const Stage<Histogram>& s, const DeviceBuffer& ws) {
  ws.fill_bytes(0xFF);
  const std::size_t zeroed = std::min(s.workspace_zeroed_bytes, ws.bytes());
  if (zeroed > 0) CUDA_CHECK(cudaMemset(ws.data(), 0, zeroed));
}

// Poisons the bins d_out holds (a.out points to them), launches stage `s` on `a` and returns what
// the stage wrote.
std::vector<Count> poison_launch_read(const Stage<Histogram>& s, const HistogramArgs& a, DeviceBuffer& d_out) {
  d_out.fill_bytes(0xFF);
  s.launch(a);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<Count> got(static_cast<std::size_t>(a.bins));
  CUDA_CHECK(cudaMemcpy(got.data(), d_out.data(), got.size() * sizeof(Count), cudaMemcpyDeviceToHost));
  return got;
}

// Launches stage `s` on `a` (a.in, n, type, block, grid, bins and range set): allocates its
// workspace (prepared as the harness prepares it) and the bins, poisons the bins first, and returns
// what the stage wrote.
std::vector<Count> launch_and_read(const Stage<Histogram>& s, HistogramArgs a) {
  DeviceBuffer d_out(static_cast<std::size_t>(a.bins) * sizeof(Count));
  a.out = d_out.data();
  const std::size_t ws = s.workspace_bytes ? s.workspace_bytes(a) : 0;
  DeviceBuffer d_ws(ws);
  a.workspace = d_ws.data();
  a.workspace_size = ws;
  prepare_workspace(s, d_ws);
  return poison_launch_read(s, a, d_out);
}

// Runs stage `s` on case `c` (output poisoned first) and checks it against the reference.
Verification run_case(const Stage<Histogram>& s, const Case& c) {
  const std::size_t size = dtype_size(c.type);
  DeviceBuffer d_in((c.n + c.offset) * size);
  HistogramReference ref;
  with_sample_type(c.type, [&](auto t) {
    using T = decltype(t);
    const std::vector<T> host = make_histogram_input<T>(c.n, c.spec);
    if (c.n > 0)
      CUDA_CHECK(cudaMemcpy(d_in.as<T>() + c.offset, host.data(), c.n * size, cudaMemcpyHostToDevice));
    ref = reference_histogram(host.data(), c.n, c.spec.bins, c.spec.lower, c.spec.upper);
  });
  HistogramArgs a;
  a.type = c.type;
  a.in = static_cast<const char*>(d_in.data()) + c.offset * size;
  a.n = c.n;
  a.block = c.block;
  a.grid = c.grid;
  a.bins = c.spec.bins;
  a.lower = c.spec.lower;
  a.upper = c.spec.upper;
  return check_histogram(launch_and_read(s, a), ref);
}

void require_pass(const Stage<Histogram>& s, const Case& c) {
  const Verification v = run_case(s, c);
  INFO(describe(s, c) << ": " << v.message);
  REQUIRE(v.ok);
}

// The launch arguments of case `c`, without buffers: for the device rule.
HistogramArgs probe(const Case& c) {
  HistogramArgs a;
  a.type = c.type;
  a.n = c.n;
  a.block = c.block;
  a.grid = c.grid;
  a.bins = c.spec.bins;
  a.lower = c.spec.lower;
  a.upper = c.spec.upper;
  return a;
}

// Whether stage `s` takes case `c`: its types, blocks, bins and grid, and this GPU's limits (its
// shared memory per block; what it cannot hold is skipped with a warning, never failed).
bool supports(const Stage<Histogram>& s, const Case& c) {
  bool type_ok = false;
  for (DType t : s.types) type_ok = type_ok || t == c.type;
  if (!(type_ok && c.block >= s.min_block && c.block <= s.max_block && c.spec.bins <= s.caps.max_bins &&
        (c.grid == 0 || s.grid_stride)))
    return false;
  const std::string why = device_refusal(s, probe(c), current_device_limits());
  if (!why.empty()) {
    WARN(describe(s, c) << ": skipped on this GPU: " << why);
    return false;
  }
  return true;
}

}  // namespace

TEST_CASE("every stage counts every sample type exactly over awkward sizes", "[gpu][ch08][histogram]") {
  for (const auto& s : stages_under_test())
    for (DType type : {DType::u8, DType::i32, DType::f32})
      for (std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{31},
                            std::size_t{33}, std::size_t{255}, std::size_t{257}, std::size_t{1000},
                            std::size_t{4097}, (std::size_t{1} << 20) + 3}) {
        Case c;
        c.type = type;
        c.n = n;
        c.spec.seed = 1000 + n;
        if (type != DType::u8) {  // int and float: an odd range with samples outside it
          c.spec.bins = 37;
          c.spec.lower = -1000;
          c.spec.upper = 1000;
          c.spec.invalid_share = 0.1;
        }
        if (supports(s, c)) require_pass(s, c);
      }
}

TEST_CASE("inputs that do not start on a 16-byte boundary", "[gpu][ch08][histogram]") {
  for (const auto& s : stages_under_test())
    for (DType type : {DType::u8, DType::i32, DType::f32})
      for (std::size_t offset = 0; offset < 16 / dtype_size(type); ++offset)
        for (std::size_t n : {std::size_t{5}, std::size_t{1000}, (std::size_t{1} << 16) + 5}) {
          Case c;
          c.type = type;
          c.n = n;
          c.offset = offset;
          if (type == DType::f32) {
            c.spec.bins = 7;
            c.spec.lower = -1.3;
            c.spec.upper = 2.9;
          } else if (type == DType::i32) {
            c.spec.lower = -128;
            c.spec.upper = 128;
          }
          if (supports(s, c)) require_pass(s, c);
        }
}

TEST_CASE("every supported block size, and block size +-1 samples", "[gpu][ch08][histogram]") {
  for (const auto& s : stages_under_test())
    for (int block = 32; block <= 1024; block *= 2)
      for (std::size_t n : {static_cast<std::size_t>(block) - 1, static_cast<std::size_t>(block) + 1,
                            (std::size_t{1} << 18) + 7}) {
        Case c;
        c.block = block;
        c.n = n;
        if (supports(s, c)) require_pass(s, c);
      }
}

TEST_CASE("skewed inputs and small grids: long runs in one bin wrap the 8-bit counters", "[gpu][ch08][histogram]") {
  for (const auto& s : stages_under_test())
    for (HistDist dist : {HistDist::one_bin, HistDist::zipf, HistDist::image, HistDist::hot})
      for (std::size_t grid : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
        Case c;
        c.spec.dist = dist;
        c.spec.hot_share = 0.9;
        c.n = (std::size_t{1} << 22) + 3;  // grid 1: each thread counts about 16,000 samples
        c.grid = grid;
        if (supports(s, c)) require_pass(s, c);
      }
}

TEST_CASE("int and float samples with runs in one bin: every vector single-bin", "[gpu][ch08][histogram]") {
  // One-bin and hot data for the non-identity bin maps: stage 6 counts a vector whose samples share
  // a bin with one add, a path 8-bit samples over [0, 256) never take.
  for (const auto& s : stages_under_test())
    for (DType type : {DType::f32, DType::i32})
      for (HistDist dist : {HistDist::one_bin, HistDist::hot})
        for (int bins : {1, 7, 256}) {
          Case c;
          c.type = type;
          c.spec.dist = dist;
          c.spec.hot_share = 0.9;
          c.spec.bins = bins;
          c.spec.lower = type == DType::f32 ? -1.5 : -1000;
          c.spec.upper = type == DType::f32 ? 2.5 : 1000;
          c.spec.seed = 77 + bins;
          c.n = 100003;
          if (supports(s, c)) require_pass(s, c);
        }
}

TEST_CASE("bin counts from 1 to each stage's maximum, float edges, NaN", "[gpu][ch08][histogram]") {
  for (const auto& s : stages_under_test()) {
    for (int bins : {1, 2, 7, 255, 256}) {
      Case c;
      c.n = 100003;
      c.spec.bins = bins;  // 8-bit samples over [0, 256) into `bins` bins (not the identity unless 256)
      if (supports(s, c)) require_pass(s, c);
      c.type = DType::f32;
      c.spec.lower = -1.3;
      c.spec.upper = 2.9;
      c.spec.invalid_share = 0.2;  // NaN, infinities, exactly upper, just below lower ...
      if (supports(s, c)) require_pass(s, c);
    }
    Case c;
    c.type = DType::i32;
    c.n = 1 << 20;
    c.block = std::min(256, s.max_block);
    // The most bins this stage takes on this GPU, up to 2^16: its own cap, then its shared memory.
    c.spec.bins = std::min(s.caps.max_bins, 1 << 16);
    while (c.spec.bins > 1 && !device_refusal(s, probe(c), current_device_limits()).empty()) c.spec.bins /= 2;
    c.spec.lower = -c.spec.bins;
    c.spec.upper = c.spec.bins;  // two values per bin, negative samples included
    Verification v;
    try {
      v = run_case(s, c);
    } catch (const UsageError& e) {  // the device lacks the shared memory: refused, not wrong
      WARN(describe(s, c) << " refused: " << e.what());
      continue;
    }
    INFO(describe(s, c) << ": " << v.message);
    CHECK(v.ok);
  }
}

TEST_CASE("one bin, one past 2^31 samples: the count passes what a 32-bit counter holds", "[gpu][ch08][histogram][large]") {
  // Every sample is 7 and there is one bin over [0, 256): the bin's count is n = 2^31 + 1, one more
  // than a signed 32-bit counter holds. The input is filled on the device (2 GiB, no host copy).
  const std::size_t n = (std::size_t{1} << 31) + 1;
  DeviceBuffer d_in(n);
  CUDA_CHECK(cudaMemset(d_in.data(), 7, n));
  for (const auto& s : stages_under_test()) {
    HistogramArgs a;
    a.type = DType::u8;
    a.in = d_in.data();
    a.n = n;
    a.block = std::min(256, s.max_block);
    a.bins = 1;
    a.lower = 0;
    a.upper = 256;
    INFO(s.name << " (" << s.label << "): one bin, n = " << n);
    CHECK(launch_and_read(s, a)[0] == static_cast<Count>(n));
  }
}

// A merge-balanced stage's grid: its base stage's grid, capped at ceil(sqrt(n / bins)) blocks (and
// never fewer than keep a block's share within 2^31 samples); with --grid, the base stage's.
static void check_balanced_grid(const Stage<Histogram>& base, const Stage<Histogram>& balanced) {
  for (int bins : {1, 7, 256, 400})  // 400 bins: 50 KiB, within what a T4 gives a block
    for (std::size_t n : {std::size_t{1}, std::size_t{4097}, std::size_t{1} << 20, std::size_t{1} << 22,
                          std::size_t{1} << 24, std::size_t{1} << 28, (std::size_t{1} << 32) + 5}) {
      HistogramArgs a;
      a.type = DType::u8;
      a.n = n;
      a.block = 256;
      a.bins = bins;
      a.upper = 256;
      // ceil(sqrt(n / bins)) in integers: the least g with g * g * bins >= n.
      std::size_t root = static_cast<std::size_t>(std::sqrt(static_cast<double>(n) / bins));
      while (root * root * static_cast<std::size_t>(bins) < n) ++root;
      while (root > 1 && (root - 1) * (root - 1) * static_cast<std::size_t>(bins) >= n) --root;
      root = std::max<std::size_t>(root, 1);
      const std::size_t counters = (n + (std::size_t{1} << 31) - 1) >> 31;  // a block's share <= 2^31
      INFO(balanced.name << ", n " << n << " bins " << bins << ": " << base.name << " " << base.grid_for(a)
                         << ", sqrt rule " << root);
      CHECK(balanced.grid_for(a) == std::max(std::min(base.grid_for(a), root), std::max<std::size_t>(counters, 1)));
      a.grid = 77;
      CHECK(balanced.grid_for(a) == base.grid_for(a));
    }
}

TEST_CASE("stages 8 and 9's grids: stage 7's and stage 4's, capped at ceil(sqrt(n / bins)) blocks; --grid honoured",
          "[gpu][ch08][histogram][grid]") {
  check_balanced_grid(ch08::histogram_stage_named("histogram_stage_7"), ch08::histogram_stage_named("histogram_stage_8"));
  check_balanced_grid(ch08::histogram_stage_named("histogram_stage_4"), ch08::histogram_stage_named("histogram_stage_9"));
}

TEST_CASE("histogram_stage_10: runs back to back on one workspace, which it leaves zero",
          "[gpu][ch08][histogram][histogram_stage_10]") {
  // Stage 10 writes the bins (no memset) and keeps a ticket and a workspace histogram between
  // launches. Three launches on one workspace, each on a new input: every output must be that
  // input's histogram (a workspace not zeroed by the last block would add the previous counts), and
  // the workspace must read all zeros after each launch. One block (n = 1000) and several.
  const Stage<Histogram> s = ch08::histogram_stage_named("histogram_stage_10");
  for (const std::size_t n : {std::size_t{1000}, std::size_t{100003}, (std::size_t{1} << 22) + 5}) {
    for (const HistDist dist : {HistDist::uniform, HistDist::one_bin}) {
      HistogramArgs a;
      a.type = DType::u8;
      a.n = n;
      a.block = 256;
      const std::size_t ws = s.workspace_bytes(a);
      DeviceBuffer d_ws(ws), d_out(static_cast<std::size_t>(a.bins) * sizeof(Count)), d_in(n);
      a.workspace = d_ws.data();
      a.workspace_size = ws;
      a.out = d_out.data();
      a.in = d_in.data();
      prepare_workspace(s, d_ws);
      INFO("n " << n << ": grid " << s.grid_for(a));
      CHECK((s.grid_for(a) == 1) == (n == 1000));  // one block at n = 1000, several above: both endings
      for (std::uint64_t run = 1; run <= 3; ++run) {
        HistInputSpec spec;
        spec.dist = dist;
        spec.seed = run;
        const std::vector<unsigned char> host = make_histogram_input<unsigned char>(n, spec);
        CUDA_CHECK(cudaMemcpy(d_in.data(), host.data(), n, cudaMemcpyHostToDevice));
        const std::vector<Count> got = poison_launch_read(s, a, d_out);
        const Verification v = check_histogram(got, reference_histogram(host.data(), n, a.bins, a.lower, a.upper));
        std::vector<unsigned char> left(ws);
        CUDA_CHECK(cudaMemcpy(left.data(), d_ws.data(), ws, cudaMemcpyDeviceToHost));
        INFO("n " << n << " dist " << hist_dist_name(dist) << " run " << run << " grid " << s.grid_for(a) << ": "
                  << v.message);
        CHECK(v.ok);
        CHECK(std::all_of(left.begin(), left.end(), [](unsigned char b) { return b == 0; }));
      }
    }
  }
}

TEST_CASE("the broken histogram fails the check at the first non-empty bin", "[gpu][ch08][histogram][selftest]") {
  Case c;
  c.n = 100000;
  const Verification v = run_case(broken_histogram_stage(true), c);
  CHECK_FALSE(v.ok);
  CHECK(v.got + 1 == v.expected);
}
