//! @file 01_block_fold.cuh
//! @brief Exercise ch08/01: the complete block reduction for sum, max and min (exercise: fill in the TODO(student) parts).
//!
//! Goal: fold a whole block's values (32 to 1024 threads) into thread 0 with any of the chapter's
//! operators (ch08::Sum, Max, Min): first the warp-level fold (fold_warp), five __shfl_down_sync steps that
//! leave the warp's fold in lane 0; then the block fold of section 8.6: every warp folds its 32
//! lanes, lane 0 of each warp writes its warp's value to shared memory, one __syncthreads(), and
//! warp 0 folds those Block / 32 values (lanes past Block / 32 take the operator's identity):
//! fold_block. (The chapter calls them warp_fold and block_fold; here they have names of their own,
//! so that they never clash with the chapter's in a build that includes both.)
//! Builds on: stage 4's warp_fold and block_fold (ch08_reduction_scan_histogram/reduce/
//! reduce_stage_3_warp_shuffle.cuh, reduce_stage_4_block_reduce.cuh); the grid-stride loop
//! (ch08::grid_stride_fold, stage 2), the grid rule and the one-block second pass are the chapter's,
//! not part of the exercise.
//! Build and check: scripts/exercise.sh ch08/01
//!   (or: cmake --build build --target exercise_ch08_01 && ctest --test-dir build -L exercise -R ch08_01)
//! A right answer: the check passes for sum, max and min, every size, every block size 32..1024 and
//! float / double / int (an int sum is exact in int64).
//!
//! Stuck? The solved file, with why it works: solutions/ch08/01_block_fold.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "cuda_check.hpp"
#include "reduce_ops.cuh"
#include "grid_stride.cuh"  // grid_stride_fold, resident_grid_for, grid_stride_depth
#include "reduce_second_pass.cuh"

namespace ex08 {

//! Folds the 32 lanes of a warp into lane 0 with `op`. All 32 lanes must call it.
//! @return in lane 0, the fold of the warp's 32 values (other lanes: partial folds)
template <class A, class Op>
__device__ __forceinline__ A fold_warp(A v, Op op) {
  (void)op;
  // TODO(student): fold the warp's 32 values into lane 0 with `op`, through registers. Hints:
  // exercises/README.md, exercise ch08/01. As written each lane keeps its own value: nothing of the
  // other 31 lanes reaches lane 0.
  return v;
}

//! The block fold of section 8.6 with one barrier. Every thread of the block must call it, once
//! per kernel.
//! @return in thread 0, the fold of the block's Block values
template <class A, int Block, class Op>
__device__ __forceinline__ A fold_block(A v, Op op) {
  constexpr unsigned kWarps = Block / 32;
  __shared__ A warp_values[kWarps];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  v = ex08::fold_warp(v, op);
  (void)warp_values;
  (void)lane;
  (void)warp;
  // TODO(student): the block fold of section 8.6: one value per warp through shared memory, one
  // barrier, warp 0 folds them. Hints: exercises/README.md, exercise ch08/01. As written thread 0
  // returns only its own warp's fold: blocks of 64 threads and more drop every other warp.
  return v;
}

//! Grid-stride fold, fold_block, one partial per block.
template <class T, class Op, int Block>
__global__ void __launch_bounds__(Block) ex01_kernel(const T* __restrict__ in, std::size_t n,
                                                     ch08::accumulator_t<Op, T>* __restrict__ partials, Op op) {
  using Acc = ch08::accumulator_t<Op, T>;
  const Acc v = ex08::fold_block<Acc, Block>(ch08::grid_stride_fold(in, n, op), op);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

//! One full wave of resident blocks of ex01_kernel (or --grid).
inline std::size_t ex01_grid(const harness::ReduceArgs& a) {
  return ch08::resident_grid_for(a, [](auto t, auto op, auto block) {
    return reinterpret_cast<const void*>(&ex01_kernel<decltype(t), decltype(op), decltype(block)::value>);
  });
}

//! ex01_grid(a) blocks of ex01_kernel write their partials to the workspace; the chapter's second
//! pass folds them into the result.
inline void launch_ex01(const harness::ReduceArgs& a) {
  const std::size_t grid = ex01_grid(a);
  ch08::dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = ch08::accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    Acc* partials = a.scratch<Acc>();
    ex01_kernel<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, op);
    CUDA_CHECK_LAUNCH();
    ch08::reduce_second_pass<Acc, Op, ch08::kSecondPassBlock>
        <<<1, ch08::kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<Acc>(), op);
  });
}

//! The exercise as the harness runs it (sum, max and min, like the chapter's stages).
inline harness::Stage<harness::Reduce> ex01_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "ch08_01_block_fold";
  s.label = "exercise: complete block reduction";
  s.change = "warp folds by shuffles, one value per warp through shared memory, one barrier per block";
  s.source = "exercises/ch08/01_block_fold.cuh";
  s.caps = ch08::two_pass_caps();
  s.deterministic = true;
  s.grid_stride = true;
  s.grid_for = ex01_grid;
  s.workspace_bytes = [](const harness::ReduceArgs& a) { return ch08::partials_bytes(a, ex01_grid(a)); };
  s.depth = [](const harness::ReduceArgs& a) { return ch08::grid_stride_depth(a, ex01_grid(a)); };
  s.launch = launch_ex01;
  return s;
}

}  // namespace ex08
