//! @file reduce_kernel_8_coarsened.cuh
//! @brief Stage 8 (article section 11): thread coarsening with a grid-stride loop.
//!
//! Changed against stage 7: the grid no longer has one thread per element. Each thread first sums
//! many elements in a register, striding by the whole grid (so a warp's loads stay coalesced), and
//! only then joins the block reduction of stage 7. The tree, its barriers and the atomic are paid
//! once per block of many elements instead of once per Block elements.
//! What the profiler shows: DRAM throughput rises several-fold and the kernel time falls with it;
//! barriers and shared-memory instructions per element fall by the coarsening factor.
//! Uses stage 7's block_sum_shuffle (warp_sum.cuh) for the block sum; the grid rule, coarsened_grid,
//! is in reduce_grids.cuh (stage 9 launches the same grid).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_finish.cuh"
#include "reduce_grids.cuh"
#include "reduce_problem.hpp"
#include "warp_sum.cuh"

namespace ch07 {

//! Stage 8: grid-stride accumulation in a register, then stage 7's block sum, then the finish F
//! (one atomicAdd or one store per block).
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam F Finish::atomic (the article) or Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements (any; the loop bound handles the tail)
//! @param[in,out] out atomic: one element, zeroed before the launch, receives the sum;
//!                partials: gridDim.x elements, block b writes its sum to out[b]
//!
//! Launch: any number of blocks of Block threads (default ceil(n / (Block * 32))).
//! Source: article section 11.
template <class T, int Block, Finish F>
__global__ void reduce_kernel_8(const T* __restrict__ data, std::size_t n, T* out) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  T sum = T(0);
  for (std::size_t i = harness::global_thread_id(); i < n; i += harness::grid_threads()) sum += data[i];
  sdata[tid] = sum;
  __syncthreads();
  sum = block_sum_shuffle<T, Block>(sdata, tid, sum);
  if (tid == 0) {
    if constexpr (F == Finish::atomic) atomicAdd(out, sum);  // the article: into the one result
    else out[blockIdx.x] = sum;                               // its own slot, for the second pass
  }
}

// ---- How stage 8 is launched -----------------------------------------------------------------

//! Launches stage 8 with finish F on a.stream: atomic: zeroes the one-element result (every block
//! adds into it), then coarsened_grid(a) blocks of Block threads, each thread folding about
//! n / (grid x Block) elements; partials: the same blocks write their sums to the workspace, then
//! reduce_partials folds them.
//! @tparam F Finish::atomic or Finish::partials
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or any
//!            (partials: a workspace of one element per block)
template <Finish F>
void launch_reduce_kernel_8(const harness::ReduceArgs& a) {
  const std::size_t grid = coarsened_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* out = block_sums_target<F, T>(a);  // atomic: the zeroed result; partials: the workspace
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_8<T, B, F><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, out);
    });
    finish_block_sums<F, T>(a, grid);  // partials: the second pass; atomic: nothing
  });
}

//! Stage 8 with finish F as the harness runs it: the program `reduce_kernel_8` (`--finish`), the
//! ladder and the tests.
template <Finish F>
harness::Stage<harness::Reduce> reduce_kernel_8_stage() {
  harness::Stage<harness::Reduce> s = finish_stage<F>(
      {"reduce_kernel_8", "thread coarsening",
       "each thread first sums many elements in a grid-stride loop (coarsening), then one block reduction",
       "article section 11"},
      coarsened_grid, coarsened_per_thread, launch_reduce_kernel_8<F>);
  s.grid_stride = true;
  return s;
}

}  // namespace ch07
