//! @file block_scan.cuh
//! @brief The coarsened block scan of scan stages 3 and 4 and the pieces the later stages build on:
//! a warp's inclusive scan with shuffles, the warps of a block combined with one barrier, Items
//! consecutive elements per thread loaded and stored (the blocked arrangement), and the tile size
//! and summation depth of that scan.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "kernel_support.cuh"
#include "scan/scan_problem.hpp"

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

//! Longest addition chain of one coarsened tile: Items serial additions, five warp-scan levels,
//! five more combining the warps, and the offsets added on the way out.
constexpr double coarse_tile_depth(int items) { return items + 12.0; }

//! Tile size (elements) of the coarsened block scan for these arguments.
inline std::size_t coarse_tile(const harness::ScanArgs& a) {
  return static_cast<std::size_t>(a.block) * (32 / harness::dtype_size(a.type));
}

}  // namespace ch08
