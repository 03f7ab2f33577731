// CPU tests of the multi-block scans' host arithmetic (scan_support.cuh): recursion levels,
// workspace layout, grid limits; stage 9's epoch tags (tile_flags.cuh) and its description; and what the stages refuse on the readers' GPUs (stage 7's
// occupancy forms on a T4, stage 8 below sm_90 or without its kernel), without a GPU.
#include <algorithm>
#include <cstddef>
#include <string>
#include <tuple>
#include <vector>

#include "catch.hpp"
#include "ch08_scan_stages.hpp"
#include "device_limits.hpp"
#include "run_stage.hpp"
#include "errors.hpp"
#include "scan_support.cuh"
#include "tile_flags.cuh"

using ch08::tile_levels;

TEST_CASE("scan levels: one per tile total until a level fits one tile", "[cpu][scan]") {
  CHECK(tile_levels(1, 256, 4).count == std::vector<std::size_t>{1});
  CHECK(tile_levels(256, 256, 4).count == std::vector<std::size_t>{256});
  CHECK(tile_levels(257, 256, 4).count == std::vector<std::size_t>{257, 2});
  CHECK(tile_levels(65536, 256, 4).count == std::vector<std::size_t>{65536, 256});
  CHECK(tile_levels(65537, 256, 4).count == std::vector<std::size_t>{65537, 257, 2});
  const std::size_t big = (std::size_t{1} << 31) + 1;
  const ch08::TileLevels lv = tile_levels(big, 256, 4);
  CHECK(lv.count == std::vector<std::size_t>{big, 8388609, 32769, 129});
  // Levels 1.. are 256-byte aligned and do not overlap.
  REQUIRE(lv.offset.size() == 4);
  for (std::size_t k = 1; k < lv.offset.size(); ++k) {
    CHECK(lv.offset[k] % ch08::kWorkspaceAlign == 0);
    const std::size_t end = k + 1 < lv.offset.size() ? lv.offset[k + 1] : lv.bytes;
    CHECK(end - lv.offset[k] >= lv.count[k] * 4);
  }
}

TEST_CASE("grids of one tile per block stay below 2^31 blocks", "[cpu][scan]") {
  CHECK(ch08::grid_for_tiles(1, 2048) == 1u);
  CHECK(ch08::grid_for_tiles((std::size_t{1} << 31) + 1, 2048) == (1u << 20) + 1);
  CHECK(ch08::grid_for_tiles((std::size_t{1} << 36) - 32, 32) == (1u << 31) - 1);  // the largest grid
  CHECK_THROWS_AS(ch08::grid_for_tiles(std::size_t{1} << 36, 32), harness::UsageError);  // 2^31 blocks
  CHECK(ch08::log2_int(1) == 0);
  CHECK(ch08::log2_int(1024) == 10);
}

TEST_CASE("a scan stage refuses an output that overlaps its input, before any launch", "[cpu][ch08][scan]") {
  using namespace harness;
  std::vector<float> buffer(2000);  // host memory stands in for device buffers: validation only
  for (const Stage<Scan>& s : ch08::all_scan_stages()) {
    INFO(s.name);
    ScanArgs a;
    a.type = DType::f32;
    a.n = 1000;
    a.block = std::min(256, s.max_block);
    if (s.caps.max_n) a.n = std::min(a.n, s.caps.max_n(a.block));
    a.in = buffer.data();
    a.out = buffer.data() + 1000;  // separate: accepted
    CHECK_NOTHROW(validate_config(s, a));
    a.out = buffer.data();  // in place
    CHECK_THROWS_AS(validate_config(s, a), UsageError);
    a.out = buffer.data() + 10;  // overlapping
    CHECK_THROWS_AS(validate_config(s, a), UsageError);
  }
}

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The message check_device_fit gives for `s` at `a` on `gpu`, "" when it accepts.
std::string refusal_on(const harness::Stage<harness::Scan>& s, const harness::ScanArgs& a,
                       const harness::DeviceLimits& gpu) {
  try {
    harness::check_device_fit(s, a, gpu);
  } catch (const harness::UnsupportedError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("stage 7's occupancy forms are refused where an SM holds fewer threads than they ask", "[cpu][ch08][scan]") {
  using namespace harness;
  const std::vector<Stage<Scan>> forms = ch08::scan_stage_7_knob_stages();
  const std::vector<std::string> names = ch08::scan_stage_7_knob_names();
  REQUIRE(forms.size() == names.size());
  for (std::size_t k = 0; k < forms.size(); ++k) {
    INFO(names[k]);
    ScanArgs a;
    a.type = DType::f32;
    a.n = std::size_t{1} << 24;
    a.block = default_block_of(forms[k]);
    const bool occupancy = has(names[k], "occ");
    // A T4 holds 1024 threads per SM: 5 or 6 blocks of 256 do not fit.
    const std::string t4 = refusal_on(forms[k], a, limits_sm75());
    if (occupancy) {
      CHECK(has(t4, kCannotRunHere));
      CHECK(has(t4, "--tuning " + names[k]));
      CHECK(has(t4, "1024"));
      CHECK(has(t4, has(names[k], "backoff") ? "run scan_stage_7 --tuning backoff instead"
                                             : "run scan_stage_7 --tuning default instead"));
    } else {
      CHECK(t4.empty());
    }
    // Every other reader's GPU holds 1536 or 2048: each form runs there.
    for (const DeviceLimits& gpu : {limits_sm80(), limits_sm86(), limits_sm89(), limits_sm90(), limits_sm120()}) {
      INFO(gpu.name);
      CHECK(refusal_on(forms[k], a, gpu).empty());
    }
  }
}

TEST_CASE("stage 8 is refused below sm_90, and everywhere in a build without its kernel", "[cpu][ch08][scan]") {
  using namespace harness;
  for (const Stage<Scan>& s : ch08::scan_stage_8_shape_stages()) {
    INFO(s.label);
    CHECK(s.min_cc == 90);
    CHECK(s.instead == "scan_stage_7");
    ScanArgs a;
    a.type = DType::i32;
    a.n = 1000003;
    a.block = default_block_of(s);
    for (const DeviceLimits& gpu : reader_gpus()) {
      INFO(gpu.name);
      const std::string why = refusal_on(s, a, gpu);
      if (!s.unavailable.empty()) {
        // CUDA 12.4 to 12.8 (CCCL before 2.8), or no sm_90 code: refused on every GPU, saying why.
        CHECK(has(why, kCannotRunHere));
        CHECK(has(why, s.unavailable));
        CHECK(has(why, "run scan_stage_7 instead"));
      } else if (gpu.cc < 90) {
        CHECK(has(why, kCannotRunHere));
        CHECK(has(why, "needs sm_90"));
        CHECK(has(why, "run scan_stage_7 instead"));
      } else {
        CHECK(why.empty());
      }
    }
  }
  // Not in this build: the reason names what would build it (a toolkit, or the architectures).
  const std::string gap = ch08::scan_stage_named("scan_stage_8").unavailable;
  if (!gap.empty()) {
    WARN("scan_stage_8 is not in this build: " << gap);
    CHECK((has(gap, "stage 8 needs CUDA 12.9 or newer") || has(gap, "-DCMAKE_CUDA_ARCHITECTURES")));
  }
}

TEST_CASE("stage 9's tags: no stale, cleared or all-ones word passes for the current epoch", "[cpu][ch08][scan]") {
  using ch08::epoch_tag;
  using ch08::flag_in_epoch;
  using ch08::kEpochMax;
  using ch08::next_epoch;
  // Epochs go 1 .. kEpochMax and wrap to 1; 0 (no run yet) is followed by 1.
  CHECK(next_epoch(0) == 1u);
  CHECK(next_epoch(1) == 2u);
  CHECK(next_epoch(kEpochMax - 1) == kEpochMax);
  CHECK(next_epoch(kEpochMax) == 1u);
  CHECK(next_epoch(0xFFFFFFFFu) == 1u);  // an all-ones run word (not zeroed): still never epoch 0
  // An all-ones word (the harness's 0xFF poison) has the epoch field 2^30 - 1, past every epoch.
  CHECK((0xFFFFFFFFu >> 2) > kEpochMax);
  for (unsigned e : {1u, 2u, 3u, 1000u, kEpochMax - 1, kEpochMax}) {
    INFO("epoch " << e);
    CHECK(next_epoch(e) != 0u);
    CHECK(flag_in_epoch(0u, e) == ch08::kTileInvalid);            // cleared
    CHECK(flag_in_epoch(0xFFFFFFFFu, e) == ch08::kTileInvalid);   // poisoned
    CHECK(flag_in_epoch(epoch_tag(e, 3), e) == ch08::kTileInvalid);  // no flag 3
    CHECK(flag_in_epoch(epoch_tag(e, ch08::kTileInvalid), e) == ch08::kTileInvalid);
    for (unsigned f : {unsigned{ch08::kTileAggregate}, unsigned{ch08::kTileInclusive}}) {
      CHECK(flag_in_epoch(epoch_tag(e, f), e) == f);
      CHECK(flag_in_epoch(epoch_tag(e - 1, f), e) == ch08::kTileInvalid);  // the previous run's
      CHECK(flag_in_epoch(epoch_tag(next_epoch(e), f), e) == ch08::kTileInvalid);
    }
  }
}

TEST_CASE("stage 9: one launch, its run word zeroed once, its workspace and grid", "[cpu][ch08][scan]") {
  using namespace harness;
  const Stage<Scan> s = ch08::scan_stage_named("scan_stage_9");
  CHECK(ch08::all_scan_stages().back().name == "scan_stage_9");
  CHECK(s.workspace_zeroed_bytes == 8);  // the run word only
  CHECK(default_block_of(s) == 512);
  CHECK(s.max_block == 1024);
  CHECK_FALSE(s.deterministic);
  ScanArgs a;
  a.block = 512;
  for (const auto& [type, tile, word_bytes] : {std::tuple<DType, std::size_t, std::size_t>{DType::f32, 8192, 8},
                                               std::tuple<DType, std::size_t, std::size_t>{DType::i32, 8192, 8},
                                               std::tuple<DType, std::size_t, std::size_t>{DType::f64, 4096, 16}}) {
    INFO(dtype_name(type));
    a.type = type;
    for (std::size_t n : {std::size_t{1}, tile, tile + 1, (std::size_t{1} << 31) + 1}) {
      a.n = n;
      const std::size_t tiles = (n + tile - 1) / tile;
      CHECK(s.grid_for(a) == tiles);
      CHECK(s.workspace_bytes(a) == ch08::kWorkspaceAlign + tiles * word_bytes);
    }
  }
}
