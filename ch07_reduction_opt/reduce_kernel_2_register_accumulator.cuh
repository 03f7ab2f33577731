//! @file reduce_kernel_2_register_accumulator.cuh
//! @brief Stage 2 (article section 5): keep the running partial sum in a register.
//!
//! Changed against stage 1: `sdata[tid] += sdata[tid + s]` loads sdata[tid] from shared memory at
//! every level although this thread wrote it itself; now the thread keeps it in the register `sum`
//! and only loads the partner's value: one shared load per level instead of two.
//! What the profiler shows: shared-memory load instructions fall (the article: by over 40%; on the
//! H200 at 2^24 floats, 6.23 M -> 3.08 M, -50.5%); the predicated-off lanes are unchanged.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "kernel_support.cuh"

namespace ch07 {

//! Stage 1's interleaved tree with the thread's own partial kept in a register.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 5.
template <class T, int Block>
__global__ void reduce_kernel_2(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  T sum = (i < n) ? data[i] : T(0);
  sdata[tid] = sum;
  __syncthreads();

  for (unsigned s = 1; s < Block; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(result, sum);
}

}  // namespace ch07
