// CPU tests of the multi-block scans' host arithmetic (scan_support.cuh): recursion levels,
// workspace layout, grid limits.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "catch.hpp"
#include "ch08_scan_stages.hpp"
#include "run_stage.hpp"
#include "errors.hpp"
#include "scan_support.cuh"

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
