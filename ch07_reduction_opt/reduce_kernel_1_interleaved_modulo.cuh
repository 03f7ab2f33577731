//! @file reduce_kernel_1_interleaved_modulo.cuh
//! @brief Stage 1 (article section 3): a tree in shared memory, interleaved addressing chosen
//! with a modulo test; one atomicAdd per block (or, with the partials finish, one store per block
//! and a second pass).
//!
//! Changed against stage 0: each block first sums its blockDim.x elements in shared memory, in
//! log2(blockDim.x) levels separated by __syncthreads(); only thread 0 touches global memory with
//! the block's sum. Atomics drop from n to n / blockDim.x (none with the partials finish).
//! What the profiler shows: `tid % (2*s) == 0` leaves most lanes of every warp idle. nvcc predicates
//! the test instead of branching, so the idle lanes show up as predicated-off threads, not as
//! divergent branches. With the atomic finish stages 1 to 7 all take about the same time (the
//! same-address atomicAdd bounds them all); with the partials finish the tree's cost shows: see the
//! chapter README. Stages 1 to 8 share the two finishes (reduce_finish.cuh, included).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_finish.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Block-wise tree sum with interleaved addressing: at level s, threads whose index is a multiple
//! of 2s add sdata[tid + s] into sdata[tid]; thread 0 finishes the block's sum as F says.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam F Finish::atomic (the article) or Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements; threads past n load the identity 0
//! @param[in,out] out atomic: one element, zeroed before the launch, receives the sum;
//!                partials: gridDim.x elements, block b writes its sum to out[b]
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 3.
template <class T, int Block, Finish F>
__global__ void reduce_kernel_1(const T* __restrict__ data, std::size_t n, T* out) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  sdata[tid] = (i < n) ? data[i] : T(0);
  __syncthreads();

  for (unsigned s = 1; s < Block; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    if constexpr (F == Finish::atomic) atomicAdd(out, sdata[0]);  // the article: into the one result
    else out[blockIdx.x] = sdata[0];                               // its own slot, for the second pass
  }
}

// ---- How stage 1 is launched -----------------------------------------------------------------

//! Launches stage 1 with finish F on a.stream: atomic: zeroes the one-element result (every block
//! adds into it), then ceil(n / Block) blocks of Block threads, one element per thread; partials:
//! the same blocks write their sums to the workspace, then reduce_partials folds them.
//! @tparam F Finish::atomic or Finish::partials
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts; partials:
//!            a workspace of ceil(n / Block) elements
template <Finish F>
void launch_reduce_kernel_1(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* out = block_sums_target<F, T>(a);  // atomic: the zeroed result; partials: the workspace
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_1<T, B, F><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, out);
    });
    finish_block_sums<F, T>(a, grid);  // partials: the second pass; atomic: nothing
  });
}

//! Stage 1 with finish F as the harness runs it: the program `reduce_kernel_1` (`--finish`), the
//! ladder and the tests.
template <Finish F>
harness::Stage<harness::Reduce> reduce_kernel_1_stage() {
  return finish_stage<F>(
      {"reduce_kernel_1", "shared-memory tree, modulo branch",
       "each block sums its elements in a shared-memory tree (tid % 2s == 0 picks the active threads)",
       "article section 3"},
      one_element_per_thread_grid, one_element_per_thread, launch_reduce_kernel_1<F>);
}

}  // namespace ch07
