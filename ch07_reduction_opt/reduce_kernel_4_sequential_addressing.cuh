//! @file reduce_kernel_4_sequential_addressing.cuh
//! @brief Stage 4 (article section 7): sequential addressing, halving the stride from Block/2 down.
//!
//! Changed against stage 3: the stride starts at Block/2 and halves; thread tid < s adds
//! sdata[tid + s] into sdata[tid]. A warp's 32 lanes touch 32 consecutive words, one per bank.
//! What the profiler shows: shared-memory bank conflicts essentially vanish (the article: over 99%
//! fewer); active threads stay contiguous.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Tree with sequential addressing: for s = Block/2, Block/4, ..., 1, threads tid < s add
//! sdata[tid + s] into sdata[tid]; thread 0 adds the block's sum to `*result`.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 7.
template <class T, int Block>
__global__ void reduce_kernel_4(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  sdata[tid] = (i < n) ? data[i] : T(0);
  __syncthreads();

  for (unsigned s = Block / 2; s >= 1; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(result, sdata[0]);
}

// ---- How stage 4 is launched -----------------------------------------------------------------

//! Launches stage 4 on a.stream: zeroes the one-element result (every block adds into it with
//! atomicAdd), then ceil(n / Block) blocks of Block threads, one element per thread.
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts
inline void launch_reduce_kernel_4(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_4<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 4 as the harness runs it: the program `reduce_kernel_4`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_4_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_kernel_4";
  s.label = "sequential addressing";
  s.change = "the stride halves from Block/2 and thread tid adds sdata[tid + s]: conflict-free shared-memory access";
  s.source = "article section 7";
  s.depth = [](const harness::ReduceArgs& a) { return harness::reduce_depth(1, a.block, static_cast<double>(harness::blocks_for(a.n, a.block))); };
  s.launch = launch_reduce_kernel_4;
  return s;
}

}  // namespace ch07
