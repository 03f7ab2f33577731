//! @file run_epochs.cuh
//! @brief Reduction stage 8's run word, its epochs and its workspace layout: plain arithmetic, which
//! host code (the tests) can include as well as the kernel. Why an epoch tag makes a stale or
//! poisoned slot impossible to take for the current run's: reduce_stage_8_tagged_finish.cuh.
//!
//! The run word, the first 8 bytes of the workspace (64 bits): bits 0-15 and 16-31 hold two counts of
//! the tickets taken in this run, which every block raises together (one atomic add of
//! kStage8TicketStep); bits 32-63 hold the epoch of the last run that took tickets (0: none since
//! the word was zeroed). A complete launch leaves both counts at 0. A word that holds anything else
//! (random bytes, the harness's all-ones poison, a counter another stage left) has two counts that
//! differ (random bytes: but for a chance of one in 2^16), or counts of 0xFFFF, which no grid of
//! stage 8 reaches; then no block draws the last ticket and no block waits, and in all but rare
//! words the counts the launch leaves are not 0 (Session::check_output fails the run; a first count
//! one above the second can carry into the second and leave both at 0, and then only the result,
//! poisoned before the run, shows the failure). Two equal counts below the grid
//! are what no launch leaves (a launch cannot stop midway and leave the device usable); such a word
//! may hand the last ticket out early, and a block that starts after it could then tag its slot with
//! the next epoch, for which the last block would wait for ever: the precondition of the stage is
//! a word that a complete launch left, or zero.
//! Source: this tutorial; the run word of scan stage 9 (tile_flags.cuh), with a 32-bit epoch.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace ch08 {

//! One of the two ticket counts of stage 8's run word: 16 bits.
inline constexpr unsigned long long kStage8CountMask = 0xFFFFull;
//! One ticket taken: both counts + 1.
inline constexpr unsigned long long kStage8TicketStep = 1ull | 1ull << 16;
//! The epoch's place in the run word: bits 32 to 63.
inline constexpr unsigned kStage8EpochShift = 32;
//! Most blocks of one stage-8 launch: what a 16-bit count holds, less one (a count of 0xFFFF, the
//! all-ones poison's, is never the last ticket).
inline constexpr std::size_t kStage8MaxGrid = 0xFFFF;
//! Largest epoch of a run: epochs go 1, 2, ..., kStage8EpochMax, 1, ...; never 0 (a cleared slot's
//! tag) and never 2^32 - 1 (the tag of an all-ones slot).
inline constexpr unsigned kStage8EpochMax = 0xFFFFFFFEu;
//! What stage8_ticket_of returns for a word whose two counts differ: past every grid.
inline constexpr unsigned kStage8NoTicket = 0xFFFFFFFFu;

//! Bytes at the start of stage 8's workspace that must be zero before its first launch there: the
//! run word.
inline constexpr std::size_t kStage8ZeroedBytes = sizeof(unsigned long long);
//! Where the slots start in stage 8's workspace: after the run word, at 16 bytes (a 16-byte slot is
//! loaded and stored as one aligned 128-bit access).
inline constexpr std::size_t kStage8SlotsOffset = 16;

//! The epoch of the run after a run of `epoch`: 1 after 0 (no run since the word was zeroed) and
//! after kStage8EpochMax, else epoch + 1. It is the tag a run's blocks store with their values.
__host__ __device__ constexpr unsigned stage8_next_epoch(unsigned epoch) {
  return epoch == 0 || epoch >= kStage8EpochMax ? 1u : epoch + 1;
}

//! The epoch a run word holds (that of the last run that took tickets).
__host__ __device__ constexpr unsigned stage8_epoch_of(unsigned long long word) {
  return static_cast<unsigned>(word >> kStage8EpochShift);
}

//! The ticket a block drew when the run word read `word` before its add: the count, when both counts
//! agree; kStage8NoTicket when they differ (the word is not one a launch left).
__host__ __device__ constexpr unsigned stage8_ticket_of(unsigned long long word) {
  const unsigned first = static_cast<unsigned>(word & kStage8CountMask);
  const unsigned second = static_cast<unsigned>((word >> 16) & kStage8CountMask);
  return first == second ? first : kStage8NoTicket;
}

//! The run word a complete run of `epoch` leaves: that epoch, both counts 0.
__host__ __device__ constexpr unsigned long long stage8_run_word_after(unsigned epoch) {
  return static_cast<unsigned long long>(epoch) << kStage8EpochShift;
}

//! What the block that draws the last of `grid` tickets adds to the run word, which then holds
//! `epoch` and both counts at `grid`: both counts back to 0 and the epoch moved to `next` (an
//! unsigned add: the borrow of the counts and the carry out of the epoch's top bit cancel, as they
//! must, modulo 2^64).
__host__ __device__ constexpr unsigned long long stage8_advance(unsigned epoch, unsigned next, unsigned grid) {
  return (static_cast<unsigned long long>(next - epoch) << kStage8EpochShift) - grid * kStage8TicketStep;
}

//! Bytes of one slot of stage 8 for an accumulator of `acc_bytes` bytes: 8 for a 4-byte accumulator
//! (tag and value in one 64-bit word), 16 for an 8-byte one (one 128-bit word).
__host__ __device__ constexpr std::size_t stage8_slot_bytes(std::size_t acc_bytes) { return acc_bytes == 4 ? 8 : 16; }

//! Slots that stage 8 may use in a workspace of `workspace_bytes` bytes for accumulators of
//! `acc_bytes` bytes: as many as fit after the run word, at most kStage8MaxGrid (no grid reaches
//! further). The run of epoch 1 clears every one of them.
__host__ __device__ constexpr std::size_t stage8_capacity(std::size_t workspace_bytes, std::size_t acc_bytes) {
  const std::size_t fit =
      workspace_bytes > kStage8SlotsOffset ? (workspace_bytes - kStage8SlotsOffset) / stage8_slot_bytes(acc_bytes) : 0;
  return fit < kStage8MaxGrid ? fit : kStage8MaxGrid;
}

}  // namespace ch08
