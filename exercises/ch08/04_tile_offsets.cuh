//! @file 04_tile_offsets.cuh
//! @brief Exercise ch08/04: the offset pass of the three-pass scan (exercise: fill in the TODO(student) parts).
//!
//! Goal: turn the chapter's one-block scan into a scan of any n. Passes 1 and 2 are given: pass 1
//! scans every tile of Block elements on its own (the Blelloch block scan) and writes each tile's
//! total one level up; pass 2 scans those totals the same way, recursively, until a level fits one
//! tile. Afterwards level k + 1 holds, for every tile of level k, the exclusive prefix of the tile
//! totals: the sum of every element in the tiles before it. You write pass 3: the kernel that adds
//! that offset to every element of its tile, and the loop that launches it from the top level back
//! down to the data.
//! Builds on: scan stage 1 (ch08_reduction_scan_histogram/scan/scan_stage_1_three_pass.cuh:
//! add_tile_offsets and launch_three_pass_blelloch); the level arithmetic (ch08::tile_levels,
//! scan_support.cuh) and the block scan kernel (ch08::scan_tile_blelloch) are the chapter's.
//! Build and check: scripts/exercise.sh ch08/04
//!   (or: cmake --build build --target exercise_ch08_04 && ctest --test-dir build -L exercise -R ch08_04)
//! A right answer: the check passes for every n (one below, at and one past a tile, a tile of
//! tiles, 2^22 + 1 with three levels at block 32), every block size 32..1024, float / double / int,
//! exclusive and inclusive.
//!
//! Stuck? The solved file, with why it works: solutions/ch08/04_tile_offsets.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "scan/scan_problem.hpp"
#include "scan_block_blelloch.cuh"
#include "scan_support.cuh"

namespace ex08 {

//! Pass 3: adds offsets[b] to every element of tile b (Block elements per tile, one per thread).
//! @param[in,out] data n elements, each tile scanned on its own
//! @param[in] offsets ceil(n / Block) exclusive prefixes of the tile totals
template <class T, int Block>
__global__ void __launch_bounds__(Block) ex04_add_offsets(T* data, std::size_t n, const T* offsets) {
  (void)data;
  (void)n;
  (void)offsets;
  // TODO(student): add each element's tile offset (pass 3's kernel). Hints: exercises/README.md,
  // exercise ch08/04. As written the kernel does nothing.
}

//! The three passes over every level (stage 1 with the chapter's unpadded block scan).
inline void launch_ex04(const harness::ScanArgs& a) {
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      const ch08::TileLevels lv = ch08::tile_levels(a.n, B, sizeof(T));
      const std::size_t top = lv.count.size() - 1;
      auto level = [&](std::size_t k) {  // the lv.count[k] elements of level k >= 1, in the workspace
        return reinterpret_cast<T*>(a.scratch<unsigned char>() + lv.offset[k]);
      };
      // Passes 1 and 2 (given), going up: scan every tile of level k; its totals become level k + 1.
      for (std::size_t k = 0; k <= top; ++k) {
        const T* src = k == 0 ? a.input<T>() : level(k);
        T* dst = k == 0 ? a.output<T>() : level(k);
        T* totals = k < top ? level(k + 1) : nullptr;
        ch08::scan_tile_blelloch<T, B, ch08::Unpadded><<<ch08::grid_for_tiles(lv.count[k], B), B, 0, a.stream>>>(
            src, dst, lv.count[k], totals, k == 0 && a.inclusive);
      }
      // TODO(student): pass 3, going down the levels. Hints: exercises/README.md, exercise ch08/04.
      // As written nothing is added: every tile is scanned on its own, so every n past one block is
      // wrong from element `block` on.
    });
  });
}

//! The exercise as the harness runs it: any n, stage 1's workspace and depth.
inline harness::Stage<harness::Scan> ex04_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "ch08_04_tile_offsets";
  s.label = "exercise: three-pass scan";
  s.change = "scan each tile, scan the tile totals (recursively), add each tile's offset";
  s.source = "exercises/ch08/04_tile_offsets.cuh";
  s.deterministic = true;
  s.grid_for = [](const harness::ScanArgs& a) { return static_cast<std::size_t>(ch08::grid_for_tiles(a.n, a.block)); };
  s.workspace_bytes = [](const harness::ScanArgs& a) {
    return ch08::tile_levels(a.n, static_cast<std::size_t>(a.block), harness::dtype_size(a.type)).bytes;
  };
  s.depth = [](const harness::ScanArgs& a) {
    const auto levels = ch08::tile_levels(a.n, static_cast<std::size_t>(a.block), 1).count.size();
    return static_cast<double>(levels) * (2.0 * ch08::log2_int(a.block) + 2.0);
  };
  s.launch = launch_ex04;
  return s;
}

}  // namespace ex08
