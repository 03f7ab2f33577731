//! @file scan_stage_8_tile.cuh
//! @brief Scan stage 8's arithmetic on a tile in a stage of its ring (sm_90 and newer), the same in
//! every shape and schedule: a stage's bytes (pipeline_stage_bytes) and elements (stage_elements),
//! where a tile lies in the input (tile_extent), a consumer thread's vectors read from the stage
//! (read_stage), to be scanned across the warp as stage 5 scans them (scan_warp_vectors, in
//! striped_vectors.cuh), and one warp's sum of the whole tile (sum_stage). The warps that use them, and the ring they read, are in
//! scan_stage_8_bulk_copy_pipeline.cuh.
#pragma once
#include <cstddef>
#include <cstring>

#include "block_scan.cuh"
#include "scan_stage_8_toolkit.cuh"
#include "striped_vectors.cuh"
#include "tile_status.cuh"

namespace ch08 {

//! Bytes of one stage of the ring: a tile of `block` * `vectors` 16-byte vectors, plus 16 for a
//! misaligned head, rounded up to 128. Preconditions: block and vectors positive.
__host__ __device__ constexpr unsigned pipeline_stage_bytes(int block, int vectors) {
  return (static_cast<unsigned>(block) * static_cast<unsigned>(vectors) * 16 + 16 + 127) / 128 * 128;
}

//! pipeline_stage_bytes(Block, Vectors) as a compile-time constant, for the kernel's pointer arithmetic.
template <int Block, int Vectors>
__host__ __device__ constexpr unsigned pipeline_stage_bytes() {
  return pipeline_stage_bytes(Block, Vectors);
}

#if CH08_STAGE8_PTX && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)

//! Elements in a whole tile of stage 8: Block consumer threads x Vectors 16-byte vectors of T.
template <class T, int Block, int Vectors>
inline constexpr std::size_t kPipelineTile = static_cast<std::size_t>(Block) * Vectors * kVecItems<T>;

//! Where a tile lies in the input: its first element and how many elements it has.
struct TileExtent {
  std::size_t first;  //!< index of the tile's first element
  std::size_t count;  //!< elements in the tile, 1 .. kPipelineTile (fewer for the last tile)
};

//! The extent of `tile` in an input of n elements (tile * tile size < n).
template <class T, int Block, int Vectors>
__device__ __forceinline__ TileExtent tile_extent(std::size_t n, unsigned tile) {
  constexpr std::size_t kTile = kPipelineTile<T, Block, Vectors>;
  const std::size_t first = static_cast<std::size_t>(tile) * kTile;
  return {first, n - first < kTile ? n - first : kTile};
}

//! Stage s of the ring as elements, from the tile's element 0 (`skip` elements into the stage).
template <class T, int Block, int Vectors>
__device__ __forceinline__ const T* stage_elements(const unsigned char* buffers, unsigned s, unsigned skip) {
  return reinterpret_cast<const T*>(buffers + static_cast<std::size_t>(s) * pipeline_stage_bytes<Block, Vectors>()) +
         skip;
}

//! A consumer thread's Vectors 16-byte vectors of the tile in a stage (warp-striped, stage 5's layout
//! with tile base 0): 16-byte shared loads when the stage is aligned (skip = 0) and the tile whole,
//! element by element with the identity 0 past `count` otherwise.
template <class T, int Block, int Vectors>
__device__ __forceinline__ void read_stage(const T* stage, std::size_t count, unsigned skip,
                                           T (&x)[Vectors][kVecItems<T>]) {
  using V = typename Vec16<T>::type;
  if (skip == 0 && count == kPipelineTile<T, Block, Vectors>) {
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const V v = *reinterpret_cast<const V*>(stage + striped_first<T, Vectors>(0, j));
      std::memcpy(x[j], &v, sizeof v);
    }
  } else {
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const std::size_t e = striped_first<T, Vectors>(0, j);
#pragma unroll
      for (int k = 0; k < kVecItems<T>; ++k) x[j][k] = e + k < count ? stage[e + k] : T(0);
    }
  }
}

//! The reduce warp's sum of the tile in a stage: its 32 lanes read the stage with 16-byte loads
//! (element by element when the stage is misaligned or the tile short) and add, each lane into four
//! independent partial sums per vector element, so that the additions do not wait on one another.
//! @return in every lane: the sum of the tile's `count` elements
template <class T, int Block, int Vectors>
__device__ __forceinline__ T sum_stage(const T* stage, std::size_t count, unsigned skip) {
  using V = typename Vec16<T>::type;
  constexpr int kVec = kVecItems<T>;
  constexpr int kPerLane = Block * Vectors / 32;  // 16-byte vectors each lane adds
  constexpr int kChains = 4;                      // independent partial sums per vector element
  static_assert(kPerLane % kChains == 0, "whole rounds of the partial sums");
  const unsigned lane = threadIdx.x % 32;
  T part = T(0);
  if (skip == 0 && count == kPipelineTile<T, Block, Vectors>) {
    T acc[kChains][kVec];
#pragma unroll
    for (int c = 0; c < kChains; ++c)
#pragma unroll
      for (int k = 0; k < kVec; ++k) acc[c][k] = T(0);
#pragma unroll 2
    for (int j = 0; j < kPerLane; j += kChains) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) {
        const V v = *reinterpret_cast<const V*>(stage + (static_cast<std::size_t>(j + c) * 32 + lane) * kVec);
        T x[kVec];
        std::memcpy(x, &v, sizeof v);
#pragma unroll
        for (int k = 0; k < kVec; ++k) acc[c][k] = acc[c][k] + x[k];
      }
    }
#pragma unroll
    for (int c = 0; c < kChains; ++c)
#pragma unroll
      for (int k = 0; k < kVec; ++k) part = part + acc[c][k];
  } else {
    for (std::size_t e = lane; e < count; e += 32) part = part + stage[e];
  }
  return warp_sum(part);
}

#endif  // CH08_STAGE8_PTX && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)

}  // namespace ch08
