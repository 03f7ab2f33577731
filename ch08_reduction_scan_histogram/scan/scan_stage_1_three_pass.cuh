//! @file scan_stage_1_three_pass.cuh
//! @brief Scan stage 1: any n, in three passes built on the chapter's Blelloch block scan
//! (scan_block_blelloch.cuh): scan every tile and write its total, scan the tile totals (the same
//! way, recursively), add each tile's offset.
//!
//! Changed against scan_block_blelloch: many blocks. Pass 1 scans each tile of Block elements with
//! blelloch_scan_shared and writes the tile's total to the workspace. Pass 2 scans those totals
//! with the same kernel: if they do not fit one tile, it is itself a multi-block scan whose own
//! totals go one level up, until a level fits one tile (n = 2^31 + 1 at Block = 256 has four
//! levels). Pass 3 walks back down and adds to every element the scanned total of the tiles before
//! its tile. The chapter's closing remark ("a two-level scheme of block scans plus a scan of block
//! totals") made recursive, so any n works.
//! Pass structure: scan-then-propagate. Pass 1 reads and writes n elements, pass 3 reads and writes
//! them again: 4n element transfers against the 2n a scan must move, so at best half the copy speed.
//! What the profiler shows: three kinds of kernel per level; pass 1 with the bank conflicts and
//! barriers of the block scan (2 log2(Block) + 1 per block), pass 3 a pure streaming kernel.
//! Determinism: the order of every addition is fixed by the code; the same bits on every run.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "scan_block_blelloch.cuh"

namespace ch08 {

//! Pass 3: adds offsets[b] (the scanned total of the tiles before tile b) to every element of tile
//! b, for tiles of Block elements. One element per thread.
//! @tparam T float, double or int
//! @tparam Block threads per block = elements per tile, equal to blockDim.x
//! @param[in,out] data n elements, each tile already scanned on its own
//! @param[in] n number of elements (> 0)
//! @param[in] offsets ceil(n / Block) exclusive prefixes of the tile totals
//! Launch: ceil(n / Block) blocks of Block threads.
template <class T, int Block>
__global__ void __launch_bounds__(Block) add_tile_offsets(T* data, std::size_t n, const T* offsets) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * Block + threadIdx.x;
  if (i < n) data[i] += offsets[blockIdx.x];
}

//! Workspace of the three-pass Blelloch scan: one array per level of tile totals.
inline std::size_t three_pass_blelloch_workspace(const harness::ScanArgs& a) {
  return tile_levels(a.n, static_cast<std::size_t>(a.block), harness::dtype_size(a.type)).bytes;
}

//! Longest addition chain: per level, the block scan (2 log2(Block)), the inclusive add and the
//! offset add; a term crosses every level once on the way up and once on the way down, so this
//! counts every level's full chain (an upper bound).
inline double three_pass_blelloch_depth(const harness::ScanArgs& a) {
  const auto levels = tile_levels(a.n, static_cast<std::size_t>(a.block), 1).count.size();
  return static_cast<double>(levels) * (2.0 * log2_int(a.block) + 2.0);
}

//! Launches the three passes over every level, for the shared-memory layout `Layout`.
//! @tparam Layout Unpadded (stage 1) or PaddedForBanks (stage 2)
//! @param[in] a scan arguments; the workspace holds three_pass_blelloch_workspace(a) bytes
template <class Layout>
void launch_three_pass_blelloch(const harness::ScanArgs& a) {
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int kBlock = decltype(block)::value;
      const TileLevels lv = tile_levels(a.n, kBlock, sizeof(T));
      const std::size_t top = lv.count.size() - 1;
      auto level = [&](std::size_t k) {  // tile totals of level k >= 1, in the workspace
        return reinterpret_cast<T*>(a.scratch<unsigned char>() + lv.offset[k]);
      };
      // Passes 1 and 2, going up: scan every tile of level k; its totals become level k + 1, which
      // the next iteration scans in place, until the top level fits one block (no totals).
      for (std::size_t k = 0; k <= top; ++k) {
        const T* src = k == 0 ? a.input<T>() : level(k);
        T* dst = k == 0 ? a.output<T>() : level(k);
        T* totals = k < top ? level(k + 1) : nullptr;
        scan_tile_blelloch<T, kBlock, Layout><<<grid_for_tiles(lv.count[k], kBlock), kBlock, 0, a.stream>>>(
            src, dst, lv.count[k], totals, k == 0 && a.inclusive);
      }
      // Pass 3, going down: level k + 1 now holds the exclusive prefix of level k's tile totals.
      for (std::size_t k = top; k-- > 0;) {
        T* data = k == 0 ? a.output<T>() : level(k);
        add_tile_offsets<T, kBlock><<<grid_for_tiles(lv.count[k], kBlock), kBlock, 0, a.stream>>>(
            data, lv.count[k], level(k + 1));
      }
    });
  });
}

//! Launches stage 1: the three passes with the chapter's shared-memory layout.
inline void launch_scan_stage_1(const harness::ScanArgs& a) { launch_three_pass_blelloch<Unpadded>(a); }

//! Stage 1: three passes on the Blelloch block scan.
inline harness::Stage<harness::Scan> scan_stage_1_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "scan_stage_1";
  s.label = "three-pass Blelloch";
  s.change = "any n: scan each tile, scan the tile totals (recursively), add each tile's offset";
  s.source = "chapter 8, section 8.7 (scanBlock and its two-level scheme)";
  s.deterministic = true;
  s.grid_for = [](const harness::ScanArgs& a) { return static_cast<std::size_t>(grid_for_tiles(a.n, a.block)); };
  s.workspace_bytes = three_pass_blelloch_workspace;
  s.depth = three_pass_blelloch_depth;
  s.launch = launch_scan_stage_1;
  return s;
}

}  // namespace ch08
