//! @file reduce_kernel_9b_loads_in_flight.cuh
//! @brief Stage 9b (past the article): stage 9a with kUnroll = 4 16-byte loads in flight per thread.
//!
//! The second of stage 9's three changes (9a: 16-byte loads; 9b: loads in flight; 9: a one-barrier
//! block sum), alone.
//! Changed against stage 9a: each loop trip issues kUnroll independent 16-byte loads, a grid
//! stride apart, before it uses any of them, and adds them into kUnroll independent accumulators.
//! Stage 9a's thread has one load in flight and its next trip waits for it; by Little's law (bytes
//! in flight = bandwidth x latency; stages_9_11.md derives the latency from stage 8's counters) that
//! may leave too few bytes in flight. Here every thread has kUnroll x 16 bytes in flight. Look at
//! the 2^28 ladder's `step` column for 9b (docs/results/H200/ch07/reduce_ladder_2e28_float.md):
//! scripts/maintainers/step_causes.py finds both stages at the memory roof (stages_9_11.md gives the
//! counters), so 9a's full grid already keeps enough bytes in flight at that size. The code change
//! is one template argument: thread_sum_vectorized<kUnroll> for
//! thread_sum_vectorized<1>. The block sum (stage 7's tree to stride 32, then shuffles) and the
//! atomic finish are stage 9a's.
//! What the compiler makes of it (test cpu.sass_claims_ch07, SASS for sm_90, float, block 256):
//! 5 LDG.E.128 (four in the unrolled loop, one in the loop over the fewer than four vectors left to
//! a thread) against stage 9a's 1; 4 BAR.SYNC, as stage 9a.
//! What the profiler shows against stage 9a (scripts/maintainers/check_profile_claims.py, 9a -> 9b; the figures:
//! stages_9_11.md): the same load instructions; fewer warps stalled on them (long scoreboard) and
//! the same DRAM throughput: the stall falls, the time does not.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_grids.cuh"
#include "reduce_problem.hpp"
#include "thread_sum_vectorized.cuh"
#include "warp_sum.cuh"

namespace ch07 {

//! Stage 9b: grid-stride accumulation with kUnroll 16-byte loads in flight per thread, stage 7's
//! block sum (block_sum_shuffle), and one atomicAdd per block.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements (any)
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//! Launch: any number of blocks (default as stage 8: ceil(n / (Block * 32))).
//! Source: this tutorial; the technique as in CUB's BlockLoad with vectorised loads.
template <class T, int Block>
__global__ void __launch_bounds__(Block) reduce_kernel_9b(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  T sum = thread_sum_vectorized<kUnroll>(data, n);  // the change: kUnroll loads in flight
  sdata[tid] = sum;
  __syncthreads();
  sum = block_sum_shuffle<T, Block>(sdata, tid, sum);
  if (tid == 0) atomicAdd(result, sum);
}

// ---- How stage 9b is launched ----------------------------------------------------------------

//! Launches stage 9b on a.stream: zeroes the one-element result (every block adds into it with
//! atomicAdd), then stage 8's grid, coarsened_grid(a) blocks of Block threads.
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or any;
//!            the input aligned to sizeof(T) (any 16-byte misalignment is handled)
inline void launch_reduce_kernel_9b(const harness::ReduceArgs& a) {
  const std::size_t grid = coarsened_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_9b<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 9b as the harness runs it: the program `reduce_kernel_9b`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_9b_stage() {
  return coarsened_stage({"reduce_kernel_9b", "4 loads in flight, 4 accumulators",
                          "four independent 16-byte loads per loop trip, issued before any is used, into four "
                          "accumulators",
                          "this tutorial (past the article)"},
                         kUnroll, launch_reduce_kernel_9b);
}

}  // namespace ch07
