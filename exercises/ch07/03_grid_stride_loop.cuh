//! @file 03_grid_stride_loop.cuh
//! @brief Exercise ch07/03: thread coarsening with a grid-stride loop (exercise: fill in the TODO(student) parts).
//!
//! Goal: the grid no longer has one thread per element (by default it has about n / (block x 32)
//! threads, and the user may pick any grid with --grid). Make each thread sum its share of the
//! input in a register with a grid-stride loop, so that every element is read exactly once for any
//! n and any grid, and a warp's loads stay coalesced; then the block sum of stage 7 (given).
//! Builds on: stage 8 (ch07_reduction_opt/reduce_kernel_8_coarsened.cuh); stage 7's
//! block_sum_shuffle and stage 8's grid rule coarsened_grid are included, not part of the exercise.
//! Build and check: scripts/exercise.sh ch07/03
//!   (or: cmake --build build --target exercise_ch07_03 && ctest --test-dir build -L exercise -R ch07_03)
//! A right answer: the check passes for every size up to 2^31+1 (the index must not wrap: use
//! std::size_t), every block size, float / double / int, and the grids 1, 3 and 1000. Speed is the
//! point too: the test prints the exercise's GB/s next to stage 8's on 2^26 floats (a report, not
//! pass/fail); a right loop is within a few per cent of stage 8.
//!
//! Stuck? The solved file, with why it works: solutions/ch07/03_grid_stride_loop.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"
#include "reduce_grids.cuh"
#include "warp_sum.cuh"

namespace ex07 {

//! This thread's share of data[0..n) for a grid of any size.
template <class T>
__device__ __forceinline__ T thread_sum_grid_stride(const T* __restrict__ data, std::size_t n) {
  T sum = T(0);
  // TODO(student): sum this thread's share of the input with a grid-stride loop, for any n and any
  // grid. Hints: exercises/README.md, exercise ch07/03. As written each thread reads one element,
  // so every element past the grid's threads (grid x block of them) is dropped.
  const std::size_t i = harness::global_thread_id();
  if (i < n) sum += data[i];
  return sum;
}

//! Stage 8's kernel: the grid-stride sum, then stage 7's block sum, one atomicAdd per block.
template <class T, int Block>
__global__ void ex03_kernel(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  T sum = thread_sum_grid_stride(data, n);
  sdata[tid] = sum;
  __syncthreads();
  sum = ch07::block_sum_shuffle<T, Block>(sdata, tid, sum);
  if (tid == 0) atomicAdd(result, sum);
}

//! Zeroes the result, then ch07::coarsened_grid(a) blocks of ex03_kernel.
inline void launch_ex03(const harness::ReduceArgs& a) {
  const std::size_t grid = ch07::coarsened_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      ex03_kernel<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! The exercise as the harness runs it.
inline harness::Stage<harness::Reduce> ex03_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "ch07_03_grid_stride_loop";
  s.label = "exercise: grid-stride loop";
  s.change = "each thread sums many elements in a grid-stride loop, then one block reduction";
  s.source = "exercises/ch07/03_grid_stride_loop.cuh";
  s.grid_stride = true;
  s.grid_for = ch07::coarsened_grid;
  s.depth = [](const harness::ReduceArgs& a) { return ch07::coarsened_depth(a, 0); };
  s.launch = launch_ex03;
  return s;
}

}  // namespace ex07
