//! @file last_ticket.cuh
//! @brief The ticket of the one-launch finishes: each block draws a ticket from a counter in the
//! workspace, and the block that draws the last one finishes the job (chapter 7's stages 11 and 12,
//! chapter 8's reduction stages 7 and 10 and its histogram stage 10). The callers say what each
//! block publishes before its ticket and what the last block does.
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>

namespace harness {

//! Who puts the ticket counter back to zero for the next launch.
enum class TicketReset {
  by_launch,     //!< a launch before the kernel zeroes it (a memset: one more launch per run)
  by_last_block  //!< the block that draws the last ticket takes gridDim.x back off (no zeroing launch)
};

//! Draws the calling block's ticket: `fetch_add(1)` on `counter`, acquire-release at device scope.
//! Release: what the block stored before (its partial, its atomics behind a fence) is ordered before
//! its ticket. Acquire: the tickets form one release sequence on the counter, so the thread that
//! draws the last ticket sees what every block stored before its own. With Reset ==
//! TicketReset::by_last_block that thread also subtracts gridDim.x (an atomic fetch_sub, not a
//! store of 0), so the next launch in stream order finds the counter where this launch found it:
//! zero after a launch that started from zero, and not zero after one that started from anything
//! else, whatever the order of the tickets (a store of 0 could land after a late block's ticket and
//! hide a counter that did not start at zero).
//! @tparam Reset who zeroes the counter for the next launch
//! @param[in,out] counter the ticket counter: zero when the kernel starts; one thread per block calls
//! @return true in the thread that drew ticket gridDim.x - 1: its block is the last
//! Two launches on one counter must not run at once.
//! Source: CUDA samples, threadFenceReduction (a last-block finish); the CUDA C++ Programming
//! Guide's memory model (release sequences).
template <TicketReset Reset>
__device__ __forceinline__ bool draw_ticket_is_last(unsigned* counter) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> tickets(*counter);
  const unsigned ticket = tickets.fetch_add(1u, cuda::memory_order_acq_rel);
  const bool last = ticket == gridDim.x - 1;
  // gridDim.x tickets were taken; nobody reads the counter again before the kernel ends.
  if constexpr (Reset == TicketReset::by_last_block)
    if (last) tickets.fetch_sub(gridDim.x, cuda::memory_order_relaxed);
  return last;
}

}  // namespace harness
