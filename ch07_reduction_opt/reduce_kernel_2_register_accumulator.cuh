//! @file reduce_kernel_2_register_accumulator.cuh
//! @brief Stage 2 (article section 5): keep the running partial sum in a register.
//!
//! Changed against stage 1: `sdata[tid] += sdata[tid + s]` loads sdata[tid] from shared memory at
//! every level although this thread wrote it itself; now the thread keeps it in the register `sum`
//! and only loads the partner's value: one shared load per level instead of two.
//! What the profiler shows: shared-memory load instructions fall (the article: by over 40%; about
//! half, since one of the two loads per level is gone); the predicated-off lanes are unchanged.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_finish.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Stage 1's interleaved tree with the thread's own partial kept in a register.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam F Finish::atomic (the article) or Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] out atomic: one element, zeroed before the launch, receives the sum;
//!                partials: gridDim.x elements, block b writes its sum to out[b]
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 5.
template <class T, int Block, Finish F>
__global__ void reduce_kernel_2(const T* __restrict__ data, std::size_t n, T* out) {
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
  if (tid == 0) {
    if constexpr (F == Finish::atomic) atomicAdd(out, sum);  // the article: into the one result
    else out[blockIdx.x] = sum;                               // its own slot, for the second pass
  }
}

// ---- How stage 2 is launched -----------------------------------------------------------------

//! Launches stage 2 with finish F on a.stream: atomic: zeroes the one-element result (every
//! block adds into it), then ceil(n / Block) blocks of Block threads, one element per thread.
//! partials: the same blocks write their sums to the workspace, then reduce_partials folds them.
//! @tparam F Finish::atomic or Finish::partials
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts
//!            (partials: a workspace of one element per block)
template <Finish F>
void launch_reduce_kernel_2(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* out = block_sums_target<F, T>(a);  // atomic: the zeroed result; partials: the workspace
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_2<T, B, F><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, out);
    });
    finish_block_sums<F, T>(a, grid);  // partials: the second pass; atomic: nothing
  });
}

//! Stage 2 with finish F as the harness runs it: the program `reduce_kernel_2` (`--finish`), the
//! ladder and the tests.
template <Finish F>
harness::Stage<harness::Reduce> reduce_kernel_2_stage() {
  return finish_stage<F>(
      {"reduce_kernel_2", "register accumulator",
       "the thread's own partial stays in a register: one shared load per level instead of two",
       "article section 5"},
      one_element_per_thread_grid, one_element_per_thread, launch_reduce_kernel_2<F>);
}

}  // namespace ch07
