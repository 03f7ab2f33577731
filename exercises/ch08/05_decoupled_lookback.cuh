//! @file 05_decoupled_lookback.cuh
//! @brief Exercise ch08/05: the look-back of the single-pass scan (exercise: fill in the TODO(student) parts).
//!
//! Goal: write the heart of scan stage 4, the decoupled look-back (Merrill and Garland, 2016). Each
//! block takes the next tile from a counter, scans its tile in the block and publishes the tile's
//! total (flag AGGREGATE) -- all given. Then warp 0 must find the sum of every tile before this one
//! from the predecessors' published status: lane l reads tile - 1 - l (waiting while it is still
//! INVALID), a ballot finds the nearest predecessor that has published its INCLUSIVE prefix, the
//! lanes up to it add their values and the look-back is done; if none of the 32 has, the 32
//! aggregates are added and the window moves 32 tiles further back. Then the tile publishes its own
//! inclusive prefix (given).
//! Builds on: scan stage 4 (ch08_reduction_scan_histogram/scan/scan_stage_4_decoupled_lookback.cuh,
//! decoupled_look_back); the tile status (ch08::TileStatus, flags kTileInvalid / kTileAggregate /
//! kTileInclusive), the tile counter, the coarsened block scan and the loads and stores are the
//! chapter's (tile_status.cuh, block_scan.cuh), not part of the exercise.
//! Build and check: scripts/exercise.sh ch08/05
//!   (or: cmake --build build --target exercise_ch08_05 && ctest --test-dir build -L exercise -R ch08_05)
//! A right answer: the check passes for every n (a tile is Block x 8 floats or ints, Block x 4
//! doubles; 2^24 elements make thousands of tiles, so look-backs over many windows happen), every
//! block size 32..1024, float / double / int, exclusive and inclusive.
//! A wrong look-back can hang rather than fail: a loop that waits on a tile that never publishes
//! (a tile after its own), reads a negative index, or never leaves the window loop. The stub as shipped
//! never waits, so it always terminates with a wrong answer. If your version hangs, stop the test
//! (Ctrl-C) and check which tiles you wait on.
//!
//! Stuck? The solved file, with why it works: solutions/ch08/05_decoupled_lookback.cuh.
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>

#include "block_scan.cuh"
#include "cuda_check.hpp"
#include "scan/scan_problem.hpp"
#include "scan_support.cuh"
#include "tile_status.cuh"

namespace ex08 {

//! Reads the status of tile `pred`, waiting while it is INVALID (given). Only call it for a tile
//! below your own: such a tile was taken by a running block, which publishes at least AGGREGATE.
template <class T, class Status>
__device__ __forceinline__ ch08::TileState<T> wait_for_status(const Status& status, std::size_t pred) {
  ch08::TileState<T> s;
  do {
    s = status.load(pred);
  } while (s.flag == ch08::kTileInvalid);
  return s;
}

//! The look-back, run by the 32 lanes of warp 0: publishes `aggregate` for `tile`, finds the sum of
//! every tile before it, publishes the inclusive prefix.
//! @return in every lane: the exclusive prefix of the tile (0 for tile 0)
template <class T, class Status>
__device__ __forceinline__ T look_back(const Status& status, unsigned tile, T aggregate) {
  const unsigned lane = threadIdx.x % 32;
  if (tile == 0) {
    if (lane == 0) status.publish(0, ch08::kTileInclusive, aggregate);
    return T(0);
  }
  if (lane == 0) status.publish(tile, ch08::kTileAggregate, aggregate);
  T exclusive = T(0);
  // TODO(student): the look-back over the predecessors' published status, a warp at a time. Hints:
  // exercises/README.md, exercise ch08/05. As written the tile takes 0 for the sum of its
  // predecessors without reading them: every tile after the first starts its prefixes from 0 again
  // (wrong from the second tile on, but it never waits, so it cannot hang).
  if (lane == 0) status.publish(tile, ch08::kTileInclusive, exclusive + aggregate);
  return exclusive;
}

//! Stage 4's kernel with this exercise's look-back: one tile of Block * Items elements per block.
template <class T, int Block, int Items>
__global__ void __launch_bounds__(Block)
    ex05_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n, unsigned* tile_counter,
                ch08::TileStatus<T> status, bool inclusive) {
  __shared__ T warp_sums[Block / 32];
  __shared__ T tile_exclusive;
  const unsigned tile = ch08::take_tile_index(tile_counter);
  const std::size_t base = static_cast<std::size_t>(tile) * Block * Items;
  T x[Items];
  ch08::load_blocked<Block>(in, base, n, x);
  const ch08::BlockPrefix<T> p = ch08::block_scan_blocked<T, Block>(x, warp_sums);
  if (threadIdx.x < 32) {
    const T e = look_back(status, tile, p.block_total);
    if (threadIdx.x == 0) tile_exclusive = e;
  }
  __syncthreads();
  ch08::store_blocked<Block>(out, base, n, x, tile_exclusive + p.thread_exclusive, inclusive);
}

//! Resets the counter and the flags, then one kernel (as stage 4).
inline void launch_ex05(const harness::ScanArgs& a) {
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    constexpr int kItems = ch08::kCoarseItems<T>;
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      const unsigned tiles = ch08::grid_for_tiles(a.n, static_cast<std::size_t>(B) * kItems);
      unsigned char* ws = a.scratch<unsigned char>();
      CUDA_CHECK(cudaMemsetAsync(ws, 0, ch08::look_back_reset_bytes<T>(tiles), a.stream));
      ex05_kernel<T, B, kItems><<<tiles, B, 0, a.stream>>>(
          a.input<T>(), a.output<T>(), a.n, reinterpret_cast<unsigned*>(ws),
          ch08::TileStatus<T>::at(ws + ch08::kWorkspaceAlign, tiles), a.inclusive);
    });
  });
}

//! The exercise as the harness runs it: stage 4's grid, workspace and depth.
inline harness::Stage<harness::Scan> ex05_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "ch08_05_decoupled_lookback";
  s.label = "exercise: decoupled look-back";
  s.change = "one pass: each tile publishes its total and looks back over its predecessors' status";
  s.source = "exercises/ch08/05_decoupled_lookback.cuh";
  s.deterministic = false;
  s.grid_for = [](const harness::ScanArgs& a) {
    return static_cast<std::size_t>(ch08::grid_for_tiles(a.n, ch08::coarse_tile(a)));
  };
  s.workspace_bytes = [](const harness::ScanArgs& a) {
    const std::size_t tiles = ch08::grid_for_tiles(a.n, ch08::coarse_tile(a));
    return harness::with_input_type(a.type, [&](auto t) { return ch08::look_back_workspace_bytes<decltype(t)>(tiles); });
  };
  s.depth = [](const harness::ScanArgs& a) {
    return ch08::look_back_depth(ch08::coarse_tile_depth(static_cast<int>(32 / harness::dtype_size(a.type))),
                                 ch08::grid_for_tiles(a.n, ch08::coarse_tile(a)));
  };
  s.launch = launch_ex05;
  return s;
}

}  // namespace ex08
