//! @file reduce_second_pass.cuh
//! @brief The second pass every chapter-8 reduction finishes with: one block folds the per-block
//! partials of the first pass into the result. No atomics anywhere, so the result is the same bit
//! for bit on every run.
//!
//! The block strides through the partials (thread t folds partials t, t + Block, ...), then folds its
//! threads with a plain shared-memory tree (stage 1's idea, written out here because every stage,
//! stage 0 and 1 included, launches this pass). Because it strides, one block handles any number of
//! partials: about a thousand from the coarsened stages, or ceil(n / Block) from stage 1 (67 million
//! for n = 2^31 at Block = 32), so no third pass is ever needed. Its cost is one launch and
//! log2(1024) + 1 = 11 barriers per reduction, whatever the stage.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <utility>

#include "kernel_support.cuh"
#include "reduce_ops.cuh"
#include "reduce_problem.hpp"
#include "stage.hpp"

namespace ch08 {

//! Threads of the one block of the second pass.
inline constexpr int kSecondPassBlock = 1024;

//! Folds partials[0..count) with `op` into *out.
//! @tparam A accumulator type (the output type of the reduction)
//! @tparam Op Sum, Max or Min
//! @tparam Block threads of the one block (kSecondPassBlock), equal to blockDim.x
//! @param[in] partials count accumulators written by the first pass (device memory)
//! @param[in] count number of partials (>= 1)
//! @param[out] out one accumulator: the result
//! @param[in] op the operator
//! Launch: exactly one block of Block threads; log2(Block) + 1 barriers.
//! Source: chapter 8, section 8.3 (the partials of each block, folded by one more block).
template <class A, class Op, int Block>
__global__ void reduce_second_pass(const A* __restrict__ partials, std::size_t count,
                                   A* __restrict__ out, Op op) {
  __shared__ A s[Block];
  A v = Op::template identity<A>();
  for (std::size_t i = threadIdx.x; i < count; i += Block) v = op(v, partials[i]);
  s[threadIdx.x] = v;
  __syncthreads();
  for (unsigned stride = Block / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = s[0];
}

// ---- What every chapter-8 stage shares in its launch ----------------------------------------

//! Calls `f(T{}, Op{}, std::integral_constant<int, Block>{})` for a run-time input type, operator
//! and block size (float/double/int x Sum/Max/Min x 32..1024): the one place where chapter 8's
//! launches turn run-time choices into template arguments.
//! @throws UsageError for an input type or block size outside those lists
template <class F>
void dispatch(harness::DType type, harness::Op op, int block, F&& f) {
  harness::with_input_type(type, [&](auto t) {
    with_op(op, [&](auto o) { harness::with_block_size(block, [&](auto b) { f(t, o, b); }); });
  });
}

//! Output type of every chapter-8 stage: int64 for an int sum (accumulated exactly in long long),
//! the input type otherwise; equal to accumulator_t of the operator.
inline harness::DType stage_output_type(harness::DType in, harness::Op op) {
  return (in == harness::DType::i32 && op == harness::Op::sum) ? harness::DType::i64 : in;
}


//! What a two-pass stage of chapter 8 supports: sum, max and min; int sums exact in int64.
inline harness::Reduce::Caps two_pass_caps() {
  harness::Reduce::Caps c;
  c.ops = {harness::Op::sum, harness::Op::max, harness::Op::min};
  c.out_type = stage_output_type;
  return c;
}

//! Workspace of a two-pass stage: one partial (of the output type) per block of the first pass.
inline std::size_t partials_bytes(const harness::ReduceArgs& a, std::size_t grid) {
  return grid * harness::dtype_size(stage_output_type(a.type, a.op));
}

//! Depth of a two-pass stage: `per_thread` elements folded by each thread of the first pass, its
//! block tree, then the second pass's ceil(grid / 1024) partials per thread and its block tree.
inline double two_pass_depth(const harness::ReduceArgs& a, double per_thread, std::size_t grid) {
  const double second = std::ceil(static_cast<double>(grid) / kSecondPassBlock);
  return harness::reduce_depth(per_thread, a.block, 0) + harness::reduce_depth(second, kSecondPassBlock, 0);
}

//! A rule of a stage's first pass: its blocks for given arguments.
using GridRule = std::size_t (*)(const harness::ReduceArgs&);
//! A rule of a stage's thread: elements (and folds) one thread of the first pass goes through on a
//! grid of `grid` blocks, before the block tree.
using PerThreadRule = double (*)(const harness::ReduceArgs&, std::size_t grid);

//! A stage that finishes with the second pass, as the harness runs it: `card`; sum, max and min
//! (two_pass_caps); the same bits on every run; a first pass of `grid(a)` blocks, each leaving one
//! partial in the workspace (partials_bytes); the summation depth of `per_thread(a, grid)` per
//! thread, the block tree and the second pass (two_pass_depth); both passes enqueued by `launch`.
//! @param[in] card the stage's name, label, change and source
//! @param[in] grid the blocks of its first pass for given arguments
//! @param[in] per_thread what one thread of the first pass folds before the block tree
//! @param[in] launch enqueues both passes
inline harness::Stage<harness::Reduce> two_pass_stage(harness::StageCard card, GridRule grid, PerThreadRule per_thread,
                                                      void (*launch)(const harness::ReduceArgs&)) {
  harness::Stage<harness::Reduce> s = harness::stage_of_card<harness::Reduce>(std::move(card));
  s.caps = two_pass_caps();
  s.deterministic = true;
  s.grid_for = grid;
  s.workspace_bytes = [grid](const harness::ReduceArgs& a) { return partials_bytes(a, grid(a)); };
  s.depth = [grid, per_thread](const harness::ReduceArgs& a) {
    const std::size_t blocks = grid(a);
    return two_pass_depth(a, per_thread(a, blocks), blocks);
  };
  s.launch = launch;
  return s;
}

}  // namespace ch08
