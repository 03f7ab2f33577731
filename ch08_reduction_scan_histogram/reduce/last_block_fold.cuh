//! @file last_block_fold.cuh
//! @brief The one-launch finish of chapter 8's stage 7, for any operator: each block stores its value
//! in the workspace and takes a ticket; the block that draws the last ticket folds every block's
//! value in a fixed order and writes the result, then takes the grid's tickets back off the counter
//! so that the next launch finds it at zero. Chapter 7's last_block_finish.cuh is the same finish
//! for sums (stages 11 and 12); reduce_kernel_11_single_pass.cuh explains why the ticket, an
//! acquire-release read-modify-write, makes every partial visible to the last block. On the host side,
//! the workspace it needs (the ticket counter, then the partials, stages 7 and 10) and the summation
//! depth it adds (stages 7, 8 and 10).
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

#include "barrier_policy.cuh"
#include "block_folds.cuh"
#include "last_ticket.cuh"
#include "reduce_ops.cuh"
#include "reduce_problem.hpp"
#include "reduce_second_pass.cuh"

namespace ch08 {

//! Bytes at the start of stage 7's workspace that hold the ticket counter (16, so that the partials
//! after it are aligned for every accumulator type).
inline constexpr std::size_t kTicketBytes = 16;

//! Bytes of the workspace of a last-block finish on `grid` blocks (stages 7 and 10): the ticket
//! counter (kTicketBytes), then one partial per block.
inline std::size_t ticket_workspace_bytes(const harness::ReduceArgs& a, std::size_t grid) {
  return kTicketBytes + partials_bytes(a, grid);
}

//! The partials of a last-block finish in a's workspace: the accumulators after the ticket counter
//! (the counter itself is a.scratch<unsigned>()).
//! @tparam A accumulator type
template <class A>
A* ticket_partials(const harness::ReduceArgs& a) {
  return reinterpret_cast<A*>(a.scratch<unsigned char>() + kTicketBytes);
}

//! Summation depth the last-block finish adds on `grid` blocks: each thread of the last block folds
//! ceil(grid / Block) partials, then the block's tree (also stage 8's finish over its tagged slots).
inline double last_block_depth(const harness::ReduceArgs& a, std::size_t grid) {
  return harness::reduce_depth(std::ceil(static_cast<double>(grid) / a.block), a.block, 0);
}

//! The last-block fold: thread 0 of each block stores `block_value` to partials[blockIdx.x] and
//! takes a ticket (fetch_add(1), acquire-release, device scope); the block that draws ticket
//! gridDim.x - 1 takes gridDim.x back off the counter (fetch_sub: a counter that was zero is zero
//! again, whatever order the tickets came in; one that started elsewhere is not, since then no block
//! or the wrong block drew the last ticket, and the harness's check of the counter fails the run),
//! folds partials[0..gridDim.x) with `op`
//! (thread i takes i, i + Block, ...: a fixed order, so the same bits on every run) and block_fold,
//! and thread 0 writes the result. Nobody waits for anybody.
//! @tparam A accumulator type
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x; every thread calls
//! @tparam Op Sum, Max or Min
//! @param[in] block_value in thread 0, this block's value (other threads: ignored)
//! @param[out] partials gridDim.x accumulators of scratch (their old contents are unused)
//! @param[in,out] tickets the ticket counter: zero when the kernel starts, zero again when it ends
//! @param[out] out one accumulator: the result (written, not accumulated)
//! @param[in] op the operator
//! Two launches on one workspace must not run at once.
//! Why the last block sees every partial: thread 0 stores its block's partial, then its fetch_add
//! releases it; the tickets form one release sequence on the counter, so the acquire of the thread
//! that draws the last ticket sees every partial stored before any ticket; __syncthreads hands that
//! to the rest of its block. (__ldcg is only a cache hint: read once, skip L1.)
//! Source: chapter 7's stages 11 and 12 (last_block_finish.cuh) with chapter 8's operators.
template <class A, int Block, class Op>
__device__ __forceinline__ void fold_in_last_block(A block_value, A* partials, unsigned* tickets, A* out, Op op) {
  __shared__ bool is_last_block;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_value;
    is_last_block = harness::draw_ticket_is_last<harness::TicketReset::by_last_block>(tickets);
  }
  // Hands thread 0's decision (and what its acquire ordered) to the block. Every thread has also
  // left the block's first block_fold, so the second may reuse its shared slots.
  __syncthreads();
  if (!is_last_block) return;
  A acc = Op::template identity<A>();
  for (unsigned i = threadIdx.x; i < gridDim.x; i += Block) acc = op(acc, __ldcg(partials + i));
  PlainBarrier sync;
  acc = block_fold<A, Block>(acc, op, sync);
  if (threadIdx.x == 0) *out = acc;
}

}  // namespace ch08
