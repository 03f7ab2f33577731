//! @file warp_histograms.cuh
//! @brief One sub-histogram per warp in shared memory (WarpHistograms) and the shared memory it
//! takes: how stages 2, 3 and 4 count.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "kernel_support.cuh"
#include "stage.hpp"

namespace ch08 {

//! One sub-histogram per warp in shared memory: `warps x bins` 32-bit counters, warp w's copy at
//! [w * bins, (w + 1) * bins). Stages 2, 3 and 4 count with it.
struct WarpHistograms {
  unsigned* all;   //!< every warp's copy
  unsigned* mine;  //!< the calling warp's copy
  int bins;        //!< bins per copy

  //! Bytes of shared memory for `warps` copies of `bins` counters.
  static __host__ __device__ std::size_t bytes(int warps, int bins) {
    return static_cast<std::size_t>(warps) * static_cast<std::size_t>(bins) * sizeof(unsigned);
  }
  //! Views `smem` (bytes(blockDim.x / 32, bins) bytes) as the block's copies.
  __device__ __forceinline__ WarpHistograms(unsigned* smem, int bins_)
      : all(smem), mine(smem + (threadIdx.x / 32) * bins_), bins(bins_) {}
  //! Every thread of the block zeroes its share; a barrier must follow.
  __device__ __forceinline__ void zero() const {
    const int total = static_cast<int>(blockDim.x / 32) * bins;
    for (int k = threadIdx.x; k < total; k += blockDim.x) all[k] = 0;
  }
  //! Adds one sample to bin `bin` (>= 0) of this warp's copy.
  __device__ __forceinline__ void add(int bin) const { atomicAdd(&mine[bin], 1u); }
  //! After a barrier: the block's count of bin `bin`, the sum of every warp's copy (below 2^32).
  __device__ __forceinline__ unsigned block_count(int bin) const {
    const int warps = static_cast<int>(blockDim.x / 32);
    unsigned count = 0;
    for (int w = 0; w < warps; ++w) count += all[w * bins + bin];
    return count;
  }
  //! After a barrier: thread b takes the block's count of bin b (b, b + blockDim.x, ...) and issues
  //! one global atomic per non-empty bin.
  __device__ __forceinline__ void fold(harness::Count* out) const {
    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
      const unsigned count = block_count(b);
      if (count != 0) atomicAdd(&out[b], harness::Count{count});
    }
  }
};

//! Shared memory of the per-warp stages (2, 3, 4) at the arguments' block size and bins: what their
//! launch asks for (dynamic; no static shared memory), block / 32 x bins x 4 bytes.
inline std::size_t per_warp_smem(const harness::HistogramArgs& a) {
  return WarpHistograms::bytes(a.block / 32, a.bins);
}

}  // namespace ch08
