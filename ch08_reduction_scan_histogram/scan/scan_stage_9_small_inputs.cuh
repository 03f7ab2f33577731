//! @file scan_stage_9_small_inputs.cuh
//! @brief Scan stage 9: for small inputs, where the launches and not the bytes decide: one launch
//! per run and nothing else, and no look-back at all when one tile covers n.
//!
//! Below about 2^20 elements the launches, not the bytes, decide a run's time: a copy of the same
//! bytes, one launch, takes not far above what one launch costs (the figures, and the GPU they were
//! measured on: the scan page, README.md, "Stage 9: one launch for small inputs", from
//! scan_ladder --small and chapter 7's launch_cost).
//! A run of stages 4 to 7 enqueues two operations: a memset of the tile counter and the flags, then
//! the kernel. CUB's DeviceScan launches twice as well (a kernel that initialises the tile status,
//! then the scan). Changed against stage 5 (whose layout, loads and block scan it keeps):
//!   - no zeroing launch. The counter and the flags must start every run in a known state; here
//!     nothing resets them between runs. A 64-bit run word in the workspace hands each block its
//!     tile (an atomic add, as stages 4 to 8 take theirs) and names the run's epoch; the block that
//!     takes the last tile sets the count back to 0 and advances the epoch for the next launch
//!     (take_run_ticket, tile_status.cuh). Every status word carries the epoch of the run that
//!     wrote it (EpochTileStatus), so words left by the previous run read as INVALID, and the
//!     look-back (look_back.cuh, unchanged) waits for this run's. The epoch lives on the device and
//!     the kernel advances it: a host argument would be frozen into a CUDA graph, whose replays
//!     (the small-input ladder times graphs of many runs) would all see the same epoch. The run
//!     word must be zero before the first launch on a workspace: the harness zeroes it once when it
//!     prepares the workspace (Stage::workspace_zeroed_bytes), never between runs. Why neither a
//!     stale word, nor a wrapped-around epoch, nor the harness's 0xFF poison can pass for a
//!     current flag: tile_flags.cuh;
//!   - one tile when it is enough. With a grid of one block there is nothing to look back on: the
//!     block's scan is the result; no run word, no status, no atomic;
//!   - a tile sized for latency: 4 vectors of 16 bytes per thread (64 bytes: all of a thread's loads
//!     in flight at once, one trip, as ch07's stage 12), and a block chosen by n on the GPU at hand
//!     (scan_stage_9_block): 256 threads while one tile of 256 covers n, above that the widest
//!     block of 512 or 256 whose tiles still number the GPU's SMs, else 128, so that the input is
//!     spread over as many blocks as load at once (the block sweep behind the rule: the scan page,
//!     "Stage 9"); `scan_stage_9 --block B` overrides it. The data uses the default cache policy
//!     (at these sizes it fits in L2, and a graph's next run reads it again).
//! Every n is handled as in stage 5 (any n, any element-aligned address: the vector path when `in`
//! and `out` are both 16-byte aligned and the tile is whole, element by element otherwise; a grid of
//! one tile per block, so n past 2^31 takes more tiles and 64-bit indices).
//! What the profiler should show (not yet run): one kernel per run and no memset (Nsight Systems;
//! `scan_ladder --small`
//! counts the launches of one run in its `launches` column); at n up to one tile, no global atomic
//! and no status load; above, one atomic per block, as stage 5.
//! Determinism: as stage 4 (not promised for float and double; ints always the same); with one
//! tile the order of the additions is fixed, so the same bits on every run.
//! Source: Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", NVIDIA
//! technical report NVR-2016-002 (2016), sections 4.1-4.4 (the look-back); the run word and the
//! epoch-tagged status: this tutorial.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cuda_check.hpp"
#include "look_back.cuh"
#include "scan_stage_5_vectorized.cuh"
#include "scan_support.cuh"
#include "striped_vectors.cuh"
#include "tile_status.cuh"

namespace ch08 {

//! 16-byte vectors per thread of stage 9: 4 (64 bytes per thread, one trip of loads).
inline constexpr int kStage9Vectors = 4;
//! Stage 9's block where no n is known (scan_stage_9_block picks one for each n): 512 threads (one
//! tile: 8 Ki floats, 4 Ki doubles).
inline constexpr int kStage9Block = 512;
//! Bytes at the start of stage 9's workspace that must be zero before its first launch there: the
//! run word. The status starts kWorkspaceAlign bytes in.
inline constexpr std::size_t kStage9ZeroedBytes = sizeof(unsigned long long);

//! Stage 9's kernel: one tile of Block * Vectors * 16 bytes per block, warp-striped (stage 5's
//! layout and block scan); with one block, the block's scan is the result; with more, the tile and
//! the run's epoch from the run word, the decoupled look-back over the epoch-tagged status; the
//! block that takes the last tile in the run of epoch 1 then clears the status words past this
//! run's tiles (the wrap-around guard, tile_flags.cuh).
//! @tparam T float, double or int
//! @tparam Block threads per block (equal to blockDim.x), a power of two 32..1024
//! @tparam Vectors 16-byte vectors per thread
//! @tparam Aligned `in` and `out` are 16-byte aligned (the vector path is allowed)
//! @param[in] in n elements, aligned to sizeof(T)
//! @param[out] out n prefixes (must not overlap `in`)
//! @param[in] n number of elements (> 0)
//! @param[in,out] run_word zero before the first launch on this workspace, left ready for the next
//!                launch by the block that takes the last tile; unused with one block
//! @param[in,out] status_words the status, EpochTileStatus<T>::kWords 64-bit words per tile, for
//!                `capacity` tiles: all ones or zero when the run word was zeroed, since then
//!                written only by this kernel (never zeroed between runs); unused with one block
//! @param[in] capacity tiles whose status the workspace holds (>= gridDim.x); the same in every
//!            launch on one workspace
//! @param[in] inclusive inclusive or exclusive prefixes
//! Launch: exactly ceil(n / (Block * Vectors * 16 / sizeof(T))) blocks, at most kMaxRunTiles (2^24 - 1); two
//! launches on one workspace must not run at once (stream order). Barriers: 1 per block with one
//! block, 3 with more.
template <class T, int Block, int Vectors, bool Aligned>
__global__ void __launch_bounds__(Block)
    scan_small_inputs(const T* __restrict__ in, T* __restrict__ out, std::size_t n, unsigned long long* run_word,
                      unsigned long long* status_words, std::size_t capacity, bool inclusive) {
  constexpr std::size_t kTile = static_cast<std::size_t>(Block) * Vectors * kVecItems<T>;
  __shared__ T warp_sums[Block / 32];
  const bool one_tile = gridDim.x == 1;  // the same in every thread: the branches below are uniform
  const RunTicket ticket = one_tile ? RunTicket{0, 0} : take_run_ticket(run_word);
  // No tile, or one past the grid: the run word is not one a complete launch leaves (a workspace
  // that was not zeroed before the first launch, or one another stage left). The block touches
  // nothing (no tile of `in`, `out` or the status lies there), and the count it leaves behind fails
  // the harness's check (Session::check_output). Uniform in the block: the ticket is in shared memory.
  if (ticket.tile >= gridDim.x) return;
  const EpochTileStatus<T> status{status_words, ticket.epoch};
  const std::size_t tile_base = static_cast<std::size_t>(ticket.tile) * kTile;
  const bool vector_ok = Aligned && tile_base + kTile <= n;

  T x[Vectors][kVecItems<T>];
  load_striped<DefaultCache, Vectors>(in, tile_base, n, vector_ok, x);
  T base[Vectors];
  const WarpOffsets<T> w = striped_block_scan<T, Block, Vectors>(x, base, warp_sums);
  T offset = w.warp_exclusive;
  if (!one_tile) offset = block_look_back(status, ticket.tile, w.block_total) + offset;
#pragma unroll
  for (int j = 0; j < Vectors; ++j) base[j] = offset + base[j];
  store_striped<DefaultCache, Vectors>(out, tile_base, n, vector_ok, x, base, inclusive);

  // The first two runs of an epoch cycle clear every word past their tiles (the other blocks of the
  // run read only tiles below gridDim.x): after the run of epoch 1 no word keeps an older cycle's
  // tag, after the run of epoch 2 none keeps epoch 1's (tile_flags.cuh says why both).
  if (!one_tile && (ticket.epoch == 1 || ticket.epoch == 2) && ticket.tile == gridDim.x - 1)
    for (std::size_t t = gridDim.x + threadIdx.x; t < capacity; t += Block) status.clear(t);
}

// ---- How stage 9 is launched -------------------------------------------------------------------

//! Elements per tile of stage 9 at these arguments: a.block * kStage9Vectors * 16 / sizeof(T).
inline std::size_t scan_stage_9_tile(const harness::ScanArgs& a) { return vector_tile(a, kStage9Vectors); }

//! Stage 9's block when --block is not given: 256 while one tile of 256 threads covers n (no
//! look-back at all); above, the widest block from 512 down to 128 whose tiles still number at
//! least the GPU's SMs, else 128. Smaller tiles mean more blocks loading at once and a shorter scan
//! per block; the look-back chain they lengthen costs less at these sizes than the blocks that
//! would sit idle (the scan page, "Stage 9", measures it).
//! @param[in] a the arguments (type, n)
//! @param[in] limits the GPU's limits (sm_count)
//! @return threads per block: 128, 256 or 512
inline int scan_stage_9_block(const harness::ScanArgs& a, const harness::DeviceLimits& limits) {
  const std::size_t bytes = a.n * harness::dtype_size(a.type);
  const std::size_t per_thread = static_cast<std::size_t>(kStage9Vectors) * 16;
  if (bytes <= 256 * per_thread) return 256;
  for (int b = 512; b >= 256; b /= 2) {
    const std::size_t tile = static_cast<std::size_t>(b) * per_thread;
    if ((bytes + tile - 1) / tile >= static_cast<std::size_t>(limits.sm_count)) return b;
  }
  return 128;
}

//! Workspace of stage 9: the run word (in the first kWorkspaceAlign bytes), then the status of
//! every tile.
inline std::size_t scan_stage_9_workspace(const harness::ScanArgs& a) {
  const std::size_t tiles = grid_for_tiles(a.n, scan_stage_9_tile(a));
  return harness::with_input_type(a.type, [&](auto t) {
    return kWorkspaceAlign + EpochTileStatus<decltype(t)>::bytes(tiles);
  });
}

//! Launches stage 9 on a.stream: one launch of scan_small_inputs, nothing else (no memset: the run
//! word is left ready by the previous launch, or zeroed by whoever prepared the workspace).
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024; a workspace of
//!            scan_stage_9_workspace(a) bytes or more (a.workspace_size says how many: every launch
//!            on one workspace must give the same size), whose first kStage9ZeroedBytes were zeroed
//!            before the first launch on it
inline void launch_scan_stage_9(const harness::ScanArgs& a) {
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int kBlock = decltype(block)::value;
      const unsigned tiles = grid_for_tiles(a.n, static_cast<std::size_t>(kBlock) * kStage9Vectors * kVecItems<T>);
      unsigned char* ws = a.scratch<unsigned char>();
      auto* run_word = reinterpret_cast<unsigned long long*>(ws);
      auto* status_words = reinterpret_cast<unsigned long long*>(ws + kWorkspaceAlign);
      const std::size_t capacity =
          a.workspace_size > kWorkspaceAlign ? EpochTileStatus<T>::capacity(a.workspace_size - kWorkspaceAlign) : 0;
      if (aligned16(a.in) && aligned16(a.out))
        scan_small_inputs<T, kBlock, kStage9Vectors, true><<<tiles, kBlock, 0, a.stream>>>(
            a.input<T>(), a.output<T>(), a.n, run_word, status_words, capacity, a.inclusive);
      else
        scan_small_inputs<T, kBlock, kStage9Vectors, false><<<tiles, kBlock, 0, a.stream>>>(
            a.input<T>(), a.output<T>(), a.n, run_word, status_words, capacity, a.inclusive);
    });
  });
}

//! Stage 9 as the harness runs it: the program `scan_stage_9`, the ladder and the tests.
inline harness::Stage<harness::Scan> scan_stage_9_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "scan_stage_9";
  s.label = "one launch for small inputs";
  s.change = "no zeroing launch (status words tagged with a run epoch the kernel advances itself), one tile and no "
             "look-back when one block covers n; 64 bytes per thread, a block chosen by n (128 to 512)";
  s.source = "Merrill and Garland 2016 (decoupled look-back); the epoch-tagged status: this tutorial";
  s.deterministic = false;
  s.default_block = kStage9Block;
  s.block_for = scan_stage_9_block;
  s.max_block = max_block_for_vectors(kStage9Vectors);
  s.grid_for = [](const harness::ScanArgs& a) {
    return static_cast<std::size_t>(grid_for_tiles(a.n, scan_stage_9_tile(a)));
  };
  s.max_grid = kMaxRunTiles;
  s.workspace_bytes = scan_stage_9_workspace;
  s.workspace_zeroed_bytes = kStage9ZeroedBytes;
  s.depth = [](const harness::ScanArgs& a) {
    return look_back_depth(vector_tile_depth(a, kStage9Vectors), grid_for_tiles(a.n, scan_stage_9_tile(a)));
  };
  s.launch = launch_scan_stage_9;
  return s;
}

}  // namespace ch08
