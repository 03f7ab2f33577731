//! @file reduce_kernel_7_warp_shuffle.cuh
//! @brief Stage 7 (article section 10): the last warp exchanges partials through registers with
//! __shfl_down_sync instead of through shared memory.
//!
//! Changed against stage 6: the five last levels become five shuffles: no shared-memory loads or
//! stores, no __syncwarp(), and no volatile. Block size 32 now works too (no sdata[tid + 32]).
//! What the compiler makes of it (test cpu.sass_claims_ch07: SASS for sm_90, float, block 256, partials finish): 4 BAR.SYNC against stage
//! 6's 3 (stride 32 is still a shared-memory level), 3 LDS against 8, 10 SHFL (five on the path of
//! a converged warp, five in the fallback that BRA.DIV takes for a diverged one), 4 branches
//! against 1, 96 instructions against 60.
//! What the profiler shows: fewer shared load/store instructions than stage 6; no racecheck
//! hazards; barriers per block are log2(Block) - 4 (4 at block 256).
//! The shuffles (warp_shuffle_sum) and the block sum built on them (block_sum_shuffle, with stage 5's
//! unrolled_tree above the last warp) are in warp_sum.cuh, where stage 8 takes them from too.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_finish.cuh"
#include "reduce_problem.hpp"
#include "warp_sum.cuh"

namespace ch07 {


//! Stage 7: one element per thread, block_sum_shuffle, then the finish F (one atomicAdd or one store
//! per block).
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam F Finish::atomic (the article) or Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] out atomic: one element, zeroed before the launch, receives the sum;
//!                partials: gridDim.x elements, block b writes its sum to out[b]
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 10.
template <class T, int Block, Finish F>
__global__ void reduce_kernel_7(const T* __restrict__ data, std::size_t n, T* out) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  T sum = (i < n) ? data[i] : T(0);
  sdata[tid] = sum;
  __syncthreads();
  sum = block_sum_shuffle<T, Block>(sdata, tid, sum);
  if (tid == 0) {
    if constexpr (F == Finish::atomic) atomicAdd(out, sum);  // the article: into the one result
    else out[blockIdx.x] = sum;                               // its own slot, for the second pass
  }
}

// ---- How stage 7 is launched -----------------------------------------------------------------

//! Launches stage 7 with finish F on a.stream: atomic: zeroes the one-element result (every
//! block adds into it), then ceil(n / Block) blocks of Block threads, one element per thread.
//! partials: the same blocks write their sums to the workspace, then reduce_partials folds them.
//! @tparam F Finish::atomic or Finish::partials
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts
//!            (partials: a workspace of one element per block)
template <Finish F>
void launch_reduce_kernel_7(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* out = block_sums_target<F, T>(a);  // atomic: the zeroed result; partials: the workspace
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_7<T, B, F><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, out);
    });
    finish_block_sums<F, T>(a, grid);  // partials: the second pass; atomic: nothing
  });
}

//! Stage 7 with finish F as the harness runs it: the program `reduce_kernel_7` (`--finish`), the
//! ladder and the tests.
template <Finish F>
harness::Stage<harness::Reduce> reduce_kernel_7_stage() {
  return finish_stage<F>(
      {"reduce_kernel_7", "warp shuffle",
       "the last warp reduces through registers with __shfl_down_sync: no shared memory, no __syncwarp",
       "article section 10"},
      one_element_per_thread_grid, one_element_per_thread, launch_reduce_kernel_7<F>);
}

}  // namespace ch07
