//! @file scan_stage_5_vectorized.cuh
//! @brief Scan stage 5: stage 4's single pass with 16-byte vector loads and stores, arranged so that
//! every warp instruction moves 512 contiguous bytes.
//!
//! Changed against stage 4: one idea, how a tile sits in the threads. Stage 4 gives each thread 32
//! consecutive bytes and reads them with scalar loads: every warp load touches 32 sectors spread
//! over 1 KiB and uses 4 bytes of each, and the next 7 loads touch the same sectors again (the same
//! on the way out); whether L1 serves the repeats is not measured (scan_stage_3_warp_shuffle.cuh
//! names the counter). Here the tile is *warp-striped in 16-byte vectors*:
//! warp w owns a
//! contiguous segment of 32 * Vectors vectors; vector j of lane l is the segment's vector
//! j * 32 + l. Each of a thread's Vectors loads is one 16-byte access (float4, int4, double2), and
//! a warp's load j covers 512 contiguous bytes: four full 128-byte lines, every byte used. The scan
//! follows the layout: a thread adds its vector's 16 / sizeof(T) elements, the warp scans the 32
//! vector sums with shuffles (one scan per j, the Vectors scans interleaved), a running carry
//! chains j = 0, 1, ...; then stage 3's combine_warps and stage 4's decoupled look-back; each
//! thread writes its vectors back with 16-byte stores.
//! Scalar path: when `in` or `out` is not 16-byte aligned (both must be for vector accesses), or in
//! the last, partial tile, the same layout is loaded and stored element by element, with the
//! identity 0 past n and nothing written past n.
//! Tile: Block * Vectors * 16 bytes; with the default 4 vectors (64 bytes per thread), 4096 floats
//! or 2048 doubles at Block = 256.
//! What the profiler shows against stage 4 (ch08-scan_profile_claims.md, in docs/results/H100/profile
//! and docs/results/H200/profile): global load instructions fall (floats: one 16-byte access instead
//! of four 4-byte ones; the count includes the status loads), and DRAM throughput rises towards the
//! copy's at 2^26 (each table says by how much on its GPU). Not in those tables, so not
//! measured: store instructions, sectors per request (by the layout, 32 -> 16, the ideal for 512
//! bytes) and L1 wavefronts per request; the L1TEX table of `ncu --section
//! MemoryWorkloadAnalysis_Tables` on both stages (scripts/profile_stage.sh collects it) shows them.
//! Determinism: as stage 4 (not promised for float and double; ints always the same).
//! Source: Merrill and Garland 2016 (decoupled look-back); CUDA C++ Best Practices Guide,
//! "Coalesced Access to Global Memory" and vectorised accesses.
//! The layout, its loads and stores and the block scan of a tile in it (striped_block_scan) are in
//! striped_vectors.cuh (stages 6 to 9 use them too); combine_warps in block_scan.cuh; TileStatus,
//! take_tile_index and block_look_back in tile_status.cuh and look_back.cuh.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "block_scan.cuh"
#include "cuda_check.hpp"
#include "look_back.cuh"
#include "scan_support.cuh"
#include "striped_vectors.cuh"
#include "tile_status.cuh"

namespace ch08 {

//! Single-pass scan over warp-striped 16-byte vectors.
//! @tparam T float, double or int
//! @tparam Block threads per block (equal to blockDim.x), a power of two 32..1024
//! @tparam Vectors 16-byte vectors per thread
//! @tparam Aligned `in` and `out` are 16-byte aligned (the vector path is allowed)
//! @tparam Cache DefaultCache (this stage) or a streaming policy (a later stage)
//! @tparam Spin how the look-back waits: SpinWait (stages 5-7) or SpinBackoff (a stage-7 knob)
//! @tparam MinBlocks the second argument of __launch_bounds__: 0 (the stages' default) sets no
//!         minimum; k > 0 asks that k blocks fit on one SM at once, which caps the registers per
//!         thread at about 65536 / (k * Block) (a stage-7 knob: fewer registers for more occupancy);
//!         capped at what one SM of the target architecture holds (harness::launch_min_blocks)
//! @param[in] in n elements
//! @param[out] out n prefixes (must not overlap `in`)
//! @param[in] n number of elements (> 0)
//! @param[in,out] tile_counter zeroed before the launch
//! @param[in] status tile status, zeroed (INVALID) before the launch
//! @param[in] inclusive inclusive or exclusive prefixes
//! Launch: exactly ceil(n / (Block * Vectors * 16 / sizeof(T))) blocks. Barriers: 3 per block.
template <class T, int Block, int Vectors, bool Aligned, class Cache, class Spin = SpinWait, int MinBlocks = 0>
__global__ void __launch_bounds__(Block, harness::launch_min_blocks(Block, MinBlocks))
    scan_single_pass_vec(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                         unsigned* tile_counter, TileStatus<T> status, bool inclusive) {
  constexpr int kVec = kVecItems<T>;
  constexpr std::size_t kTile = static_cast<std::size_t>(Block) * Vectors * kVec;
  __shared__ T warp_sums[Block / 32];
  const unsigned tile = take_tile_index(tile_counter);
  const std::size_t tile_base = static_cast<std::size_t>(tile) * kTile;
  const bool vector_ok = Aligned && tile_base + kTile <= n;

  T x[Vectors][kVec];
  load_striped<Cache, Vectors>(in, tile_base, n, vector_ok, x);

  T base[Vectors];
  const WarpOffsets<T> w = striped_block_scan<T, Block, Vectors>(x, base, warp_sums);

  const T offset = block_look_back<T, TileStatus<T>, Spin>(status, tile, w.block_total) + w.warp_exclusive;
#pragma unroll
  for (int j = 0; j < Vectors; ++j) base[j] = offset + base[j];
  store_striped<Cache, Vectors>(out, tile_base, n, vector_ok, x, base, inclusive);
}

//! 16-byte vectors per thread of stage 5: 4 (64 bytes per thread).
inline constexpr int kStage5Vectors = 4;

//! Largest block a vectorised stage supports: 512 from 8 vectors per thread on (at 1024 threads the
//! register file leaves 64 registers per thread: the 8-vector kernel fits them exactly for float and
//! spills for double; test cpu.sass_claims_ch08_scan, sm_90), 1024 below.
constexpr int max_block_for_vectors(int vectors) { return vectors >= 8 ? 512 : 1024; }

//! The one block size of the stage-7 knobs (scan_stage_7 --tuning other than default): 256, the
//! ladder's, at which they were measured; compiled at that size only, to keep the chapter's compile
//! time down (the default stage 7 keeps every block size).
inline constexpr int kKnobBlock = 256;

//! Launches a vectorised single-pass scan: reset the counter and flags, then one kernel, with the
//! vector path if both pointers are 16-byte aligned and the scalar path otherwise.
//! @tparam Vectors 16-byte vectors per thread
//! @tparam Cache load/store policy
//! @tparam Spin look-back wait (SpinWait or SpinBackoff)
//! @tparam MinThreadsPerSm 0 (no occupancy hint, the stages' default), or the threads that must fit
//!         on one SM at once: __launch_bounds__(Block, MinThreadsPerSm / Block) caps the registers
template <int Vectors, class Cache, class Spin = SpinWait, int MinThreadsPerSm = 0>
void launch_single_pass_vec(const harness::ScanArgs& a) {
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(a.block, [&](auto block) {
      // Block sizes above the stage's largest are refused here, and never instantiated; so is every
      // block but kKnobBlock for the stage-7 knobs, to keep their compile time down.
      constexpr bool kKnob = MinThreadsPerSm != 0 || !std::is_same_v<Spin, SpinWait>;
      constexpr int kBlock = std::clamp(decltype(block)::value, kKnob ? kKnobBlock : 32,
                                        kKnob ? kKnobBlock : max_block_for_vectors(Vectors));
      if (a.block != kBlock)
        throw harness::UsageError("block size " + std::to_string(a.block) + " is outside this stage's range (nearest: " +
                                  std::to_string(kBlock) + ")");
      const unsigned tiles = grid_for_tiles(a.n, static_cast<std::size_t>(kBlock) * Vectors * kVecItems<T>);
      unsigned char* ws = a.scratch<unsigned char>();
      CUDA_CHECK(cudaMemsetAsync(ws, 0, look_back_reset_bytes<T>(tiles), a.stream));
      auto* counter = reinterpret_cast<unsigned*>(ws);
      const TileStatus<T> status = TileStatus<T>::at(ws + kWorkspaceAlign, tiles);
      // 0: no minimum (the stages' default); the knobs: MinThreadsPerSm / Block blocks, at most 32 (an SM's limit).
      constexpr int kMinBlocks = MinThreadsPerSm == 0 ? 0 : std::clamp(MinThreadsPerSm / kBlock, 1, 32);
      if (aligned16(a.in) && aligned16(a.out))
        scan_single_pass_vec<T, kBlock, Vectors, true, Cache, Spin, kMinBlocks><<<tiles, kBlock, 0, a.stream>>>(
            a.input<T>(), a.output<T>(), a.n, counter, status, a.inclusive);
      else
        scan_single_pass_vec<T, kBlock, Vectors, false, Cache, Spin, kMinBlocks><<<tiles, kBlock, 0, a.stream>>>(
            a.input<T>(), a.output<T>(), a.n, counter, status, a.inclusive);
    });
  });
}

//! A vectorised single-pass stage's description (stages 5 and later fill name, label, change, source).
//! @tparam Vectors 16-byte vectors per thread
//! @tparam Cache load/store policy
//! @tparam Spin, MinThreadsPerSm as launch_single_pass_vec
template <int Vectors, class Cache, class Spin = SpinWait, int MinThreadsPerSm = 0>
harness::Stage<harness::Scan> single_pass_vec_stage() {
  harness::Stage<harness::Scan> s;
  s.deterministic = false;
  s.max_block = max_block_for_vectors(Vectors);
  s.grid_for = [](const harness::ScanArgs& a) { return static_cast<std::size_t>(grid_for_tiles(a.n, vector_tile(a, Vectors))); };
  s.workspace_bytes = [](const harness::ScanArgs& a) {
    const std::size_t tiles = grid_for_tiles(a.n, vector_tile(a, Vectors));
    return harness::with_input_type(a.type, [&](auto t) { return look_back_workspace_bytes<decltype(t)>(tiles); });
  };
  s.depth = [](const harness::ScanArgs& a) {
    return look_back_depth(vector_tile_depth(a, Vectors), grid_for_tiles(a.n, vector_tile(a, Vectors)));
  };
  s.launch = launch_single_pass_vec<Vectors, Cache, Spin, MinThreadsPerSm>;
  return s;
}

//! Launches stage 5.
inline void launch_scan_stage_5(const harness::ScanArgs& a) {
  launch_single_pass_vec<kStage5Vectors, DefaultCache>(a);
}

//! Stage 5: decoupled look-back over warp-striped 16-byte vectors.
inline harness::Stage<harness::Scan> scan_stage_5_stage() {
  harness::Stage<harness::Scan> s = single_pass_vec_stage<kStage5Vectors, DefaultCache>();
  s.name = "scan_stage_5";
  s.label = "16-byte vectors";
  s.change = "warp-striped 16-byte loads and stores: every warp access covers 512 contiguous bytes";
  s.source = "Merrill and Garland 2016; CUDA C++ Best Practices Guide (coalescing, vector accesses)";
  s.launch = launch_scan_stage_5;
  return s;
}

}  // namespace ch08
