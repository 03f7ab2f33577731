//! @file striped_vectors.cuh
//! @brief The warp-striped 16-byte layout of a tile (scan stages 5 to 8): where a thread's vector j
//! starts, its loads and stores (16-byte accesses when aligned and whole, element by element
//! otherwise) through a cache policy (DefaultCache, or StreamingCache's evict-first hints), and the
//! tile size and summation depth of that layout.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "block_scan.cuh"
#include "scan/scan_problem.hpp"
#include "vec16.cuh"

namespace ch08 {

using harness::kVecItems;
using harness::Vec16;

//! Ordinary loads and stores (through L1 and L2 with the default policy).
struct DefaultCache {
  //! *p
  template <class V>
  __device__ static V load(const V* p) { return *p; }
  //! *p = v
  template <class V>
  __device__ static void store(V* p, const V& v) { *p = v; }
};

//! Warp-striped 16-byte layout of one tile: where a thread's vector j starts.
//! @tparam T element type
//! @tparam Vectors vectors per thread
template <class T, int Vectors>
__device__ __forceinline__ std::size_t striped_first(std::size_t tile_base, int j) {
  constexpr std::size_t kWarpItems = 32 * Vectors * kVecItems<T>;  // one warp's contiguous segment
  const std::size_t warp_base = tile_base + (threadIdx.x / 32) * kWarpItems;
  return warp_base + (static_cast<std::size_t>(j) * 32 + threadIdx.x % 32) * kVecItems<T>;
}

//! Loads a thread's Vectors vectors of the tile at `tile_base` (warp-striped), with 16-byte loads
//! when `vector_ok` (the whole tile is in range and `in` is 16-byte aligned), else element by
//! element with the identity 0 past n.
template <class Cache, int Vectors, class T>
__device__ __forceinline__ void load_striped(const T* in, std::size_t tile_base, std::size_t n, bool vector_ok,
                                             T (&x)[Vectors][kVecItems<T>]) {
  using V = typename Vec16<T>::type;
  if (vector_ok) {
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const V v = Cache::load(reinterpret_cast<const V*>(in + striped_first<T, Vectors>(tile_base, j)));
      std::memcpy(x[j], &v, sizeof v);
    }
  } else {
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const std::size_t first = striped_first<T, Vectors>(tile_base, j);
#pragma unroll
      for (int k = 0; k < kVecItems<T>; ++k) x[j][k] = first + k < n ? in[first + k] : T(0);
    }
  }
}

//! Writes a thread's prefixes (warp-striped): vector j starts from base[j], the sum of everything
//! in the scan before its first element. 16-byte stores when `vector_ok`, else element by element,
//! nothing past n.
template <class Cache, int Vectors, class T>
__device__ __forceinline__ void store_striped(T* out, std::size_t tile_base, std::size_t n, bool vector_ok,
                                              const T (&x)[Vectors][kVecItems<T>], const T (&base)[Vectors],
                                              bool inclusive) {
  using V = typename Vec16<T>::type;
#pragma unroll
  for (int j = 0; j < Vectors; ++j) {
    T y[kVecItems<T>];
    T run = base[j];
#pragma unroll
    for (int k = 0; k < kVecItems<T>; ++k) {
      const T next = run + x[j][k];
      y[k] = inclusive ? next : run;
      run = next;
    }
    const std::size_t first = striped_first<T, Vectors>(tile_base, j);
    if (vector_ok) {
      V v;
      std::memcpy(&v, y, sizeof v);
      Cache::store(reinterpret_cast<V*>(out + first), v);
    } else {
#pragma unroll
      for (int k = 0; k < kVecItems<T>; ++k)
        if (first + k < n) out[first + k] = y[k];
    }
  }
}

//! The scan of a warp's vectors in registers (stages 5 to 7 and 9 through striped_block_scan, stage
//! 8's compute warps directly): vector sums, one warp scan per vector index, a carry over the
//! vectors. Every lane of the warp must call it (full-mask shuffles).
//! @tparam T float, double or int
//! @tparam Vectors 16-byte vectors per thread
//! @param[in] x the lane's vectors, warp-striped (load_striped, or read_stage in stage 8)
//! @param[out] base base[j]: the sum of the warp's elements before vector j of this lane
//! @return the warp's total (every lane)
template <class T, int Vectors>
__device__ __forceinline__ T scan_warp_vectors(const T (&x)[Vectors][kVecItems<T>], T (&base)[Vectors]) {
  const unsigned lane = threadIdx.x % 32;
  T scan[Vectors];
#pragma unroll
  for (int j = 0; j < Vectors; ++j) {
    scan[j] = x[j][0];
#pragma unroll
    for (int k = 1; k < kVecItems<T>; ++k) scan[j] = scan[j] + x[j][k];
  }
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const T y = __shfl_up_sync(kFullMask, scan[j], d);
      if (lane >= d) scan[j] = y + scan[j];
    }
  }
  T carry = T(0);
#pragma unroll
  for (int j = 0; j < Vectors; ++j) {
    const T before_lane = __shfl_up_sync(kFullMask, scan[j], 1);
    base[j] = lane == 0 ? carry : carry + before_lane;
    carry = carry + __shfl_sync(kFullMask, scan[j], 31);
  }
  return carry;
}

//! The block scan of one warp-striped tile, in registers and one barrier: each thread adds each of
//! its vectors' elements, the warp scans the 32 vector sums with shuffles (one scan per vector
//! index j, the Vectors scans interleaved by the unrolled loops), a running carry chains
//! j = 0, 1, ... (a warp's vectors with index j come after every vector with a smaller index), and
//! combine_warps adds the warps. Every thread of the block must call it, at most once per kernel
//! (combine_warps' rule).
//! @tparam T float, double or int
//! @tparam Block threads per block (equal to blockDim.x), a multiple of 32, at most 1024
//! @tparam Vectors 16-byte vectors per thread
//! @param[in] x the thread's vectors, as load_striped gives them
//! @param[out] base base[j]: the sum of this warp's segment before this lane's vector j
//! @param[out] warp_sums Block / 32 shared elements (combine_warps' slots)
//! @return this warp's offset in the tile and the tile's total
template <class T, int Block, int Vectors>
__device__ __forceinline__ WarpOffsets<T> striped_block_scan(const T (&x)[Vectors][kVecItems<T>], T (&base)[Vectors],
                                                             T* warp_sums) {
  return combine_warps<T, Block>(scan_warp_vectors<T, Vectors>(x, base), warp_sums);  // this warp's total
}

//! Streaming loads and stores: cache at all levels, likely accessed once (evict first).
struct StreamingCache {
  //! __ldcs(p)
  template <class V>
  __device__ static V load(const V* p) { return __ldcs(p); }
  //! __stcs(p, v)
  template <class V>
  __device__ static void store(V* p, const V& v) { __stcs(p, v); }
};

//! Elements per tile of a vectorised stage: Block * Vectors * 16 / sizeof(T).
inline std::size_t vector_tile(const harness::ScanArgs& a, int vectors) {
  return static_cast<std::size_t>(a.block) * vectors * (16 / harness::dtype_size(a.type));
}

//! Longest addition chain inside a vectorised tile: the vector's elements, the warp scan, the carry
//! over the vectors, the warps, and the offsets.
inline double vector_tile_depth(const harness::ScanArgs& a, int vectors) {
  return 16.0 / static_cast<double>(harness::dtype_size(a.type)) + 5 + vectors + 5 + 3;
}

//! True when `p` is 16-byte aligned (the vector path needs `in` and `out` both aligned).
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace ch08
