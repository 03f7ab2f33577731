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

#include "kernel_support.cuh"
#include "reduce_ops.cuh"
#include "reduce_problem.hpp"

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

}  // namespace ch08
