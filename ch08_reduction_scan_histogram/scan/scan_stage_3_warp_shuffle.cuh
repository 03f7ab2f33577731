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
//! instruction touches 32 sectors, and L1 serves the other Items - 1 instructions of the same
//! sectors. Stage 5 replaces them by 16-byte vector loads.
//! Determinism: a fixed order for every addition; the same bits on every run.
//! Source: Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back" (NVIDIA
//! NVR-2016-002), section 3 (reduce-then-scan) and its block-wide scans; chapter 8, section 8.6's
//! warp shuffles.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "kernel_support.cuh"
#include "scan/scan_problem.hpp"
#include "scan_support.cuh"

namespace ch08 {

//! Every lane of the warp takes part in each shuffle.
inline constexpr unsigned kFullMask = 0xffffffffu;

//! Elements per thread of the coarsened block scan: 32 bytes (8 float or int, 4 double).
template <class T>
inline constexpr int kCoarseItems = static_cast<int>(32 / sizeof(T));

//! Inclusive scan of one value per lane over the warp: lane l gets v_0 + ... + v_l.
//! Five __shfl_up_sync steps (distances 1, 2, 4, 8, 16), registers only. All 32 lanes must call it.
//! @tparam T float, double or int
template <class T>
__device__ __forceinline__ T warp_inclusive_scan(T v) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    const T y = __shfl_up_sync(kFullMask, v, d);
    if (lane >= d) v = y + v;
  }
  return v;
}

//! A warp's place in its block: the sum of the warps before it, and the block's total.
template <class T>
struct WarpOffsets {
  T warp_exclusive;  //!< sum of the totals of the warps before this one (0 for warp 0)
  T block_total;     //!< sum of every warp's total
};

//! Combines the warps of a block: lane 31 of each warp stores its warp's total, one barrier, then
//! every warp scans the Block / 32 totals with warp_inclusive_scan and reads its offset and the
//! block total. Every thread of the block must call it, at most once per kernel (the slots are
//! reused without a second barrier).
//! @tparam T float, double or int
//! @tparam Block threads per block, a multiple of 32, at most 1024, equal to blockDim.x
//! @param[in] warp_total this warp's total (read from lane 31)
//! @param[out] warp_sums Block / 32 shared elements
template <class T, int Block>
__device__ __forceinline__ WarpOffsets<T> combine_warps(T warp_total, T* warp_sums) {
  constexpr int kWarps = Block / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int warp = static_cast<int>(threadIdx.x / 32);
  if (lane == 31) warp_sums[warp] = warp_total;
  __syncthreads();  // the only barrier of the block scan
  const T v = warp_inclusive_scan(lane < kWarps ? warp_sums[lane] : T(0));
  WarpOffsets<T> w;
  w.block_total = __shfl_sync(kFullMask, v, kWarps - 1);
  const T before = __shfl_sync(kFullMask, v, (warp + 31) % 32);  // lane warp - 1
  w.warp_exclusive = warp == 0 ? T(0) : before;
  return w;
}

//! A thread's place in its tile.
template <class T>
struct BlockPrefix {
  T thread_exclusive;  //!< sum of the tile's elements before this thread's first element
  T block_total;       //!< sum of the whole tile
};

//! Block scan of Items consecutive elements per thread (a blocked arrangement): serial thread sums,
//! warp_inclusive_scan, combine_warps. One barrier. Call at most once per kernel.
//! @tparam T float, double or int
//! @tparam Block threads per block (equal to blockDim.x)
//! @tparam Items elements per thread
//! @param[in] x this thread's elements, in order
//! @param[out] warp_sums Block / 32 shared elements
template <class T, int Block, int Items>
__device__ __forceinline__ BlockPrefix<T> block_scan_blocked(const T (&x)[Items], T* warp_sums) {
  T thread_total = x[0];
#pragma unroll
  for (int j = 1; j < Items; ++j) thread_total = thread_total + x[j];
  const T inclusive = warp_inclusive_scan(thread_total);
  T exclusive = __shfl_up_sync(kFullMask, inclusive, 1);
  if (threadIdx.x % 32 == 0) exclusive = T(0);
  const WarpOffsets<T> w = combine_warps<T, Block>(inclusive, warp_sums);  // lane 31: the warp's total
  return {w.warp_exclusive + exclusive, w.block_total};
}

//! Loads a thread's Items consecutive elements of the tile starting at `tile_base`; the identity 0
//! past n. Scalar loads; a whole tile is loaded without bounds checks.
//! @tparam Block threads per block
//! @tparam T element type
//! @tparam Items elements per thread
template <int Block, class T, int Items>
__device__ __forceinline__ void load_blocked(const T* in, std::size_t tile_base, std::size_t n, T (&x)[Items]) {
  const std::size_t first = tile_base + static_cast<std::size_t>(threadIdx.x) * Items;
  if (tile_base + static_cast<std::size_t>(Block) * Items <= n) {
#pragma unroll
    for (int j = 0; j < Items; ++j) x[j] = in[first + j];
  } else {
#pragma unroll
    for (int j = 0; j < Items; ++j) x[j] = first + j < n ? in[first + j] : T(0);
  }
}

//! Writes a thread's Items prefixes: `prefix` is the sum of everything before x[0]; exclusive
//! writes the running sum before each element, inclusive after it. Nothing is written past n.
//! @tparam Block threads per block
//! @tparam T element type
//! @tparam Items elements per thread
template <int Block, class T, int Items>
__device__ __forceinline__ void store_blocked(T* out, std::size_t tile_base, std::size_t n,
                                              const T (&x)[Items], T prefix, bool inclusive) {
  const std::size_t first = tile_base + static_cast<std::size_t>(threadIdx.x) * Items;
  T run = prefix;
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const T next = run + x[j];
    if (first + j < n) out[first + j] = inclusive ? next : run;
    run = next;
  }
}

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

//! Longest addition chain of one coarsened tile: Items serial additions, five warp-scan levels,
//! five more combining the warps, and the offsets added on the way out.
constexpr double coarse_tile_depth(int items) { return items + 12.0; }

//! Tile size (elements) of the coarsened block scan for these arguments.
inline std::size_t coarse_tile(const harness::ScanArgs& a) {
  return static_cast<std::size_t>(a.block) * (32 / harness::dtype_size(a.type));
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
