//! @file scan_support.cuh
//! @brief Host arithmetic the multi-block scan stages share: the levels of a recursive scan (how many
//! tile totals each level has, where they sit in the workspace), grid-size checks and log2.
//! Nothing here launches a kernel; every stage launches its own passes.
#pragma once
#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include "errors.hpp"

namespace ch08 {

//! Workspace arrays start on 256-byte boundaries (what cudaMalloc gives the workspace itself), so
//! every level array is aligned for 16-byte vector accesses.
inline constexpr std::size_t kWorkspaceAlign = 256;

//! `bytes` rounded up to a multiple of kWorkspaceAlign.
inline std::size_t align_up(std::size_t bytes) {
  return (bytes + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
}

//! log2 of a power of two.
constexpr int log2_int(long long v) { return v <= 1 ? 0 : 1 + log2_int(v / 2); }

//! The levels of a recursive multi-block scan with tiles of `tile` elements. Level 0 is the data
//! (n elements); level k + 1 holds one total per tile of level k; the last level fits in one tile.
//! Levels 1.. live in the workspace, each at `offset[k]` bytes (offset[0] is unused).
struct TileLevels {
  std::vector<std::size_t> count;   //!< elements of each level; count[0] = n
  std::vector<std::size_t> offset;  //!< byte offset of each level in the workspace (level >= 1)
  std::size_t bytes = 0;            //!< workspace bytes for all levels
};

//! Level sizes and workspace layout for n elements, tiles of `tile` elements and `elem` bytes each.
//! n = 2^31 + 1 with 256-element tiles: 2^31 + 1, 8,388,609, 32,769, 129, i.e. four levels.
inline TileLevels tile_levels(std::size_t n, std::size_t tile, std::size_t elem) {
  TileLevels lv;
  lv.count.push_back(n);
  lv.offset.push_back(0);
  while (lv.count.back() > tile) {
    const std::size_t next = (lv.count.back() + tile - 1) / tile;
    lv.offset.push_back(lv.bytes);
    lv.count.push_back(next);
    lv.bytes += align_up(next * elem);
  }
  return lv;
}

//! Blocks of a grid with one tile of `tile` elements per block over n elements; refuses grids past
//! the 2^31 - 1 blocks a launch may have (n past 2^36 at the smallest tiles).
inline unsigned grid_for_tiles(std::size_t n, std::size_t tile) {
  const std::size_t blocks = (n + tile - 1) / tile;
  if (blocks > static_cast<std::size_t>(INT_MAX))
    throw harness::UsageError("n = " + std::to_string(n) + " needs " + std::to_string(blocks) +
                              " blocks of one tile each, more than a grid may have (2^31 - 1)");
  return static_cast<unsigned>(blocks);
}

}  // namespace ch08
