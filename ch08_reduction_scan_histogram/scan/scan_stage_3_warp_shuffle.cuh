//! @file scan_stage_3_warp_shuffle.cuh
//! @brief Scan stage 3: a faster block scan (thread coarsening, warp-shuffle scans, warps combined
//! by one more shuffle scan) in a reduce-then-scan pass structure.
//!
//! Changed against stage 2: the block scan and the pass structure.
//! - Block scan. Each thread owns Items consecutive elements (32 bytes: 8 floats or ints, 4
//!   doubles) and adds them serially; the 32 thread sums of a warp are scanned with five
//!   __shfl_up_sync steps (Kogge-Stone, registers only); lane 31 of each warp publishes its warp's
//!   total in shared memory; after the one barrier, every warp scans the Block / 32 warp totals with
//!   the same five shuffles and takes its own offset and the block's total. One barrier per tile
//!   instead of 2 log2(Block) + 1, and a tile of Block * Items elements instead of Block.
//! - Pass structure: reduce-then-scan instead of scan-then-propagate. Pass 1 only reduces each tile
//!   to its total (reads n, writes nothing per element); pass 2 scans the totals (recursively, the
//!   same way); pass 3 reads each tile again, scans it and adds its offset as it writes. That is 3n
//!   element transfers (read, read, write) instead of stage 2's 4n (read, write, read, write): a
//!   re-read is cheaper than a write and a re-read, and a scan of n elements can do no better than
//!   2n, which only a single pass reaches (stage 4).
//! What the profiler shows against stage 2: DRAM bytes per element fall from 16 to 12 (floats);
//! barriers per tile fall to 1 in both data passes; shared-memory instructions almost vanish (one
//! store per warp, one load per lane); shuffle instructions appear.
//! The loads are blocked (a thread reads Items consecutive elements with scalar loads): each warp
//! instruction touches 32 sectors, and the other Items - 1 instructions touch the same sectors
//! again. Does L1 serve those repeats? Not measured: the committed profile tables (H100 and H200,
//! docs/results/H100/profile/ch08-scan_profile_claims.md) have no L1 counter;
//! `ncu --metrics l1tex__t_sector_hit_rate.pct` on this stage would tell. Stage 5 replaces them by
//! 16-byte vector loads.
//! Determinism: a fixed order for every addition; the same bits on every run.
//! Source: Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back" (NVIDIA
//! NVR-2016-002), section 3 (reduce-then-scan) and its block-wide scans; chapter 8, section 8.6's
//! warp shuffles.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "block_scan.cuh"
#include "kernel_support.cuh"
#include "scan/scan_problem.hpp"
#include "scan_support.cuh"

namespace ch08 {

//! Pass 1: the total of each tile of Block * Items elements, written to tile_totals[blockIdx.x].
//! @tparam T float, double or int
//! @tparam Block threads per block (equal to blockDim.x), a power of two 32..1024
//! @tparam Items elements per thread
//! @param[in] in n elements
//! @param[in] n number of elements (> 0)
//! @param[out] tile_totals ceil(n / (Block * Items)) totals
//! Launch: one block per tile. Barriers: 1 per block.
template <class T, int Block, int Items>
__global__ void __launch_bounds__(Block) reduce_tiles(const T* in, std::size_t n, T* tile_totals) {
  __shared__ T warp_sums[Block / 32];
  T x[Items];
  load_blocked<Block>(in, static_cast<std::size_t>(blockIdx.x) * Block * Items, n, x);
  const BlockPrefix<T> p = block_scan_blocked<T, Block>(x, warp_sums);
  if (threadIdx.x == 0) tile_totals[blockIdx.x] = p.block_total;
}

//! Pass 3 (and the one-block scan of the top level): scans each tile of Block * Items elements and
//! adds tile_offsets[blockIdx.x] (if not null) as it writes. `in` may equal `out`.
//! @tparam T float, double or int
//! @tparam Block threads per block (equal to blockDim.x), a power of two 32..1024
//! @tparam Items elements per thread
//! @param[in] in n elements
//! @param[out] out n prefixes
//! @param[in] n number of elements (> 0)
//! @param[in] tile_offsets exclusive prefixes of the tile totals, or nullptr (offset 0)
//! @param[in] inclusive inclusive or exclusive prefixes
//! Launch: one block per tile. Barriers: 1 per block.
template <class T, int Block, int Items>
__global__ void __launch_bounds__(Block)
    scan_tiles(const T* in, T* out, std::size_t n, const T* tile_offsets, bool inclusive) {
  __shared__ T warp_sums[Block / 32];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * Block * Items;
  T x[Items];
  load_blocked<Block>(in, base, n, x);
  const BlockPrefix<T> p = block_scan_blocked<T, Block>(x, warp_sums);
  const T offset = tile_offsets != nullptr ? tile_offsets[blockIdx.x] : T(0);
  store_blocked<Block>(out, base, n, x, offset + p.thread_exclusive, inclusive);
}

//! Launches stage 3: reduce every level up to one tile, scan it in one block, then scan every level
//! back down with its tile offsets.
//! @param[in] a scan arguments; the workspace holds tile_levels(n, tile, element size).bytes bytes
inline void launch_scan_stage_3(const harness::ScanArgs& a) {
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    constexpr int kItems = kCoarseItems<T>;
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int kBlock = decltype(block)::value;
      constexpr std::size_t kTile = static_cast<std::size_t>(kBlock) * kItems;
      const TileLevels lv = tile_levels(a.n, kTile, sizeof(T));
      const std::size_t top = lv.count.size() - 1;
      auto level = [&](std::size_t k) {  // tile totals of level k >= 1, in the workspace
        return reinterpret_cast<T*>(a.scratch<unsigned char>() + lv.offset[k]);
      };
      auto src = [&](std::size_t k) { return k == 0 ? a.input<T>() : level(k); };
      auto dst = [&](std::size_t k) { return k == 0 ? a.output<T>() : level(k); };
      // Pass 1, going up: level k + 1 = the totals of level k's tiles.
      for (std::size_t k = 0; k < top; ++k)
        reduce_tiles<T, kBlock, kItems><<<grid_for_tiles(lv.count[k], kTile), kBlock, 0, a.stream>>>(
            src(k), lv.count[k], level(k + 1));
      // Pass 2: the top level fits one tile; scan it in one block (exclusive, unless it is the data).
      scan_tiles<T, kBlock, kItems><<<1, kBlock, 0, a.stream>>>(src(top), dst(top), lv.count[top], nullptr,
                                                                top == 0 && a.inclusive);
      // Pass 3, going down: scan level k's tiles again, each starting from its offset in level k + 1.
      for (std::size_t k = top; k-- > 0;)
        scan_tiles<T, kBlock, kItems><<<grid_for_tiles(lv.count[k], kTile), kBlock, 0, a.stream>>>(
            src(k), dst(k), lv.count[k], level(k + 1), k == 0 && a.inclusive);
    });
  });
}

//! Stage 3: coarsened warp-shuffle block scan, reduce-then-scan.
inline harness::Stage<harness::Scan> scan_stage_3_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "scan_stage_3";
  s.label = "warp shuffles, reduce-then-scan";
  s.change = "coarsened warp-shuffle block scan (one barrier per tile); reduce first, so 3n transfers instead of 4n";
  s.source = "Merrill and Garland 2016, section 3 (reduce-then-scan); chapter 8, section 8.6 (warp shuffles)";
  s.deterministic = true;
  s.grid_for = [](const harness::ScanArgs& a) { return static_cast<std::size_t>(grid_for_tiles(a.n, coarse_tile(a))); };
  s.workspace_bytes = [](const harness::ScanArgs& a) {
    return tile_levels(a.n, coarse_tile(a), harness::dtype_size(a.type)).bytes;
  };
  s.depth = [](const harness::ScanArgs& a) {
    const auto levels = tile_levels(a.n, coarse_tile(a), 1).count.size();
    return static_cast<double>(levels) * 2.0 * coarse_tile_depth(static_cast<int>(32 / harness::dtype_size(a.type)));
  };
  s.launch = launch_scan_stage_3;
  return s;
}

}  // namespace ch08
