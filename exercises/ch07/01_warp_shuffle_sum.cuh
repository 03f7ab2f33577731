//! @file 01_warp_shuffle_sum.cuh
//! @brief Exercise ch07/01: the warp-shuffle sum (exercise: fill in the TODO(student) parts).
//!
//! Goal: write warp_shuffle_sum, the sum over the 32 lanes of a warp through registers with
//! __shfl_down_sync, and use it to finish the block reduction after the shared-memory tree.
//! Builds on: stage 7 (ch07_reduction_opt/reduce_kernel_7_warp_shuffle.cuh); the tree above the
//! last warp is stage 5's unrolled_tree (included, not part of the exercise).
//! Build and check: scripts/exercise.sh ch07/01
//!   (or: cmake --build build --target exercise_ch07_01 && ctest --test-dir build -L exercise -R ch07_01)
//! A right answer: the check passes for every size (0, 1, 31, 33, 1000, block +-1, 2^20+3, 2^24,
//! 2^31+1), every block size 32..1024 and float / double / int; on exact data the sum equals the
//! CPU reference exactly.
//!
//! Stuck? The solved file, with why it works: solutions/ch07/01_warp_shuffle_sum.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"
#include "block_tree.cuh"

namespace ex07 {

//! Sum over the 32 lanes of a warp. All 32 lanes must call it.
//! @return in lane 0, the warp's sum (other lanes hold partial sums)
template <class T>
__device__ __forceinline__ T warp_shuffle_sum(T sum) {
  constexpr unsigned kFullMask = 0xffffffffu;
  (void)kFullMask;
  // TODO(student): fold the 32 lanes' values into lane 0 through registers (__shfl_down_sync).
  // Hints: exercises/README.md, exercise ch07/01. As written, lane 0 returns only its own partial,
  // so each block drops the partials of lanes 1..31.
  return sum;
}

//! Stage 7's kernel: one element per thread, the shared-memory tree down to stride 32, then warp 0
//! finishes with warp_shuffle_sum; one atomicAdd per block.
template <class T, int Block>
__global__ void ex01_kernel(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  T sum = (i < n) ? data[i] : T(0);
  sdata[tid] = sum;
  __syncthreads();
  sum = ch07::unrolled_tree<T, Block, 32>(sdata, tid, sum);
  if (tid < 32) sum = warp_shuffle_sum(sum);
  if (tid == 0) atomicAdd(result, sum);
}

//! Zeroes the result, then ceil(n / block) blocks of ex01_kernel.
inline void launch_ex01(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      ex01_kernel<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! The exercise as the harness runs it.
inline harness::Stage<harness::Reduce> ex01_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "ch07_01_warp_shuffle_sum";
  s.label = "exercise: warp shuffle sum";
  s.change = "the last warp reduces through registers with __shfl_down_sync";
  s.source = "exercises/ch07/01_warp_shuffle_sum.cuh";
  s.depth = [](const harness::ReduceArgs& a) {
    return harness::reduce_depth(1, a.block, static_cast<double>(harness::blocks_for(a.n, a.block)));
  };
  s.launch = launch_ex01;
  return s;
}

}  // namespace ex07
