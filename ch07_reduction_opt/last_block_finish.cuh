//! @file last_block_finish.cuh
//! @brief The finish of stages 11 and 12: each block writes its sum to the workspace and takes a
//! ticket; the block that draws the last ticket sums every block's partial in a fixed order and
//! writes the result. Why the ticket (an acquire-release read-modify-write) makes the partials
//! visible to the last block: reduce_kernel_11_single_pass.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

#include "block_sum_one_barrier.cuh"
#include "dtype.hpp"
#include "last_ticket.cuh"
#include "reduce_grids.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Bytes at the start of the workspace of stages 11 and 12 that hold the ticket counter (16, so the
//! partials after it stay aligned for any element type).
inline constexpr std::size_t kTicketBytes = 16;

//! Who puts the ticket counter back to zero for the next launch: stage 11 a memset before the kernel
//! (TicketReset::by_launch), stage 12 the block that draws the last ticket (by_last_block).
using harness::TicketReset;

//! The last-block finish: thread 0 of each block stores `block_sum` to partials[blockIdx.x] and
//! takes a ticket with `fetch_add(1, memory_order_acq_rel)` at device scope; the block that draws
//! ticket gridDim.x - 1 sums partials[0..gridDim.x) (thread i takes i, i + Block, ...: a fixed
//! order, so the same bits on every run) and thread 0 writes the result. Nobody waits for anybody.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x; every thread calls
//! @tparam Reset TicketReset::by_last_block: the last block also subtracts gridDim.x from the
//!         counter (an atomic fetch_sub, not a store of 0), so the next launch in stream order finds
//!         it where this launch found it: zero after a launch that started from zero, and not zero
//!         after one that started from anything else, whatever the order of the blocks' tickets
//!         (a store of 0 could land after a late block's ticket and hide a counter that did not
//!         start at zero). Two launches in flight on one workspace at once are not allowed.
//! @param[in] block_sum in thread 0, this block's sum (other threads: ignored)
//! @param[out] partials gridDim.x elements of scratch (their old contents are unused)
//! @param[in,out] retired the ticket counter: zero when the kernel starts
//! @param[out] result one element: the sum (written, not accumulated)
template <class T, int Block, TicketReset Reset>
__device__ __forceinline__ void finish_in_last_block(T block_sum, T* partials, unsigned* retired, T* result) {
  __shared__ bool is_last_block;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_sum;
    // Release: this block's partial is ordered before its ticket. Acquire: the block that draws the
    // last ticket sees every partial stored before every other ticket (last_ticket.cuh).
    is_last_block = harness::draw_ticket_is_last<Reset>(retired);
  }
  __syncthreads();  // hands thread 0's decision (and what its acquire ordered) to the block
  if (!is_last_block) return;

  // The last block: every partial is visible. Sum them in a fixed order (read once: __ldcg, a cache hint).
  T acc = T(0);
  for (unsigned i = threadIdx.x; i < gridDim.x; i += Block) acc += __ldcg(partials + i);
  __syncthreads();  // warp_sums of block_sum_one_barrier are reused
  acc = block_sum_one_barrier<T, Block>(acc);
  if (threadIdx.x == 0) *result = acc;
}

// ---- Host side: what the finish needs and adds -------------------------------------------------

//! Workspace of stages 11 and 12 on `grid` blocks: the ticket counter, then one partial per block.
inline std::size_t last_block_workspace(const harness::ReduceArgs& a, std::size_t grid) {
  return kTicketBytes + grid * harness::dtype_size(a.type);
}

//! Summation depth of stages 11 and 12 on `grid` blocks: a thread's share and the block tree
//! (occupancy_depth), then the last block folding the partials: ceil(grid / Block) each, then its tree.
inline double last_block_depth(const harness::ReduceArgs& a, std::size_t grid) {
  const double g = static_cast<double>(grid);
  return occupancy_depth(a, g, std::ceil(g / a.block) + harness::tree_levels(a.block));
}

}  // namespace ch07
