//! @file 05_block_sum_one_barrier.cuh
//! @brief Exercise ch07/05: the complete block reduction with one barrier (SOLUTION).
//!
//! Goal: reduce the partials of a whole block (32 to 1024 threads) with warp shuffles and a single
//! __syncthreads(): each warp sums its 32 lanes by shuffles, lane 0 of each warp writes the warp's
//! sum to shared memory, one barrier, then warp 0 sums those Block / 32 values by shuffles.
//! Builds on: stage 9's block_sum_one_barrier (ch07_reduction_opt/block_sum_one_barrier.cuh);
//! the warp sum is warp_shuffle_sum of exercise ch07/01, solved in this folder,
//! and the grid-stride loop and grid rule are stage 8's, not part of the exercise.
//! Build and check: scripts/exercise.sh ch07/05
//!   (or: cmake --build build --target exercise_ch07_05 && ctest --test-dir build -L exercise -R ch07_05)
//! A right answer: the check passes for every size, every block size 32..1024 (block 32 has a
//! single warp: no shared memory and no barrier needed) and float / double / int.
//!
//! Why this works: after the first warp_shuffle_sum, lane 0 of warp w holds the sum of threads
//! 32w..32w+31; only lane 0 writes it (every lane writing its partial sum would store values that
//! are not the warp's total, and 32 writes to one address race). The one __syncthreads() makes
//! the Block / 32 <= 32 warp sums visible to warp 0, whose lanes read one each (lanes past the
//! number of warps read the identity, 0) and fold them with a second warp_shuffle_sum. All 32
//! lanes of warp 0 call the shuffle (full mask), so the read is guarded, not the call.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"
#include "reduce_grids.cuh"
#include "01_warp_shuffle_sum.cuh"  // exercise ch07/01 in this folder: warp_shuffle_sum

namespace ex07 {

//! Block sum with warp shuffles and one barrier. Every thread of the block must call it.
//! @return in thread 0, the block's sum
template <class T, int Block>
__device__ __forceinline__ T block_sum_one_barrier(T sum) {
  constexpr int kWarps = Block / 32;
  __shared__ T warp_sums[kWarps];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  sum = ex07::warp_shuffle_sum(sum);
  if constexpr (kWarps == 1) {
    return sum;
  } else {
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) sum = ex07::warp_shuffle_sum(lane < kWarps ? warp_sums[lane] : T(0));
    return sum;
  }
}

//! Stage 8's grid-stride loop, then block_sum_one_barrier, one atomicAdd per block.
template <class T, int Block>
__global__ void __launch_bounds__(Block) ex05_kernel(const T* __restrict__ data, std::size_t n, T* result) {
  T sum = T(0);
  for (std::size_t i = harness::global_thread_id(); i < n; i += harness::grid_threads()) sum += data[i];
  sum = block_sum_one_barrier<T, Block>(sum);
  if (threadIdx.x == 0) atomicAdd(result, sum);
}

//! Zeroes the result, then ch07::coarsened_grid(a) blocks of ex05_kernel.
inline void launch_ex05(const harness::ReduceArgs& a) {
  const std::size_t grid = ch07::coarsened_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      ex05_kernel<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! The exercise as the harness runs it.
inline harness::Stage<harness::Reduce> ex05_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "ch07_05_block_sum_one_barrier";
  s.label = "exercise: one-barrier block sum";
  s.change = "warp shuffles, one shared-memory round of Block / 32 values, one barrier per block";
  s.source = "exercises/ch07/05_block_sum_one_barrier.cuh";
  s.grid_stride = true;
  s.grid_for = ch07::coarsened_grid;
  s.depth = [](const harness::ReduceArgs& a) { return ch07::coarsened_depth(a, 0); };
  s.launch = launch_ex05;
  return s;
}

}  // namespace ex07
