//! @file reduce_kernel_5_unrolled.cuh
//! @brief Stage 5 (article section 8): the tree written unrolled (`#pragma unroll` over constant
//! strides), with the register accumulator of stage 2 and the sequential addressing of stage 4.
//!
//! Changed against stage 4: the partial stays in a register (`sdata[tid] = sum = sum + sdata[tid + s]`),
//! so each level loads one shared word instead of two. The unrolling is not the step: stage 4's
//! loop has constant bounds too (Block is a template parameter there as well), and nvcc already
//! unrolls it fully. The SASS says so (test cpu.sass_claims_ch07: SASS for sm_90, float, block 256, partials finish): stage 4 has
//! 79 instructions, 17 LDS, 9 BAR.SYNC and 1 branch (the self-loop after EXIT, no loop branch);
//! stage 5 has 70, 8 LDS, 9 BAR.SYNC, 1 branch: nine instructions fewer, all of them shared loads.
//! The article's hand-written `if (Block >= 512) ...` levels compile to the same opcodes as this
//! loop (tests/sass_article_unroll.cu, the same test).
//! What the profiler shows: fewer shared-load instructions, the same barriers: log2(Block) + 1 per
//! block, counting the one after the load (chapter README, profiler section).
//! The tree, unrolled_tree, is in block_tree.cuh, where stages 6 to 8 take it from too.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "block_tree.cuh"
#include "reduce_finish.cuh"
#include "reduce_problem.hpp"

namespace ch07 {


//! Stage 5: load one element per thread, then the unrolled tree; thread 0 finishes as F says.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam F Finish::atomic (the article) or Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] out atomic: one element, zeroed before the launch, receives the sum;
//!                partials: gridDim.x elements, block b writes its sum to out[b]
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 8.
template <class T, int Block, Finish F>
__global__ void reduce_kernel_5(const T* __restrict__ data, std::size_t n, T* out) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  T sum = (i < n) ? data[i] : T(0);
  sdata[tid] = sum;
  __syncthreads();
  sum = unrolled_tree<T, Block, 1>(sdata, tid, sum);
  if (tid == 0) {
    if constexpr (F == Finish::atomic) atomicAdd(out, sum);  // the article: into the one result
    else out[blockIdx.x] = sum;                               // its own slot, for the second pass
  }
}

// ---- How stage 5 is launched -----------------------------------------------------------------

//! Launches stage 5 with finish F on a.stream: atomic: zeroes the one-element result (every
//! block adds into it), then ceil(n / Block) blocks of Block threads, one element per thread.
//! partials: the same blocks write their sums to the workspace, then reduce_partials folds them.
//! @tparam F Finish::atomic or Finish::partials
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts
//!            (partials: a workspace of one element per block)
template <Finish F>
void launch_reduce_kernel_5(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* out = block_sums_target<F, T>(a);  // atomic: the zeroed result; partials: the workspace
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_5<T, B, F><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, out);
    });
    finish_block_sums<F, T>(a, grid);  // partials: the second pass; atomic: nothing
  });
}

//! Stage 5 with finish F as the harness runs it: the program `reduce_kernel_5` (`--finish`), the
//! ladder and the tests.
template <Finish F>
harness::Stage<harness::Reduce> reduce_kernel_5_stage() {
  return finish_stage<F>(
      {"reduce_kernel_5", "unrolled by block size",
       "the block size is a template parameter, so the tree is fully unrolled; the partial stays in a register",
       "article section 8"},
      one_element_per_thread_grid, one_element_per_thread, launch_reduce_kernel_5<F>);
}

}  // namespace ch07
