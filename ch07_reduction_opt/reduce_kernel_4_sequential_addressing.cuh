//! @file reduce_kernel_4_sequential_addressing.cuh
//! @brief Stage 4 (article section 7): sequential addressing, halving the stride from Block/2 down.
//!
//! Changed against stage 3: the stride starts at Block/2 and halves; thread tid < s adds
//! sdata[tid + s] into sdata[tid]. A warp's 32 lanes touch 32 consecutive words, one per bank.
//! What the profiler shows: shared-memory bank conflicts essentially vanish (the article: over 99%
//! fewer); active threads stay contiguous.
//! The loop below has constant bounds (Block is a template parameter), so nvcc unrolls it fully:
//! no loop branch in the SASS, 9 BAR.SYNC, 17 LDS (test cpu.sass_claims_ch07: SASS for sm_90, float, block 256, partials finish).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_finish.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Tree with sequential addressing: for s = Block/2, Block/4, ..., 1, threads tid < s add
//! sdata[tid + s] into sdata[tid]; thread 0 finishes the block's sum as F says.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam F Finish::atomic (the article) or Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] out atomic: one element, zeroed before the launch, receives the sum;
//!                partials: gridDim.x elements, block b writes its sum to out[b]
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 7.
template <class T, int Block, Finish F>
__global__ void reduce_kernel_4(const T* __restrict__ data, std::size_t n, T* out) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  sdata[tid] = (i < n) ? data[i] : T(0);
  __syncthreads();

  for (unsigned s = Block / 2; s >= 1; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    if constexpr (F == Finish::atomic) atomicAdd(out, sdata[0]);  // the article: into the one result
    else out[blockIdx.x] = sdata[0];                               // its own slot, for the second pass
  }
}

// ---- How stage 4 is launched -----------------------------------------------------------------

//! Launches stage 4 with finish F on a.stream: atomic: zeroes the one-element result (every
//! block adds into it), then ceil(n / Block) blocks of Block threads, one element per thread.
//! partials: the same blocks write their sums to the workspace, then reduce_partials folds them.
//! @tparam F Finish::atomic or Finish::partials
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts
//!            (partials: a workspace of one element per block)
template <Finish F>
void launch_reduce_kernel_4(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* out = block_sums_target<F, T>(a);  // atomic: the zeroed result; partials: the workspace
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_4<T, B, F><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, out);
    });
    finish_block_sums<F, T>(a, grid);  // partials: the second pass; atomic: nothing
  });
}

//! Stage 4 with finish F as the harness runs it: the program `reduce_kernel_4` (`--finish`), the
//! ladder and the tests.
template <Finish F>
harness::Stage<harness::Reduce> reduce_kernel_4_stage() {
  return finish_stage<F>(
      {"reduce_kernel_4", "sequential addressing",
       "the stride halves from Block/2 and thread tid adds sdata[tid + s]: conflict-free shared-memory access",
       "article section 7"},
      one_element_per_thread_grid, one_element_per_thread, launch_reduce_kernel_4<F>);
}

}  // namespace ch07
