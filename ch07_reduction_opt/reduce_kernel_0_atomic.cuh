//! @file reduce_kernel_0_atomic.cuh
//! @brief Stage 0 (article section 2): every thread adds its element straight into the result
//! with atomicAdd.
//!
//! What it teaches: atomics make the sum correct, but every addition targets one address, so the
//! hardware serialises them: n atomic operations on a single word, whatever the grid.
//! What the profiler shows: n global atomic (RED) operations; L2 / atomic unit busy, DRAM idle.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "kernel_support.cuh"

namespace ch07 {

//! Adds every element of `data` to `*result` with one atomicAdd per element.
//! @tparam T float, double or int (needs atomicAdd on T; double needs sm_60 or later)
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//!
//! Launch: ceil(n / blockDim.x) blocks of any block size; one thread per element.
//! Source: article section 2, "Naive Reduction via Atomic Operations".
template <class T>
__global__ void reduce_kernel_0(const T* __restrict__ data, std::size_t n, T* result) {
  const std::size_t i = harness::global_thread_id();
  if (i >= n) return;
  atomicAdd(result, data[i]);
}

}  // namespace ch07
