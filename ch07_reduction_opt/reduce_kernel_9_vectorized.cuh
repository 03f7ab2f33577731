//! @file reduce_kernel_9_vectorized.cuh
//! @brief Stage 9 (past the article): 16-byte vector loads and several independent accumulators
//! per thread, then a block reduction with one barrier.
//!
//! Against stage 8, stage 9 changes three things; stages 9a and 9b make the first two alone, so
//! the ladder shows each step:
//!   - 9a (reduce_kernel_9a_vector_loads.cuh): 16-byte loads (float4 / double2 / int4), one per
//!     loop trip; a scalar head and tail handle any n and any element-aligned input address;
//!   - 9b (reduce_kernel_9b_loads_in_flight.cuh): kUnroll such loads issued before any is used, into
//!     kUnroll independent accumulators, so every thread has kUnroll x 16 bytes in flight (stage 8
//!     has one 4-byte load in flight per thread; Little's law: bytes in flight = bandwidth x latency);
//!   - 9 (this stage): the block sum.
//! Changed against stage 9b: the block sum. Stage 9b (as stages 7 and 8) writes every thread's
//! partial to shared memory and folds it in a tree down to stride 32, a barrier per level, before
//! warp 0 shuffles. Here each warp first reduces its 32 values with shuffles, lane 0 of each warp
//! writes one value, one __syncthreads(), and warp 0 shuffles those: one barrier per block.
//! What the compiler makes of it (test cpu.sass_claims_ch07, SASS for sm_90, float, block 256):
//! 5 LDG.E.128 (16 bytes each: four in the unrolled loop, one in the loop over the remaining whole
//! vectors), 1 BAR.SYNC against stage 9b's 4, no spills.
//! What the profiler shows: DRAM throughput (% of peak) rises towards the streaming read's against
//! stage 8 at 2^24 (docs/results/H200/profile/ch07_profile_claims.md); barriers per block fall to one.
//! The accumulation (thread_sum_vectorized.cuh) and the block sum (block_sum_one_barrier.cuh) have
//! their own headers, since stage 11 uses them too; the grid is stage 8's (reduce_grids.cuh).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "block_sum_one_barrier.cuh"
#include "reduce_grids.cuh"
#include "reduce_problem.hpp"
#include "thread_sum_vectorized.cuh"

namespace ch07 {

//! Stage 9: vectorised, unrolled grid-stride accumulation, a one-barrier block sum, and one
//! atomicAdd per block (the article's finish of stages 1-8).
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//! Launch: any number of blocks (default as stage 8: ceil(n / (Block * 32))).
//! Source: this tutorial; the technique as in CUB's BlockLoad with vectorised loads.
template <class T, int Block>
__global__ void __launch_bounds__(Block) reduce_kernel_9(const T* __restrict__ data, std::size_t n, T* result) {
  const T sum = block_sum_one_barrier<T, Block>(thread_sum_vectorized(data, n));
  if (threadIdx.x == 0) atomicAdd(result, sum);
}

// ---- How stage 9 is launched -----------------------------------------------------------------

//! Launches stage 9 on a.stream: zeroes the one-element result (every block adds into it with
//! atomicAdd), then stage 8's grid, coarsened_grid(a) blocks of Block threads.
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or any;
//!            the input aligned to sizeof(T) (any 16-byte misalignment is handled)
inline void launch_reduce_kernel_9(const harness::ReduceArgs& a) {
  const std::size_t grid = coarsened_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_9<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 9 as the harness runs it: the program `reduce_kernel_9`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_9_stage() {
  return coarsened_stage({"reduce_kernel_9", "one-barrier block sum",
                          "the block sum by warp shuffles, one shared-memory round and one barrier per block "
                          "(stage 9b: a tree with a barrier per level to stride 32)",
                          "this tutorial (past the article)"},
                         kUnroll, launch_reduce_kernel_9);
}

}  // namespace ch07
