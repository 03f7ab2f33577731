//! @file tile_flags.cuh
//! @brief The flags of a tile's status in the look-back (INVALID, AGGREGATE, INCLUSIVE), and for scan
//! stage 9 the tag that joins a flag to the epoch of the run that wrote it: plain arithmetic, which
//! host code (the tests) can include as well as the kernels. The status words that hold them are in
//! tile_status.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace ch08 {

//! Status of a tile in the look-back.
enum TileFlag : unsigned {
  kTileInvalid = 0,    //!< nothing published yet (the value after the launch's memset; stage 9: a tag of another epoch)
  kTileAggregate = 1,  //!< the tile's own total is published
  kTileInclusive = 2   //!< the sum of this tile and every tile before it is published
};

// Stage 9's epochs. Stages 4 to 8 zero the tile counter and every flag before each run (a memset
// launch). Stage 9 zeroes nothing: a 64-bit run word in the workspace hands out the tiles and names
// the run's epoch, the block that takes the last tile resets the count and advances the epoch for
// the next launch (take_run_ticket, tile_status.cuh), and every status word carries the epoch of the
// run that wrote it, so a word left by an earlier run reads as INVALID. Why no stale or garbage word
// can pass for the current run's:
//   - epochs run 1, 2, ..., kEpochMax, then 1 again; 0 (a cleared word) and 2^30 - 1 (the epoch
//     field of an all-ones word: the harness's 0xFF poison) are never a run's epoch;
//   - a tag holds flag AGGREGATE (1) or INCLUSIVE (2); 0 and 3 are never read as a flag;
//   - wrap-around: a word that kept the tag of epoch E from one cycle ago would pass in the next run
//     of epoch E. So the run of epoch 1 (the first after the workspace was zeroed, and the first of
//     every later cycle) clears every status word past its own tiles, up to what the workspace holds;
//     its own tiles it writes with epoch 1. After it every word holds epoch 0 or 1, and the runs of
//     epochs 2 .. E - 1 write only those epochs: none holds E >= 2 before the run of epoch E writes
//     it. Epoch 1 itself needs one more step: a word the run of epoch 1 wrote below its grid and no
//     later run of the cycle rewrote (their grids were smaller) would still hold epoch 1 when the
//     next cycle's run of epoch 1 comes. So the run of epoch 2 clears every word past its own tiles
//     too: after it no word holds epoch 1 until the next cycle's run of epoch 1 writes it.
// The precondition: whenever the run word is zeroed (before the first launch on a workspace: the
// harness does it once, Stage::workspace_zeroed_bytes), every status word is all ones or zero (the
// harness fills the whole workspace with 0xFF first); from then on only stage 9's launches write
// them, every one with the same workspace size.

//! Largest epoch of a run: epochs go 1, 2, ..., kEpochMax, 1, ... (16 bits, what the run word
//! holds), never 0 (a cleared word) and never 2^30 - 1 (the epoch field of an all-ones tag).
inline constexpr unsigned kEpochMax = (1u << 16) - 1;

//! The tag of a status word written in the run of `epoch` with `flag`: the epoch in the high 30
//! bits, the flag in the low 2.
__host__ __device__ constexpr unsigned epoch_tag(unsigned epoch, unsigned flag) { return epoch << 2 | flag; }

//! The flag that `tag` holds for the run of `epoch`: AGGREGATE or INCLUSIVE when the tag was
//! written in that run, INVALID for anything else (another epoch, a cleared or all-ones word).
__host__ __device__ constexpr unsigned flag_in_epoch(unsigned tag, unsigned epoch) {
  const unsigned flag = tag & 3u;
  return (tag >> 2) == epoch && (flag == kTileAggregate || flag == kTileInclusive) ? flag : kTileInvalid;
}

//! The epoch of the run after a run of `epoch`; after 0 (no run since the workspace was zeroed) and
//! after kEpochMax it is 1.
__host__ __device__ constexpr unsigned next_epoch(unsigned epoch) {
  return epoch == 0 || epoch >= kEpochMax ? 1u : epoch + 1;
}

// Stage 9's run word, 64 bits: the last run's epoch in the high 16 (0 before the first run), then
// two counts of the tiles taken in this run, 24 bits each, that every block raises together (one
// atomic add of kTicketStep). A complete launch leaves both at 0, so they agree whenever the word is
// one a launch left (or zeroed); a word that holds anything else (a counter another stage left,
// random bytes) has two counts that differ, but for a one in 2^24 chance, and a block that sees them
// differ takes no tile (a first count one above the second can carry into the second, after which
// the later blocks take tiles from 0 and tile gridDim.x - 1 is never taken: the result, poisoned
// before the run, shows it; nothing waits for ever). Without the second count a word left by another
// stage (say a tile counter of 1 below a grid of 2 or more) would hand out tiles 1 and up and no
// tile 0: the block of tile 1 would wait for tile 0 for ever.
inline constexpr unsigned long long kRunCountMask = (1ull << 24) - 1;   //!< one count: 24 bits
inline constexpr unsigned long long kTicketStep = 1ull | 1ull << 24;    //!< one tile taken: both counts + 1
inline constexpr unsigned kRunEpochShift = 48;                          //!< the epoch: bits 48 to 63
//! Most tiles (blocks) of one stage-9 launch: what a 24-bit count holds.
inline constexpr std::size_t kMaxRunTiles = kRunCountMask;

//! The run word a complete run of `epoch` leaves: that epoch, both counts 0.
__host__ __device__ constexpr unsigned long long run_word_after(unsigned epoch) {
  return static_cast<unsigned long long>(epoch) << kRunEpochShift;
}

}  // namespace ch08
