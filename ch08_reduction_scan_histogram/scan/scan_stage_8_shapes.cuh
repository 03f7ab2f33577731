//! @file scan_stage_8_shapes.cuh
//! @brief Scan stage 8's other shapes, kept to be timed against its default (`scan_stage_8
//! --pipeline`, the scan page's table): the schedules that led to the default's reduce warp, a
//! bounded look-back, and a ring of smaller tiles. The default -- its warps, its ring, its launch --
//! is in scan_stage_8_bulk_copy_pipeline.cuh; everything here reuses it.
//!
//! Names: `VxS[-near|-near16][-ahead|-early]`, V 16-byte vectors per consumer thread, S stages in the
//! ring, then the schedule. Two things set how long a tile waits for its prefix: how soon every tile's
//! aggregate is out (a look-back waits on an INVALID predecessor) and how soon its inclusive prefix
//! is (a look-back walks on past AGGREGATE ones). The steps:
//!   - plain (`8x3`): the consumers publish the aggregate after scanning and the inclusive prefix
//!     after the look-back warp hands them the prefix. Each tile's inclusive prefix then waits on its
//!     block's consumers, the nearest INCLUSIVE predecessor is about a grid of blocks back, and every
//!     walk reads about a grid / 32 windows of status words, each after the one before (a count from
//!     the schedule; walk lengths were not measured: stage8.md says how).
//!   - `-ahead` (pipeline_consumer_ahead): the consumers reduce tile i + 1 (and publish its aggregate)
//!     before they wait for the prefix of tile i. Aggregates come a tile earlier, and the wait
//!     overlaps a reduction; but an aggregate still waits until its block's consumers get to it,
//!     behind their waits for prefixes.
//!   - `-early` (the default): a reduce warp publishes each aggregate as its tile lands, the look-back
//!     warp the inclusive prefix. A look-back warp that also summed the tile would make the aggregates
//!     wait behind the walks of its previous tiles, and every look-back wait on them: hence a fourth warp.
//!   - `-near` / `-near16` (look_back_near): the look-back warp stops at the block's previous tile at
//!     the latest (it knows that tile's prefix) and reads 4 or 16 windows of 32 predecessors per
//!     round trip. Measured (stage8.md): slower than the same schedule without it, in every
//!     schedule; whether the walks are already short, or what the extra loads cost, was not measured.
//!   - `4x6-early` (the default for float and int; here for every type): 16 KiB tiles at block 256, the same
//!     shared memory as 8x3, with more and smaller copies in flight; `3x8-early` (12 KiB tiles) and
//!     `2x12-early` (8 KiB tiles) go further the same way.
//! Threads: Block + 96 with the reduce warp, Block + 64 without. Every shape but the default is
//! compiled at block 256 only (kPipelineShapeBlock).
#pragma once
#include <string>
#include <vector>

#include "scan_stage_8_bulk_copy_pipeline.cuh"

namespace ch08 {

//! Windows of 32 predecessors the near look-back reads per round trip to L2 (`-near` shapes).
inline constexpr int kNearWindows = 4;

//! Windows of 32 predecessors per round trip of the wide near look-back (`-near16` shapes): 512
//! tiles, more than one round of the resident blocks (two per SM at the default shape) on a GPU of
//! fewer than 256 SMs, so the walk back to the block's previous tile is one round trip to L2.
inline constexpr int kWideWindows = 16;

#if CH08_STAGE8_PTX && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)

//! The near look-back (`-near` shapes), run by the 32 lanes of the look-back warp: the sum of every
//! tile before `tile`, like look_back_exclusive, with two changes. (1) It stops at the block's own
//! previous tile `known_tile` at the latest, whose exclusive prefix `known_exclusive` this warp found
//! itself: that tile counts as INCLUSIVE with known_exclusive + its aggregate, so the walk never
//! goes further back than one round of the grid's blocks, however many tiles are between their
//! aggregates and their inclusive prefixes. (2) Each lane loads the status of Windows predecessors
//! (tile - 1 - lane - 32 k, k = 0 .. Windows - 1) before it waits on any of them, so one round trip
//! to L2 covers 32 * Windows tiles instead of 32; the windows are then added nearest first, each
//! stopping at its nearest INCLUSIVE predecessor as in stage 4.
//! @param[in] status the tile status
//! @param[in] tile this tile's index, > 0
//! @param[in] known_tile the block's previous tile (< tile), or -1 before the block's first tile
//! @param[in] known_exclusive that tile's exclusive prefix (unused when known_tile is -1)
//! @return in every lane: the exclusive prefix of the tile
//! Source: the incremental look-ahead of CCCL's warpspeed scan (NVIDIA/cccl 6811), here as a bound
//! on stage 4's look-back.
template <class T, int Windows>
__device__ __forceinline__ T look_back_near(const TileStatus<T>& status, unsigned tile, long long known_tile,
                                            T known_exclusive) {
  const long long lane = threadIdx.x % 32;
  const long long lowest = known_tile < 0 ? 0 : known_tile;  // no lane reads a tile below it
  T exclusive = T(0);
  long long window = static_cast<long long>(tile) - 1;  // the predecessor lane 0 reads in window 0
  while (true) {
    TileState<T> s[Windows];
#pragma unroll
    for (int k = 0; k < Windows; ++k) {  // every load issued before any wait: one round trip
      const long long pred = window - 32 * k - lane;
      s[k] = pred >= lowest ? status.load(static_cast<std::size_t>(pred)) : TileState<T>{kTileInclusive, T(0)};
    }
#pragma unroll
    for (int k = 0; k < Windows; ++k) {
      const long long pred = window - 32 * k - lane;
      while (s[k].flag == kTileInvalid) s[k] = status.load(static_cast<std::size_t>(pred));
      if (pred == known_tile && s[k].flag == kTileAggregate) {
        s[k].flag = kTileInclusive;  // the block's own previous tile: its inclusive prefix is known here
        s[k].value = known_exclusive + s[k].value;
      }
      const unsigned inclusive_lanes = __ballot_sync(kFullMask, s[k].flag == kTileInclusive);
      const unsigned stop = inclusive_lanes != 0 ? __ffs(inclusive_lanes) - 1 : 31;
      exclusive = warp_sum(lane <= stop ? s[k].value : T(0)) + exclusive;
      if (inclusive_lanes != 0) return exclusive;
    }
    window -= 32 * Windows;
  }
}

//! The look-back warp of the compared schedules: for each tile of the ring, once its data is in,
//! the sum of all tiles before it, handed to the consumers: stage 4's look_back_exclusive, or with
//! Windows > 0 look_back_near from the block's previous tile. With Early it also publishes the
//! tile's inclusive prefix, with the reduce warp's aggregate, as the default's look-back warp does.
template <class T, int Block, int Stages, int Windows, bool Early>
__device__ __forceinline__ void pipeline_look_back_compared(const TileStatus<T>& status,
                                                            PipelineSlots<T, Stages, Block / 32>& slots) {
  const unsigned lane = threadIdx.x % 32;
  long long known_tile = -1;  // the block's previous tile (its tiles come in increasing order)
  T known_exclusive = T(0);   // and its exclusive prefix
  for (unsigned i = 0;; ++i) {
    const unsigned s = i % Stages, parity = (i / Stages) % 2;
    wait_phase(&slots.full[s], parity);
    const unsigned tile = slots.tile[s];
    if (tile == kNoTile) return;
    T exclusive = T(0);
    if (tile != 0) {
      if constexpr (Windows > 0)
        exclusive = look_back_near<T, Windows>(status, tile, known_tile, known_exclusive);
      else
        exclusive = look_back_exclusive<T>(status, tile);
    }
    if constexpr (Early) {
      wait_phase(&slots.aggregate_ready[s], parity);
      if (lane == 0 && tile != 0) status.publish(tile, kTileInclusive, exclusive + slots.aggregate[s]);
    }
    known_tile = tile;
    known_exclusive = exclusive;
    __syncwarp();
    if (lane == 0) {
      slots.prefix[s] = exclusive;
      arrive(&slots.prefix_ready[s]);
      arrive(&slots.empty[s]);
    }
  }
}

//! The consumer warps of the plain schedule (no reduce warp): as the default's pipeline_consumer,
//! and consumer thread 0 publishes the tile's aggregate once the warps' totals are in, and its
//! inclusive prefix once the look-back warp has handed over the prefix.
template <class T, int Block, int Vectors, int Stages>
__device__ __forceinline__ void pipeline_consumer_publishing(T* __restrict__ out, std::size_t n,
                                                             const TileStatus<T>& status, bool inclusive,
                                                             unsigned skip, bool out_aligned, unsigned char* buffers,
                                                             PipelineSlots<T, Stages, Block / 32>& slots) {
  constexpr int kWarps = Block / 32;
  constexpr std::size_t kTile = kPipelineTile<T, Block, Vectors>;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (unsigned i = 0;; ++i) {
    const unsigned s = i % Stages, parity = (i / Stages) % 2;
    wait_phase(&slots.full[s], parity);
    const unsigned tile = slots.tile[s];
    if (tile == kNoTile) return;
    const auto [first, count] = tile_extent<T, Block, Vectors>(n, tile);
    T x[Vectors][kVecItems<T>];
    read_stage<T, Block, Vectors>(stage_elements<T, Block, Vectors>(buffers, s, skip), count, skip, x);
    T base[Vectors];
    const T carry = scan_warp_vectors<T, Vectors>(x, base);
    if (lane == 0) {
      slots.warp_sums[s][warp] = carry;
      arrive(&slots.sums_ready[s]);
    }
    wait_phase(&slots.sums_ready[s], parity);
    T warp_exclusive = T(0), aggregate = T(0);
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const T v = slots.warp_sums[s][w];
      if (w < static_cast<int>(warp)) warp_exclusive = warp_exclusive + v;
      aggregate = aggregate + v;
    }
    if (threadIdx.x == 0) status.publish(tile, tile == 0 ? kTileInclusive : kTileAggregate, aggregate);
    wait_phase(&slots.prefix_ready[s], parity);
    const T prefix = slots.prefix[s];
    if (threadIdx.x == 0 && tile != 0) status.publish(tile, kTileInclusive, prefix + aggregate);
    __syncwarp();
    if (lane == 0) arrive(&slots.empty[s]);  // this warp has read the stage, its sums and prefix
    const T offset = prefix + warp_exclusive;
#pragma unroll
    for (int j = 0; j < Vectors; ++j) base[j] = offset + base[j];
    store_striped<StreamingCache, Vectors>(out, first, n, out_aligned && count == kTile, x, base, inclusive);
  }
}

//! Reduce-ahead, first half (`-ahead` shapes): use i of the ring is reduced -- each consumer
//! thread's elements summed, a warp sum, the warp totals into the slots -- and consumer thread 0
//! publishes the tile's aggregate. Nothing here waits for a prefix.
//! @return the tile index of use i (kNoTile: stop)
template <class T, int Block, int Vectors, int Stages>
__device__ __forceinline__ unsigned pipeline_reduce(std::size_t n, const TileStatus<T>& status, unsigned skip,
                                                    unsigned char* buffers,
                                                    PipelineSlots<T, Stages, Block / 32>& slots, unsigned i) {
  constexpr int kVec = kVecItems<T>;
  constexpr int kWarps = Block / 32;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned s = i % Stages, parity = (i / Stages) % 2;
  wait_phase(&slots.full[s], parity);
  const unsigned tile = slots.tile[s];
  if (tile == kNoTile) return kNoTile;
  const std::size_t count = tile_extent<T, Block, Vectors>(n, tile).count;
  T x[Vectors][kVec];
  read_stage<T, Block, Vectors>(stage_elements<T, Block, Vectors>(buffers, s, skip), count, skip, x);
  T total = T(0);
#pragma unroll
  for (int j = 0; j < Vectors; ++j) {
    T v = x[j][0];
#pragma unroll
    for (int k = 1; k < kVec; ++k) v = v + x[j][k];
    total = total + v;
  }
  total = warp_sum(total);
  if (lane == 0) {
    slots.warp_sums[s][warp] = total;
    arrive(&slots.sums_ready[s]);
  }
  if (threadIdx.x == 0) {  // the other warps go on: they read the totals in pipeline_scan_store
    wait_phase(&slots.sums_ready[s], parity);
    T aggregate = T(0);
#pragma unroll
    for (int w = 0; w < kWarps; ++w) aggregate = aggregate + slots.warp_sums[s][w];
    status.publish(tile, tile == 0 ? kTileInclusive : kTileAggregate, aggregate);
  }
  return tile;
}

//! Reduce-ahead, second half: use i of the ring (already reduced) is read again from its stage and
//! scanned; once the look-back warp has its prefix, consumer thread 0 publishes the inclusive
//! prefix, the warps free the stage and store.
template <class T, int Block, int Vectors, int Stages>
__device__ __forceinline__ void pipeline_scan_store(T* __restrict__ out, std::size_t n, const TileStatus<T>& status,
                                                    bool inclusive, unsigned skip, bool out_aligned,
                                                    unsigned char* buffers,
                                                    PipelineSlots<T, Stages, Block / 32>& slots, unsigned i,
                                                    unsigned tile) {
  constexpr int kVec = kVecItems<T>;
  constexpr int kWarps = Block / 32;
  constexpr std::size_t kTile = kPipelineTile<T, Block, Vectors>;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned s = i % Stages, parity = (i / Stages) % 2;
  const auto [first, count] = tile_extent<T, Block, Vectors>(n, tile);
  T x[Vectors][kVec];
  read_stage<T, Block, Vectors>(stage_elements<T, Block, Vectors>(buffers, s, skip), count, skip, x);
  T base[Vectors];
  [[maybe_unused]] const T carry = scan_warp_vectors<T, Vectors>(x, base);
  // The warp totals of the reduce step (this phase completed then; the stage is still ours, so it
  // cannot have moved on).
  wait_phase(&slots.sums_ready[s], parity);
  T warp_exclusive = T(0), aggregate = T(0);
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const T v = slots.warp_sums[s][w];
    if (w < static_cast<int>(warp)) warp_exclusive = warp_exclusive + v;
    aggregate = aggregate + v;
  }
  wait_phase(&slots.prefix_ready[s], parity);
  const T prefix = slots.prefix[s];
  if (threadIdx.x == 0 && tile != 0) status.publish(tile, kTileInclusive, prefix + aggregate);
  __syncwarp();
  if (lane == 0) arrive(&slots.empty[s]);  // this warp has read the stage, its sums and prefix
  const T offset = prefix + warp_exclusive;
#pragma unroll
  for (int j = 0; j < Vectors; ++j) base[j] = offset + base[j];
  store_striped<StreamingCache, Vectors>(out, first, n, out_aligned && count == kTile, x, base, inclusive);
}

//! The consumer warps with reduce-ahead (`-ahead` shapes): the aggregate of use i + 1 is published
//! before the consumers wait for the prefix of use i, so the look-backs of later tiles (in any
//! block) find it one tile earlier, and the wait for a prefix overlaps a whole tile's reduction.
template <class T, int Block, int Vectors, int Stages>
__device__ __forceinline__ void pipeline_consumer_ahead(T* __restrict__ out, std::size_t n,
                                                        const TileStatus<T>& status, bool inclusive, unsigned skip,
                                                        bool out_aligned, unsigned char* buffers,
                                                        PipelineSlots<T, Stages, Block / 32>& slots) {
  static_assert(Stages >= 2, "reduce-ahead holds two stages at once");
  unsigned tile = pipeline_reduce<T, Block, Vectors, Stages>(n, status, skip, buffers, slots, 0);
  for (unsigned i = 0; tile != kNoTile; ++i) {
    const unsigned next = pipeline_reduce<T, Block, Vectors, Stages>(n, status, skip, buffers, slots, i + 1);
    pipeline_scan_store<T, Block, Vectors, Stages>(out, n, status, inclusive, skip, out_aligned, buffers, slots, i,
                                                   tile);
    tile = next;
  }
}

#endif  // CH08_STAGE8_PTX && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)

//! Threads of a compared schedule's block besides the Block consumers: the producer and look-back
//! warps, and with Early the reduce warp.
template <bool Early>
inline constexpr int kComparedRoleThreads = Early ? kPipelineRoleThreads : kPipelineRoleThreads - 32;

#if CH08_STAGE8_PTX
//! The kernel of the compared schedules: scan_bulk_pipeline's ring and producer, with the look-back
//! warp, the consumers and the reduce warp of the schedule (blockDim.x = Block +
//! kComparedRoleThreads<Early>; launch as scan_bulk_pipeline).
//! @tparam Windows 0: stage 4's look-back; > 0: look_back_near with that many windows per round trip
//! @tparam Ahead the consumers reduce the next tile before waiting for this one's prefix
//! @tparam Early a reduce warp publishes each tile's aggregate as it lands, the look-back warp the
//!         inclusive prefix (not with Ahead)
template <class T, int Block, int Vectors, int Stages, int Windows, bool Ahead, bool Early>
__global__ void __launch_bounds__(Block + kComparedRoleThreads<Early>, kPipelineMinBlocksPerSm<Block>)
    scan_bulk_pipeline_compared(const T* __restrict__ in, T* __restrict__ out, std::size_t n, unsigned tiles,
                                unsigned* tile_counter, TileStatus<T> status, bool inclusive) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // never launched: the stage refuses GPUs below sm_90 (min_cc) and builds without sm_90 code
#else
  static_assert(Block % 32 == 0 && Stages >= 2, "whole consumer warps, at least two stages");
  static_assert(!(Ahead && Early), "-early consumers do not reduce: it is one schedule or the other");
  constexpr int kWarps = Block / 32;
  extern __shared__ __align__(128) unsigned char buffers[];
  __shared__ PipelineSlots<T, Stages, kWarps> slots;
  if (threadIdx.x == 0) init_ring(slots, kWarps + (Early ? 2 : 1));
  __syncthreads();

  const unsigned skip = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) % 16 / sizeof(T));
  const unsigned warp = threadIdx.x / 32;
  if (warp == kWarps) {
    pipeline_producer<T, Block, Vectors, Stages>(in, n, tiles, tile_counter, skip, buffers, slots);
  } else if (warp == kWarps + 1) {
    pipeline_look_back_compared<T, Block, Stages, Windows, Early>(status, slots);
  } else if (warp == kWarps + 2) {
    if constexpr (Early) pipeline_reduce_warp<T, Block, Vectors, Stages>(n, status, skip, buffers, slots);
  } else {
    const bool out_aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    if constexpr (Ahead)
      pipeline_consumer_ahead<T, Block, Vectors, Stages>(out, n, status, inclusive, skip, out_aligned, buffers, slots);
    else if constexpr (Early)
      pipeline_consumer<T, Block, Vectors, Stages>(out, n, inclusive, skip, out_aligned, buffers, slots);
    else
      pipeline_consumer_publishing<T, Block, Vectors, Stages>(out, n, status, inclusive, skip, out_aligned, buffers,
                                                              slots);
  }
#endif
}
#endif  // CH08_STAGE8_PTX

//! A compared schedule as stage 8's launch sees it (EarlySchedule is the default's).
template <int Windows, bool Ahead, bool Early>
struct ComparedSchedule {
  static constexpr int kRoleThreads = kComparedRoleThreads<Early>;  //!< threads of the roles besides the consumers
  static constexpr bool kReduceWarp = Early;                        //!< a reduce warp sums each tile (the -early schedules)
#if CH08_STAGE8_PTX
  template <class T, int Block, int Vectors, int Stages>
  static constexpr auto kernel() { return scan_bulk_pipeline_compared<T, Block, Vectors, Stages, Windows, Ahead, Early>; }
#endif
};

//! Names of stage 8's shapes for `scan_stage_8 --pipeline`, the first the default (this file's
//! description says what each name means; "default" is kStage8Shape's row for the type: 4x6-early
//! for float and int, 8x3-early for double).
inline std::vector<std::string> scan_stage_8_shape_names() {
  return {"default", "8x3-early", "8x3", "8x3-near", "8x3-ahead", "8x3-near-ahead", "8x3-near-early",
          "8x3-near16-early", "4x6-early", "4x6-near16-early", "3x8-early", "2x12-early"};
}

//! Stage 8 at each shape of scan_stage_8_shape_names(), in that order (for measuring the ring's
//! depth, the tile size and the schedule; only the default is in the ladder).
inline std::vector<harness::Stage<harness::Scan>> scan_stage_8_shapes() {
  std::vector<harness::Stage<harness::Scan>> v{scan_stage_8_stage(),
                                               pipeline_stage<EarlySchedule, FixedShape<8, 3>>(),
                                               pipeline_stage<ComparedSchedule<0, false, false>, FixedShape<8, 3>>(),
                                               pipeline_stage<ComparedSchedule<kNearWindows, false, false>, FixedShape<8, 3>>(),
                                               pipeline_stage<ComparedSchedule<0, true, false>, FixedShape<8, 3>>(),
                                               pipeline_stage<ComparedSchedule<kNearWindows, true, false>, FixedShape<8, 3>>(),
                                               pipeline_stage<ComparedSchedule<kNearWindows, false, true>, FixedShape<8, 3>>(),
                                               pipeline_stage<ComparedSchedule<kWideWindows, false, true>, FixedShape<8, 3>>(),
                                               pipeline_stage<EarlySchedule, FixedShape<4, 6>>(),
                                               pipeline_stage<ComparedSchedule<kWideWindows, false, true>, FixedShape<4, 6>>(),
                                               pipeline_stage<EarlySchedule, FixedShape<3, 8>>(),
                                               pipeline_stage<EarlySchedule, FixedShape<2, 12>>()};
  const std::vector<std::string> names = scan_stage_8_shape_names();
  for (std::size_t i = 1; i < v.size(); ++i) v[i].label = "bulk-copy pipeline, " + names[i];
  return v;
}

}  // namespace ch08
