//! @file reduce_second_pass.cuh
//! @brief The second pass every chapter-8 reduction finishes with: one block folds the per-block
//! partials of the first pass into the result. No atomics anywhere, so the result is the same bit
//! for bit on every run.
//!
//! The block strides through the partials (thread t folds partials t, t + Block, ...), then folds its
//! threads with stage 4's block_fold. Because it strides, one block handles any number of partials:
//! a few hundred from the coarsened stages, or ceil(n / Block) from stage 1 (67 million for
//! n = 2^31 at Block = 32), so no third pass is ever needed.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "reduce_ops.cuh"
#include "reduce_stage_4_block_reduce.cuh"

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
//! Launch: exactly one block of Block threads; 1 barrier.
//! Source: chapter 8, section 8.6 (the partials of section 8.3 folded by the block reduction).
template <class A, class Op, int Block>
__global__ void reduce_second_pass(const A* __restrict__ partials, std::size_t count,
                                   A* __restrict__ out, Op op) {
  A v = Op::template identity<A>();
  for (std::size_t i = threadIdx.x; i < count; i += Block) v = op(v, partials[i]);
  PlainBarrier sync;
  v = block_fold<A, Block>(v, op, sync);
  if (threadIdx.x == 0) *out = v;
}

}  // namespace ch08
