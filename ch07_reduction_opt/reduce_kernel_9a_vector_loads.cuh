//! @file reduce_kernel_9a_vector_loads.cuh
//! @brief Stage 9a (past the article): stage 8 with 16-byte loads, and nothing else.
//!
//! Stage 9 changes three things against stage 8; stages 9a, 9b and 9 make them one at a time, so
//! that each has its own row in the ladder:
//!   - 9a: 16-byte loads (this stage);
//!   - 9b: four of them in flight per thread, into four accumulators (reduce_kernel_9b_loads_in_flight.cuh);
//!   - 9: the block sum with one barrier (reduce_kernel_9_vectorized.cuh).
//!
//! Changed against stage 8: each loop trip loads one 16-byte vector (float4 / double2 / int4: four
//! floats or ints, two doubles) instead of one element, so a thread issues a quarter of the load
//! instructions for the same bytes (floats). Still one load per trip into one accumulator: the
//! trip's add waits for its load before the next trip issues the next one. A scalar head and tail
//! handle any n and any element-aligned input address. The grid (stage 8's coarsened_grid), the
//! block sum (stage 7's shared-memory tree to stride 32, then shuffles) and the atomic finish are
//! stage 8's. The kernel carries stage 9's __launch_bounds__(Block), so that 9a, 9b and 9 differ
//! only in the step each names (at block 256 the bound moves a few integer instructions of stage
//! 9a, no load and no barrier).
//! What the compiler makes of it (test cpu.sass_claims_ch07, SASS for sm_90, float, block 256):
//! 1 LDG.E.128 (the loop's one vector load per trip: the loop is not unrolled) beside the scalar
//! head and tail loads, 3 LDG in all; 4 BAR.SYNC, as stage 8 (whose one LDG is its loop's 4-byte
//! load).
//! What the profiler shows against stage 8 (scripts/maintainers/check_profile_claims.py, 8 -> 9a; the figures:
//! stages_9_11.md): global load instructions fall by 4 for floats and DRAM throughput rises; bytes
//! in flight per thread grow from 4 to 16.
//! The accumulation is thread_sum_vectorized<1> (thread_sum_vectorized.cuh), which stages 9b to 11
//! run with kUnroll loads in flight.
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

//! Stage 9a: grid-stride accumulation with one 16-byte load per loop trip, stage 7's block sum
//! (block_sum_shuffle), and one atomicAdd per block (stage 8's atomic finish).
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements (any)
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//! Launch: any number of blocks (default as stage 8: ceil(n / (Block * 32))).
//! Source: this tutorial; the technique as in CUB's BlockLoad with vectorised loads.
template <class T, int Block>
__global__ void __launch_bounds__(Block) reduce_kernel_9a(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  T sum = thread_sum_vectorized<1>(data, n);  // the change: 16-byte loads, still one per trip
  sdata[tid] = sum;
  __syncthreads();
  sum = block_sum_shuffle<T, Block>(sdata, tid, sum);
  if (tid == 0) atomicAdd(result, sum);
}

// ---- How stage 9a is launched ----------------------------------------------------------------

//! Launches stage 9a on a.stream: zeroes the one-element result (every block adds into it with
//! atomicAdd), then stage 8's grid, coarsened_grid(a) blocks of Block threads.
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or any;
//!            the input aligned to sizeof(T) (any 16-byte misalignment is handled)
inline void launch_reduce_kernel_9a(const harness::ReduceArgs& a) {
  const std::size_t grid = coarsened_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_9a<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 9a as the harness runs it: the program `reduce_kernel_9a`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_9a_stage() {
  return coarsened_stage({"reduce_kernel_9a", "16-byte loads",
                          "each loop trip loads one 16-byte vector instead of one element; still one load in "
                          "flight per thread",
                          "this tutorial (past the article)"},
                         1, launch_reduce_kernel_9a);
}

}  // namespace ch07
