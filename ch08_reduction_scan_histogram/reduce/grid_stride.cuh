//! @file grid_stride.cuh
//! @brief The grid-stride stages' loop and grid (chapter 8, stages 2 to 5): a thread's fold of every
//! grid-th element (grid_stride_fold), one full wave of resident blocks (resident_grid_for), and the
//! summation depth that follows (grid_stride_depth). The loop is device code; the rest is host code.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <utility>

#include "device_info.hpp"
#include "kernel_support.cuh"
#include "reduce_ops.cuh"
#include "reduce_problem.hpp"
#include "reduce_second_pass.cuh"

namespace ch08 {

//! The coarsening loop: this thread's fold of in[i] for i = global id, + grid threads, ... < n.
//! Indices are size_t, so n past 2^31 never wraps. The fold runs in index order; unrolling only
//! lets several loads be in flight before their operations, it does not reorder the operations,
//! so the result is the same for every unroll factor.
//! @tparam T input type
//! @tparam Op Sum, Max or Min
//! @param[in] in n input elements
//! @param[in] n number of elements (any value; a thread past the end returns the identity)
//! @param[in] op the operator
//! @return the thread's partial, of type accumulator_t<Op, T>
//! Source: chapter 8, section 8.4 (grid-stride loop from chapter 7, section 7.3).
template <class T, class Op>
__device__ __forceinline__ accumulator_t<Op, T> grid_stride_fold(const T* __restrict__ in,
                                                                 std::size_t n, Op op) {
  using Acc = accumulator_t<Op, T>;
  Acc acc = Op::template identity<Acc>();
  const std::size_t stride = harness::grid_threads();
#pragma unroll 4
  for (std::size_t i = harness::global_thread_id(); i < n; i += stride)
    acc = op(acc, static_cast<Acc>(in[i]));
  return acc;
}

//! The grid of the grid-stride stages 2 to 5 and 7: the user's --grid if given, else one full wave
//! of resident blocks of the kernel that `kernel_of(T{}, Op{}, std::integral_constant<int, Block>{})`
//! returns (its address), but no more blocks than give each thread `min_bytes_per_thread` bytes of
//! input (harness::occupancy_grid; at least one element per thread).
//! @tparam KernelOf generic callable (T, Op, integral_constant<int, Block>) -> const void*
//! @param[in] a the launch arguments (type, op, block, n, grid)
//! @param[in] kernel_of the stage's kernel for a type, operator and block size
//! @param[in] min_bytes_per_thread bytes of input a thread gets before the grid grows (1: one element)
template <class KernelOf>
std::size_t resident_grid_for(const harness::ReduceArgs& a, KernelOf kernel_of, std::size_t min_bytes_per_thread = 1) {
  if (a.grid != 0) return a.grid;
  std::size_t grid = 0;
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    const std::size_t elements = std::max<std::size_t>(1, min_bytes_per_thread / sizeof(decltype(t)));
    grid = harness::occupancy_grid(kernel_of(t, op, block), a.block, a.n, elements);
  });
  return grid;
}

//! Elements one thread of the grid-stride stages folds on `grid` blocks: at most
//! ceil(n / (grid x Block)), counted as n / (grid x Block) + 1.
inline double grid_stride_per_thread(const harness::ReduceArgs& a, std::size_t grid) {
  return static_cast<double>(harness::blocks_for(a.n, a.block)) / static_cast<double>(grid) + 1;
}

//! Depth of the grid-stride stages on `grid` blocks: about n / (grid x Block) elements per thread.
inline double grid_stride_depth(const harness::ReduceArgs& a, std::size_t grid) {
  return two_pass_depth(a, grid_stride_per_thread(a, grid), grid);
}

//! A grid-stride stage (2 to 5) as the harness runs it: two_pass_stage on `grid` blocks with `--grid`
//! honoured, each thread folding `per_thread` (by default grid_stride_per_thread).
//! @param[in] card the stage's name, label, change and source
//! @param[in] grid the blocks of its first pass for given arguments (resident_grid_for)
//! @param[in] launch enqueues both passes
//! @param[in] per_thread what one thread folds before the block tree on a grid of given blocks
inline harness::Stage<harness::Reduce> grid_stride_stage(harness::StageCard card, GridRule grid,
                                                         void (*launch)(const harness::ReduceArgs&),
                                                         PerThreadRule per_thread = grid_stride_per_thread) {
  harness::Stage<harness::Reduce> s = two_pass_stage(std::move(card), grid, per_thread, launch);
  s.grid_stride = true;
  return s;
}

}  // namespace ch08
