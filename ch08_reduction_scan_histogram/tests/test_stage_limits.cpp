// CPU test: every stage of both chapters, at its defaults, fits every GPU a reader has (a T4, an
// A100, RTX 30/40/50 cards, an H100/H200): harness::device_refusal, the rule every program, ladder
// and test applies before a launch, run here against harness::reader_gpus() without a GPU. A stage
// that needs a newer architecture (scan stage 8: sm_90) must be refused there, by that rule and with
// what to run instead. The checker itself is tested first, on made-up stages, so that a wrong rule
// fails here.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ch07_stages.hpp"
#include "ch08_histogram_stages.hpp"
#include "ch08_reduce_stages.hpp"
#include "ch08_scan_stages.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "run_stage.hpp"

using namespace harness;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The arguments a stage runs with on `gpu` when a reader gives no flag: its default block there
// (default_block_of: 256, halved where the stage's shared memory does not fit), the problem's
// default settings, n = 2^24 of `type`.
template <class P>
typename P::Args default_args(const Stage<P>& s, DType type, const DeviceLimits& gpu) {
  typename P::Args a;
  P::apply(typename P::Config{}, a);
  a.type = type;
  a.n = std::size_t{1} << 24;
  a.block = default_block_of(s, a, gpu);
  return a;
}

// Every type of every stage at its defaults: accepted by the stage's own rules, and fitting every
// reader GPU whose architecture the stage supports (unless its own device_rule refuses, with
// something to run instead); refused with the architecture named (and something to run instead) on
// older ones. Returns the number of (stage, type, GPU) checks.
template <class P>
int check_defaults(const std::vector<Stage<P>>& stages) {
  int checks = 0;
  for (const Stage<P>& s : stages) {
    if (!s.unavailable.empty()) {
      WARN(s.name << " is not in this build: " << s.unavailable);
      continue;
    }
    for (DType type : s.types) {
      for (const DeviceLimits& gpu : reader_gpus()) {
        const typename P::Args a = default_args(s, type, gpu);
        INFO(s.name << ", " << dtype_name(type) << ", block " << a.block << " on " << gpu.name);
        REQUIRE_NOTHROW(validate_config(s, a));
        const std::string why = device_refusal(s, a, gpu);
        if (s.min_cc && gpu.cc < s.min_cc) {
          CHECK(contains(why, "sm_" + std::to_string(s.min_cc)));
          CHECK_FALSE(s.instead.empty());
        } else if (s.device_rule && !s.device_rule(a, gpu).empty()) {
          // A form tuned past this GPU (scan stage 7's occupancy forms ask 1280 and 1536 resident
          // threads per SM; a T4 holds 1024): refused by its own rule, naming what to run instead
          // (test_scan_levels checks which forms are refused where).
          CHECK(why == s.device_rule(a, gpu));
          CHECK_FALSE(s.instead.empty());
        } else {
          CHECK(why.empty());
          if (s.shared_bytes) CHECK(s.shared_bytes(a) <= gpu.smem_per_block);
        }
        ++checks;
      }
    }
  }
  return checks;
}

}  // namespace

TEST_CASE("the readers' GPUs: their limits as the device attributes give them", "[cpu][limits]") {
  const std::vector<DeviceLimits> gpus = reader_gpus();
  REQUIRE(gpus.size() == 6);
  CHECK(limits_sm75().smem_per_block == 65536);   // a T4: 64 KiB per block
  CHECK(limits_sm86().smem_per_block == 101376);  // RTX 30: 99 KiB
  CHECK(limits_sm89().smem_per_block == 101376);  // RTX 40
  CHECK(limits_sm120().smem_per_block == 101376); // RTX 50
  CHECK(limits_sm80().smem_per_block == 166912);  // A100: 163 KiB
  CHECK(limits_sm90().smem_per_block == 232448);  // H100/H200: 227 KiB
  CHECK(limits_sm75().max_threads_per_sm == 1024);
  CHECK(limits_sm86().max_threads_per_sm == 1536);
  CHECK(limits_sm90().max_threads_per_sm == 2048);
}

TEST_CASE("TUTORIAL_DEVICE_LIMITS only lowers, and refuses what it cannot read", "[cpu][limits]") {
  const DeviceLimits h200 = limits_sm90();
  const DeviceLimits t = apply_limits_setting(h200, "smem=64KiB,memory=16GB");
  CHECK(t.smem_per_block == 65536);
  CHECK(t.memory_bytes == 16000000000ull);
  CHECK(t.cc == 90);  // untouched
  CHECK(t.lowered == "smem=64KiB,memory=16GB");
  const DeviceLimits as_t4 = apply_limits_setting(h200, "sm_75");
  CHECK(as_t4.cc == 75);
  CHECK(as_t4.smem_per_block == 65536);
  CHECK(as_t4.max_threads_per_sm == 1024);
  CHECK(as_t4.memory_bytes == limits_sm75().memory_bytes);
  // Raising is ignored: a T4 told it has 227 KiB still has 64 KiB.
  CHECK(apply_limits_setting(limits_sm75(), "smem=227KiB").smem_per_block == 65536);
  CHECK(apply_limits_setting(limits_sm75(), "sm_90").cc == 75);
  CHECK(apply_limits_setting(h200, "smem=99KiB").smem_per_block == 101376);
  CHECK(apply_limits_setting(h200, "cc=80,threads_per_sm=1536").max_threads_per_sm == 1536);
  for (const char* bad : {"smem", "smem=", "smem=lots", "smem=64XB", "sm_70", "memory=0", "cc=x", "colour=red"})
    CHECK_THROWS_AS(apply_limits_setting(h200, bad), UsageError);
}

TEST_CASE("the device rule refuses what does not fit, and says what to run instead", "[cpu][limits]") {
  // A made-up stage whose shared memory grows with the block: 260 bytes a thread.
  Stage<Reduce> s;
  s.name = "made_up";
  s.max_block = 256;
  s.shared_bytes = [](const ReduceArgs& a) { return static_cast<std::size_t>(a.block) * 260; };
  ReduceArgs a;
  a.block = 256;  // 66,560 bytes: past a T4's 65,536, within an RTX card's 101,376
  const std::string on_t4 = device_refusal(s, a, limits_sm75());
  CHECK(contains(on_t4, "66560 bytes"));
  CHECK(contains(on_t4, "65536"));
  CHECK(device_refusal(s, a, limits_sm86()).empty());
  try {
    check_device_fit(s, a, limits_sm75());
    FAIL("a stage past the T4's shared memory was not refused");
  } catch (const UnsupportedError& e) {
    CHECK(contains(e.what(), kCannotRunHere));
    CHECK(contains(e.what(), "--block 128"));  // the largest block that fits
  }
  CHECK_NOTHROW(check_device_fit(s, a, limits_sm90()));
  // An architecture rule, with the stage to run instead.
  Stage<Reduce> hopper = s;
  hopper.shared_bytes = nullptr;
  hopper.min_cc = 90;
  hopper.instead = "reduce_kernel_9";
  try {
    check_device_fit(hopper, a, limits_sm86());
    FAIL("an sm_90 stage was not refused on sm_86");
  } catch (const UnsupportedError& e) {
    CHECK(contains(e.what(), "needs sm_90"));
    CHECK(contains(e.what(), "run reduce_kernel_9 instead"));
  }
  CHECK_NOTHROW(check_device_fit(hopper, a, limits_sm90()));
  CHECK_NOTHROW(check_device_fit(hopper, a, limits_sm120()));
  // A stage this build could not compile is refused everywhere, with its reason.
  Stage<Reduce> missing = s;
  missing.unavailable = "built without it";
  CHECK(device_refusal(missing, a, limits_sm90()) == "built without it");
  // The checker on the real stages can fail: a stage 5 histogram at block 256 on a T4 is refused.
  bool some_refused = false;
  for (const auto& h : ch08::all_histogram_stages()) {
    HistogramArgs big;
    big.block = 256;
    big.bins = 256;
    big.type = DType::u8;
    if (h.max_block >= 256 && !device_refusal(h, big, limits_sm75()).empty()) some_refused = true;
  }
  CHECK(some_refused);
}

TEST_CASE("past 2^62 bytes a size is refused before anything else", "[cpu][limits]") {
  const auto stages = ch07::all_stages();
  ReduceArgs a;
  a.block = 256;
  a.type = DType::f32;
  a.n = std::size_t{1} << 60;  // 2^62 bytes of float: the largest accepted
  CHECK_NOTHROW(validate_config(stages.front(), a));
  a.n = (std::size_t{1} << 60) + 1;
  CHECK_THROWS_AS(validate_config(stages.front(), a), UsageError);
  a.type = DType::f64;
  a.n = std::size_t{1} << 62;  // 2^65 bytes: wraps a size_t
  CHECK_THROWS_AS(validate_config(stages.front(), a), UsageError);
}

TEST_CASE("scan stage 9 refuses a grid past what its run word counts (2^24 - 1 tiles)", "[cpu][limits]") {
  const Stage<Scan> st = ch08::scan_stage_named("scan_stage_9");
  ScanArgs a;
  a.block = 32;  // one tile: 32 threads x 4 vectors x 4 floats = 512 floats
  a.type = DType::f32;
  a.n = (std::size_t{1} << 24) * 512 - 512;  // 2^24 - 1 tiles: the most
  CHECK(grid_of(st, a) == (std::size_t{1} << 24) - 1);
  CHECK_NOTHROW(validate_shape(st, a));
  a.n += 1;  // one tile more
  try {
    validate_shape(st, a);
    FAIL("a grid of 2^24 tiles was accepted");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("16777216 blocks, more than the 16777215 this stage can hold") != std::string::npos);
  }
}

TEST_CASE("every stage's defaults fit every reader's GPU", "[cpu][limits]") {
  int checks = 0;
  checks += check_defaults(ch07::all_stages());
  checks += check_defaults(ch07::partials_stages());
  checks += check_defaults(ch08::ladder_reduce_stages());
  checks += check_defaults(std::vector<Stage<Reduce>>{ch08::reduce_stage_4_atomic_finish()});
  checks += check_defaults(ch08::all_scan_stages());
  checks += check_defaults(ch08::scan_stage_7_knob_stages());
  checks += check_defaults(ch08::scan_stage_8_shape_stages());
  checks += check_defaults(ch08::all_histogram_stages());
  checks += check_defaults(ch08::histogram_stage_7_copy_stages());
  CHECK(checks > 500);  // every stage and type was reached on six GPUs
}

TEST_CASE("bytes per thread of the one-launch reductions: one trip below 4 MiB of input, two from there", "[cpu][limits]") {
  // harness::one_launch_bytes_per_thread, the rule of chapter 8's stages 7 and 8 and chapter 7's stage
  // 12 (their grid: one block per Block x this many bytes, up to one wave). 64 bytes is one trip of
  // four 16-byte loads.
  CHECK(harness::kTwoTripBytes == (std::size_t{1} << 22));
  CHECK(harness::one_launch_bytes_per_thread(0, 64) == 64);
  CHECK(harness::one_launch_bytes_per_thread(std::size_t{1} << 20, 64) == 64);        // 2^18 floats: one trip
  CHECK(harness::one_launch_bytes_per_thread((std::size_t{1} << 22) - 1, 64) == 64);
  CHECK(harness::one_launch_bytes_per_thread(std::size_t{1} << 22, 64) == 128);       // 2^20 floats: two
  CHECK(harness::one_launch_bytes_per_thread(std::size_t{1} << 36, 64) == 128);
  CHECK(harness::one_launch_bytes_per_thread(std::size_t{1} << 22, 16) == 32);        // twice the trip given
  harness::ReduceArgs a;  // the overload the stages call: bytes from n and the type
  a.n = std::size_t{1} << 20;
  a.type = harness::DType::f32;
  CHECK(harness::one_launch_bytes_per_thread(a, 64) == 128);  // 4 MiB of floats
  a.type = harness::DType::f64;
  a.n = (std::size_t{1} << 19) - 1;
  CHECK(harness::one_launch_bytes_per_thread(a, 64) == 64);   // 8 bytes short of 4 MiB of doubles
}

TEST_CASE("blocks chosen by n: reduce stage 7 keeps one block up to 1024 threads (and takes 1024 from 64 MiB), scan stage 9 spreads the input over the SMs", "[cpu][limits]") {
  using harness::DType;
  harness::ReduceArgs r;
  r.type = DType::f32;
  const harness::Stage<harness::Reduce>& s7 = ch08::reduce_stage_named("reduce_stage_7");
  REQUIRE(s7.block_for);
  const auto reduce_block = [&](std::size_t n, DType t) {
    r.n = n;
    r.type = t;
    return harness::default_block_of(s7, r, harness::limits_sm90());
  };
  CHECK(reduce_block(1000, DType::f32) == 256);
  CHECK(reduce_block(std::size_t{1} << 12, DType::f32) == 256);      // 16 KiB: one trip of 256 threads
  CHECK(reduce_block((std::size_t{1} << 12) + 1, DType::f32) == 512);
  CHECK(reduce_block(std::size_t{1} << 14, DType::f32) == 1024);     // 64 KiB: one trip of 1024 threads
  CHECK(reduce_block(std::size_t{1} << 14, DType::f64) == 256);      // 128 KiB: more than one block
  CHECK(reduce_block(std::size_t{1} << 13, DType::f64) == 1024);
  CHECK(reduce_block((std::size_t{1} << 14) + 1, DType::f32) == 256);
  CHECK(reduce_block((std::size_t{1} << 24) - 1, DType::f32) == 256);  // just under 64 MiB
  CHECK(reduce_block(std::size_t{1} << 24, DType::f32) == 1024);       // 64 MiB: blocks of 1024 from here
  CHECK(reduce_block(std::size_t{1} << 23, DType::f64) == 1024);
  CHECK(reduce_block(std::size_t{1} << 30, DType::i32) == 1024);
  harness::ScanArgs a;
  a.type = DType::f32;
  const harness::Stage<harness::Scan>& s9 = ch08::scan_stage_named("scan_stage_9");
  REQUIRE(s9.block_for);
  const auto scan_block = [&](std::size_t n, const harness::DeviceLimits& l) {
    a.n = n;
    return harness::default_block_of(s9, a, l);
  };
  const harness::DeviceLimits h = harness::limits_sm90();  // 132 SMs
  CHECK(scan_block(std::size_t{1} << 10, h) == 256);
  CHECK(scan_block(std::size_t{1} << 12, h) == 256);  // one tile of 256 threads
  CHECK(scan_block(std::size_t{1} << 14, h) == 128);
  CHECK(scan_block(std::size_t{1} << 18, h) == 128);  // 128 tiles of 128 threads: fewer than 132 SMs
  CHECK(scan_block(std::size_t{1} << 20, h) == 256);  // 256 tiles
  CHECK(scan_block(std::size_t{1} << 22, h) == 512);  // 512 tiles
  const harness::DeviceLimits t4 = harness::limits_sm75();  // 40 SMs
  CHECK(scan_block(std::size_t{1} << 18, t4) == 256);  // 64 tiles of 256
  CHECK(scan_block(std::size_t{1} << 20, t4) == 512);  // 128 tiles of 512
}
