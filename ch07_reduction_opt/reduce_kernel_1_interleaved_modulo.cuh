//! @file reduce_kernel_1_interleaved_modulo.cuh
//! @brief Stage 1 (article section 3): a tree in shared memory, interleaved addressing chosen
//! with a modulo test; one atomicAdd per block.
//!
//! Changed against stage 0: each block first sums its blockDim.x elements in shared memory, in
//! log2(blockDim.x) levels separated by __syncthreads(); only thread 0 touches the global result.
//! Atomics drop from n to n / blockDim.x.
//! What the profiler shows (H200, n = 2^24 floats, block 256): `tid % (2*s) == 0` leaves most lanes
//! of every warp idle. nvcc predicates the test instead of branching, so the idle lanes show up as
//! predicated-off threads (19.4 of 32 threads do useful work per instruction), not as divergent
//! branches. The kernel takes 118 us, and so do stages 2 to 7: see the chapter README on the
//! same-address atomicAdd that bounds them all.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "kernel_support.cuh"

namespace ch07 {

//! Block-wise tree sum with interleaved addressing: at level s, threads whose index is a multiple
//! of 2s add sdata[tid + s] into sdata[tid]; thread 0 adds the block's sum to `*result`.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements
//! @param[in] n number of elements; threads past n load the identity 0
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 3.
template <class T, int Block>
__global__ void reduce_kernel_1(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  sdata[tid] = (i < n) ? data[i] : T(0);
  __syncthreads();

  for (unsigned s = 1; s < Block; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(result, sdata[0]);
}

}  // namespace ch07
