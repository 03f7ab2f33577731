//! @file scan_stage_4_decoupled_lookback.cuh
//! @brief Scan stage 4: a single pass with decoupled look-back (Merrill and Garland, 2016): each
//! tile learns the sum of all tiles before it from its predecessors' published status, so the
//! data is read once and written once.
//!
//! Changed against stage 3: the pass structure. Stage 3 reads every element twice (reduce, then
//! scan); here a block
//!   1. takes the next tile index from a counter in the workspace (atomicAdd), never blockIdx.x:
//!      blocks are not guaranteed to start in index order, and a block that waited on a tile whose
//!      block had not started could wait forever; with a counter, every tile a block waits on has
//!      already been taken by a running block;
//!   2. loads its tile and scans it in the block (stage 3's coarsened warp-shuffle block scan);
//!   3. publishes its aggregate (the tile's total) with the flag AGGREGATE;
//!   4. looks back (warp 0): lane l reads the status of tile - 1 - l, waits until it is not INVALID,
//!      a ballot finds the nearest predecessor whose flag is INCLUSIVE; the lanes up to it add their
//!      values (aggregates, then that inclusive prefix) and the look-back is done; with no INCLUSIVE
//!      flag in the window the 32 aggregates are added and the window moves 32 tiles back;
//!   5. publishes its inclusive prefix (exclusive + aggregate) with the flag INCLUSIVE and writes
//!      its prefixes.
//! Tile 0 publishes INCLUSIVE at once. The counter and the status words live in the workspace and
//! the launch resets them with cudaMemsetAsync before every run.
//! Publishing a flag and its value together: they share one word, stored and loaded whole, so a
//! reader sees both or neither and needs no fence, because nothing else is communicated. For 4-byte
//! types (float, int) the word is 64 bits (PackedTileStatus: cuda::atomic_ref, relaxed). For double
//! the pair needs 128 bits (WideTileStatus): one `.b128` store and load (PTX ISA 8.3, sm_70 and
//! newer), relaxed, which the PTX memory model treats as one access -- a vector access such as
//! `.v2.u64` it treats as two, and a reader could see a new flag beside an old value. The other
//! way for double, a flag word of its own published with release after the value and read with
//! acquire before it, costs a reader two dependent loads per predecessor, one after the other,
//! where the 128-bit word costs one (the scan page measures what that was worth).
//! What the profiler shows against stage 3: DRAM bytes per element fall from 12 to 8 (floats), one
//! kernel instead of 2 per level; new: a global atomic per tile, spinning loads of the status words,
//! an L2 hit rate far above every other scan stage's (the profile table,
//! docs/results/H100/profile/ch08-scan_profile_claims.md; the counter does not say which loads hit),
//! and warps stalled at the block's second barrier while warp 0 looks back (the top stall,
//! docs/results/H200/profile/ch08-scan_profile_claims.md).
//! Determinism: not promised for float and double: where a look-back stops depends on which
//! predecessors had published their inclusive prefix by then, so the order of the additions, and
//! the last bits of a prefix, can change from run to run. Integer results are always the same.
//! Source: Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", NVIDIA
//! technical report NVR-2016-002 (2016), sections 4.1-4.4; the scan CUB's DeviceScan uses.
//! The tile status and the look-back are in tile_status.cuh and look_back.cuh (stages 5 to 8 use
//! them too); stage 3's block scan, loads and stores in block_scan.cuh.
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "block_scan.cuh"
#include "cuda_check.hpp"
#include "look_back.cuh"
#include "scan_support.cuh"
#include "tile_status.cuh"

namespace ch08 {

//! Stage 4's kernel: one tile of Block * Items elements per block, in a single pass.
//! @tparam T float, double or int
//! @tparam Block threads per block (equal to blockDim.x), a power of two 32..1024
//! @tparam Items elements per thread
//! @param[in] in n elements
//! @param[out] out n prefixes (must not overlap `in`)
//! @param[in] n number of elements (> 0)
//! @param[in,out] tile_counter zeroed before the launch; each block takes the next tile from it
//! @param[in] status tile status, zeroed (INVALID) before the launch
//! @param[in] inclusive inclusive or exclusive prefixes
//! Launch: exactly ceil(n / (Block * Items)) blocks. Barriers: 3 per block.
template <class T, int Block, int Items>
__global__ void __launch_bounds__(Block)
    scan_single_pass(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                     unsigned* tile_counter, TileStatus<T> status, bool inclusive) {
  __shared__ T warp_sums[Block / 32];
  const unsigned tile = take_tile_index(tile_counter);
  const std::size_t base = static_cast<std::size_t>(tile) * Block * Items;
  T x[Items];
  load_blocked<Block>(in, base, n, x);
  const BlockPrefix<T> p = block_scan_blocked<T, Block>(x, warp_sums);
  const T tile_exclusive = block_look_back(status, tile, p.block_total);
  store_blocked<Block>(out, base, n, x, tile_exclusive + p.thread_exclusive, inclusive);
}

//! Launches stage 4: reset the counter and the flags, then one kernel.
//! @param[in] a scan arguments; the workspace holds look_back_workspace_bytes<T>(tiles) bytes
inline void launch_scan_stage_4(const harness::ScanArgs& a) {
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    constexpr int kItems = kCoarseItems<T>;
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int kBlock = decltype(block)::value;
      const unsigned tiles = grid_for_tiles(a.n, static_cast<std::size_t>(kBlock) * kItems);
      unsigned char* ws = a.scratch<unsigned char>();
      CUDA_CHECK(cudaMemsetAsync(ws, 0, look_back_reset_bytes<T>(tiles), a.stream));
      scan_single_pass<T, kBlock, kItems><<<tiles, kBlock, 0, a.stream>>>(
          a.input<T>(), a.output<T>(), a.n, reinterpret_cast<unsigned*>(ws),
          TileStatus<T>::at(ws + kWorkspaceAlign, tiles), a.inclusive);
    });
  });
}

//! Stage 4: single pass with decoupled look-back.
inline harness::Stage<harness::Scan> scan_stage_4_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "scan_stage_4";
  s.label = "decoupled look-back";
  s.change = "one pass: each tile publishes its total and looks back over its predecessors' status (2n transfers)";
  s.source = "Merrill and Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back, 2016";
  s.deterministic = false;
  s.grid_for = [](const harness::ScanArgs& a) { return static_cast<std::size_t>(grid_for_tiles(a.n, coarse_tile(a))); };
  s.workspace_bytes = [](const harness::ScanArgs& a) {
    const std::size_t tiles = grid_for_tiles(a.n, coarse_tile(a));
    return harness::with_input_type(a.type, [&](auto t) { return look_back_workspace_bytes<decltype(t)>(tiles); });
  };
  s.depth = [](const harness::ScanArgs& a) {
    return look_back_depth(coarse_tile_depth(static_cast<int>(32 / harness::dtype_size(a.type))),
                           grid_for_tiles(a.n, coarse_tile(a)));
  };
  s.launch = launch_scan_stage_4;
  return s;
}

}  // namespace ch08
