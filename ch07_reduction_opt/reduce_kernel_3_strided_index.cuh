//! @file reduce_kernel_3_strided_index.cuh
//! @brief Stage 3 (article section 6): map consecutive threads to the active slots (strided index).
//!
//! Changed against stage 2: instead of asking "is my index a multiple of 2s?", thread tid works on
//! slot idx = 2 * s * tid. The active threads are now tids 0, 1, 2, ... (contiguous), so whole warps
//! are either all active or all idle until fewer than 32 threads remain: no divergence, and no %.
//! What the profiler shows: the article promises less branch divergence. On the H200 with nvcc 13
//! there was none to remove: the modulo test of stage 2 is predicated, not branched (0 divergent
//! branch targets in both stages). What does change: whole warps now drop out of each level, so
//! shared-memory instructions issued fall (ld + st 6.68 M -> 2.69 M at 2^24 floats), while the
//! index arithmetic adds instructions (33.8 M -> 43.8 M warp instructions). And at s = 2 lanes 0 and
//! 16 hit words 0 and 64, both in bank 0: bank conflicts jump from 0.10 M to 6.52 M, growing with s.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "kernel_support.cuh"

namespace ch07 {

//! Interleaved tree where thread tid adds sdata[idx + s] into sdata[idx], idx = 2 * s * tid.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 6.
template <class T, int Block>
__global__ void reduce_kernel_3(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  sdata[tid] = (i < n) ? data[i] : T(0);
  __syncthreads();

  for (unsigned s = 1; s < Block; s *= 2) {
    const unsigned idx = 2 * s * tid;
    if (idx < Block) sdata[idx] += sdata[idx + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(result, sdata[0]);
}

}  // namespace ch07
