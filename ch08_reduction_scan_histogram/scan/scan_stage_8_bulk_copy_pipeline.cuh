//! @file scan_stage_8_bulk_copy_pipeline.cuh
//! @brief Scan stage 8 (sm_90 and newer): a warp-specialised single pass. A producer warp brings the
//! next tiles into a ring of shared-memory stages with 1-D bulk asynchronous copies (the copy
//! engine, TMA), a reduce warp publishes each tile's aggregate as soon as the tile lands, a
//! look-back warp finds each tile's prefix while the consumer warps scan it, and persistent blocks
//! take tile after tile from a counter.
//!
//! Changed against stage 7: who waits for what. In stage 7 every warp of a block does everything in
//! order -- load its vectors, scan, wait at a barrier while warp 0 looks back, store -- and one tile
//! per block: while the look-back runs no load of that block is in flight, and the profiler shows
//! half of every warp's stalls at that barrier. Here the block's warps have roles (the default
//! schedule, `-early`):
//!   - the **producer warp** takes a tile index from the counter (atomicAdd), copies the tile from
//!     global into a free stage of the ring with one cp.async.bulk (the copy engine moves the bytes;
//!     no thread waits for them) and goes on to the next free stage, up to Stages tiles ahead;
//!   - the **reduce warp** waits until a stage is full, sums the tile from shared memory and
//!     publishes the sum as the tile's aggregate (flag AGGREGATE): it waits for nothing else, so
//!     every tile's aggregate is out a few hundred cycles after its data lands;
//!   - the **look-back warp** runs stage 4's look-back (look_back_exclusive) for the same tile as
//!     soon as the tile's data has landed, then publishes the tile's inclusive prefix itself
//!     (exclusive + the reduce warp's aggregate) and hands the exclusive prefix to the consumers;
//!   - the **consumer warps** (the block size, `--block`) read the stage (warp-striped 16-byte
//!     vectors, as stage 5), scan it in registers, take the tile's prefix from the look-back warp
//!     and store the prefixes with streaming stores (stage 7).
//! So the loads of the next Stages - 1 tiles are in flight while a tile is scanned and looked back,
//! and the look-back overlaps the scan instead of following it.
//!
//! Why a warp only for the aggregates. A look-back waits while a predecessor's status is INVALID,
//! and walks further back while it is AGGREGATE. Every block holds tiles between "taken" and
//! "inclusive prefix published", so the sooner every tile's aggregate is out, the less any
//! look-back waits; and the sooner the inclusive prefix is out, the shorter the walks. The
//! schedules that `--pipeline` keeps for comparison are the steps to this one:
//!   - plain (`8x3`): the consumers publish the aggregate after scanning and the inclusive prefix
//!     after the look-back warp hands them the prefix. Each tile's inclusive prefix then waits on its
//!     block's consumers, the nearest INCLUSIVE predecessor is about a grid of blocks back, and every
//!     walk costs many dependent round trips to L2: slower than stage 7.
//!   - `-ahead` (pipeline_consumer_ahead): the consumers reduce tile i + 1 (and publish its aggregate)
//!     before they wait for the prefix of tile i. Aggregates come a tile earlier, and the wait
//!     overlaps a reduction. But an aggregate still waits until its block's consumers get to it,
//!     behind their waits for prefixes.
//!   - a look-back warp that also summed the tile would make the aggregates wait behind the walks
//!     of that warp's previous tiles, and every look-back wait on them. Hence a fourth warp.
//!   - `-near` / `-near16` (look_back_near): the look-back warp stops at the block's previous tile at
//!     the latest (it knows that tile's prefix) and reads 4 or 16 windows of 32 predecessors per
//!     round trip. With the reduce warp the walks are already short, and the extra loads cost more
//!     than they save (the scan README's table).
//!
//! What waits on what: five mbarriers per stage s of the ring (a phase per use of the stage).
//!   full[s]          count 32 + bytes: every producer lane arrives (lane 0 with the byte count the
//!                    copy will deliver, mbarrier.arrive.expect_tx) and the copy engine completes the
//!                    transaction; the consumers, the look-back and the reduce warp wait on it
//!   sums_ready[s]    count Block / 32: each consumer warp's lane 0 arrives after writing its warp
//!                    total; consumers wait on it to add the warps' totals
//!   aggregate_ready[s]  count 1 (-early): the reduce warp arrives after writing the tile's sum; the
//!                    look-back warp waits on it before it publishes the inclusive prefix
//!   prefix_ready[s]  count 1: the look-back warp arrives after writing the tile's exclusive prefix
//!   empty[s]         count Block / 32 + 1 (+ 1 with -early): each consumer warp, the look-back warp
//!                    (and the reduce warp) arrive when done with the stage; the producer waits on it
//!                    before refilling the stage
//! A wait names the phase by its parity: use i of the ring (i = 0, 1, ...) is stage i % Stages,
//! phase parity (i / Stages) % 2; the producer waits on empty[s] with the opposite parity, which a
//! fresh barrier passes at once (its "previous phase" is complete).
//! No aggregate depends on another tile, so no look-back can wait on a chain of look-backs.
//!
//! Alignment: cp.async.bulk needs 16-byte aligned global and shared addresses and a size that is a
//! multiple of 16 bytes. Element e of a tile is kept at byte (skip + e) * sizeof(T) of its stage,
//! skip = (address of `in` mod 16) / sizeof(T), so that the tile's 16-byte aligned middle is copied
//! in bulk to a 16-byte aligned place; the fewer than 16 / sizeof(T) elements before it (the head)
//! and after it (the tail) are loaded by producer lanes with plain loads. The consumers and the
//! reduce warp read the stage with 16-byte loads when skip = 0 and the tile is whole, element by
//! element otherwise; the consumers store with 16-byte stores when `out` is 16-byte aligned and the
//! tile whole.
//!
//! Shapes (`--pipeline VxS[-near|-near16][-ahead|-early]`): V 16-byte vectors per consumer thread, S
//! stages in the ring. Tile: Block * V * 16 bytes (8,192 floats or 4,096 doubles at Block 256, V 8,
//! as stage 7); shared memory S * (tile + 128) bytes (96 KiB, 98,688 B, at 8x3, block 256: two blocks fit an
//! SM of 227 KiB); threads Block + 64, Block + 96 with the reduce warp. `4x6-early` (16 KiB tiles, six
//! stages) keeps the same shared memory with more, smaller copies in flight.
//! What the profiler shows against stage 7: stalls at barriers replaced by waits on mbarriers in
//! the consumer warps; DRAM throughput closer to the copy's; fewer blocks (one grid of resident
//! blocks); occupancy limited by registers and shared memory alike (two blocks an SM).
//! Determinism: as stage 4 (not promised for float and double; ints always the same).
//! Requires compute capability 9.0 (bulk asynchronous copies and mbarrier transaction counts):
//! below, the stage refuses before any launch (min_cc = 90, exit 2, "cannot run on this GPU") and
//! names scan_stage_7 instead; the ladders skip it there with one line. In a build that also holds
//! code for older GPUs, their copy of the kernel is a trap (never launched).
//! Requires CUDA 12.9 or newer (CH08_STAGE8_PTX): scan_stage_8_toolkit.cuh says why, and what a
//! build without the kernel does.
//! Source: NVIDIA PTX ISA, cp.async.bulk and mbarrier; CUDA C++ Programming Guide, "Asynchronous Data
//! Copies using the Tensor Memory Accelerator"; the warp-specialised scan with its own warps for
//! loads, reductions and look-ahead: CCCL (NVIDIA/cccl pull requests 6644, 6811: warpspeed scan).
//! Reuses TileStatus, look_back_exclusive (stage 4), the warp-striped layout, load and store
//! (stage 5) and StreamingCache (stage 7).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "block_scan.cuh"
#include "cuda_check.hpp"
#include "errors.hpp"
#include "look_back.cuh"
#include "scan_stage_8_toolkit.cuh"
#include "scan_support.cuh"
#include "striped_vectors.cuh"
#include "tile_status.cuh"

namespace ch08 {

//! The tile index a producer hands over when the counter has passed the last tile: stop.
inline constexpr unsigned kNoTile = 0xFFFFFFFFu;

//! Bytes of one stage of the ring: a tile of `block` * `vectors` 16-byte vectors, plus 16 for a
//! misaligned head, rounded up to 128. Preconditions: block and vectors positive.
__host__ __device__ constexpr unsigned pipeline_stage_bytes(int block, int vectors) {
  return (static_cast<unsigned>(block) * static_cast<unsigned>(vectors) * 16 + 16 + 127) / 128 * 128;
}

//! pipeline_stage_bytes(Block, Vectors) as a compile-time constant, for the kernel's pointer arithmetic.
template <int Block, int Vectors>
__host__ __device__ constexpr unsigned pipeline_stage_bytes() {
  return pipeline_stage_bytes(Block, Vectors);
}

//! The ring's bookkeeping, in static shared memory: per stage its five mbarriers, the tile index,
//! the tile's exclusive prefix and aggregate, and the consumer warps' totals.
template <class T, int Stages, int ConsumerWarps>
struct PipelineSlots {
  std::uint64_t full[Stages];          //!< producer -> consumers, look-back warp: index and data are in
  std::uint64_t sums_ready[Stages];    //!< consumer warps -> consumer warps: every warp total written
  std::uint64_t prefix_ready[Stages];  //!< look-back warp -> consumers: the prefix is written
  std::uint64_t empty[Stages];         //!< consumers, look-back (and reduce) warp -> producer: the stage is free
  std::uint64_t aggregate_ready[Stages];  //!< reduce warp -> look-back warp: the aggregate is written (-early)
  unsigned tile[Stages];               //!< tile index of the stage's current use (kNoTile: stop)
  T prefix[Stages];                    //!< the tile's exclusive prefix
  T aggregate[Stages];                 //!< the tile's sum, from the reduce warp (-early)
  T warp_sums[Stages][ConsumerWarps];  //!< each consumer warp's total of the tile
};

#if CH08_STAGE8_PTX && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)

//! Waits until the phase of `bar` with parity `parity` has completed (acquire: what was written
//! before the arrivals that completed it is visible after).
__device__ __forceinline__ void wait_phase(std::uint64_t* bar, unsigned parity) {
  while (!cuda::ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

//! One arrival on `bar` (release: this thread's earlier writes are visible to whoever waits).
__device__ __forceinline__ void arrive(std::uint64_t* bar) {
  [[maybe_unused]] const std::uint64_t state = cuda::ptx::mbarrier_arrive(bar);
}

//! Elements in a whole tile of stage 8: Block consumer threads x Vectors 16-byte vectors of T.
template <class T, int Block, int Vectors>
inline constexpr std::size_t kPipelineTile = static_cast<std::size_t>(Block) * Vectors * kVecItems<T>;

//! Where a tile lies in the input: its first element and how many elements it has (Block * Vectors
//! 16-byte vectors, fewer for the last tile).
struct TileExtent {
  std::size_t first;  //!< index of the tile's first element
  std::size_t count;  //!< elements in the tile, 1 .. Block * Vectors * 16 / sizeof(T)
};

//! The extent of `tile` in an input of n elements (tile * tile size < n).
template <class T, int Block, int Vectors>
__device__ __forceinline__ TileExtent tile_extent(std::size_t n, unsigned tile) {
  constexpr std::size_t kTile = kPipelineTile<T, Block, Vectors>;
  const std::size_t first = static_cast<std::size_t>(tile) * kTile;
  return {first, n - first < kTile ? n - first : kTile};
}

//! The producer warp: for each free stage, a tile index from the counter and the tile into the
//! stage (head and tail with plain loads by lanes, the aligned middle with one bulk copy by lane 0).
//! After the last tile it hands over kNoTile and returns.
template <class T, int Block, int Vectors, int Stages>
__device__ __forceinline__ void pipeline_producer(const T* __restrict__ in, std::size_t n, unsigned tiles,
                                                  unsigned* tile_counter, unsigned skip,
                                                  unsigned char* buffers,
                                                  PipelineSlots<T, Stages, Block / 32>& slots) {
  constexpr int kVec = kVecItems<T>;
  const unsigned lane = threadIdx.x % 32;
  for (unsigned i = 0;; ++i) {
    const unsigned s = i % Stages, parity = (i / Stages) % 2;
    wait_phase(&slots.empty[s], parity ^ 1);  // the stage's previous use is over
    unsigned tile = 0;
    if (lane == 0) tile = atomicAdd(tile_counter, 1u);
    tile = __shfl_sync(kFullMask, tile, 0);
    if (tile >= tiles) {
      if (lane == 0) slots.tile[s] = kNoTile;
      arrive(&slots.full[s]);  // every lane: the phase completes with no bytes
      return;
    }
    const auto [first, count] = tile_extent<T, Block, Vectors>(n, tile);
    // Elements before the first 16-byte boundary (head), whole vectors (body), the rest (tail).
    const std::size_t to_boundary = (kVec - skip) % kVec;
    const std::size_t head = count < to_boundary ? count : to_boundary;
    const std::size_t body = (count - head) / kVec * kVec;
    const std::size_t tail = head + body;
    T* stage = reinterpret_cast<T*>(buffers + static_cast<std::size_t>(s) * pipeline_stage_bytes<Block, Vectors>()) + skip;
    if (lane < head) stage[lane] = in[first + lane];
    if (lane < count - tail) stage[tail + lane] = in[first + tail + lane];
    if (lane == 0) {
      slots.tile[s] = tile;
      const auto bytes = static_cast<std::uint32_t>(body * sizeof(T));
      [[maybe_unused]] const std::uint64_t state = cuda::ptx::mbarrier_arrive_expect_tx(
          cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &slots.full[s], bytes);
      if (bytes > 0)
        cuda::ptx::cp_async_bulk(cuda::ptx::space_shared, cuda::ptx::space_global, stage + head, in + first + head,
                                 bytes, &slots.full[s]);
    } else {
      arrive(&slots.full[s]);  // after this lane's head or tail element is in the stage
    }
  }
}

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

//! The reduce warp's sum of the tile in a stage (`-early` shapes): its 32 lanes read the stage with
//! 16-byte loads (element by element when the stage is misaligned or the tile short) and add, each
//! lane into four independent partial sums per vector element, so that the additions do not wait
//! on one another.
//! @return in every lane: the sum of the tile's `count` elements
template <class T, int Block, int Vectors>
__device__ __forceinline__ T sum_stage(const T* stage, std::size_t count, unsigned skip) {
  using V = typename Vec16<T>::type;
  constexpr int kVec = kVecItems<T>;
  constexpr int kPerLane = Block * Vectors / 32;  // 16-byte vectors each lane adds
  constexpr int kChains = 4;                      // independent partial sums per vector element
  static_assert(kPerLane % kChains == 0, "whole rounds of the partial sums");
  constexpr std::size_t kTile = kPipelineTile<T, Block, Vectors>;
  const unsigned lane = threadIdx.x % 32;
  T part = T(0);
  if (skip == 0 && count == kTile) {
    T acc[kChains][kVec];
#pragma unroll
    for (int c = 0; c < kChains; ++c)
#pragma unroll
      for (int k = 0; k < kVec; ++k) acc[c][k] = T(0);
#pragma unroll 2
    for (int j = 0; j < kPerLane; j += kChains) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) {
        const V v = *reinterpret_cast<const V*>(stage + (static_cast<std::size_t>(j + c) * 32 + lane) * kVec);
        T x[kVec];
        std::memcpy(x, &v, sizeof v);
#pragma unroll
        for (int k = 0; k < kVec; ++k) acc[c][k] = acc[c][k] + x[k];
      }
    }
#pragma unroll
    for (int c = 0; c < kChains; ++c)
#pragma unroll
      for (int k = 0; k < kVec; ++k) part = part + acc[c][k];
  } else {
    for (std::size_t e = lane; e < count; e += 32) part = part + stage[e];
  }
  return warp_sum(part);
}

//! The reduce warp (`-early` shapes): for each tile of the ring, as soon as its data has landed, its
//! sum (sum_stage), published as the tile's aggregate (tile 0: its inclusive prefix) and handed to
//! the look-back warp. It waits for nothing but the data, so every tile's aggregate is out a few
//! hundred cycles after the tile lands, whatever the look-backs and the consumers are doing.
template <class T, int Block, int Vectors, int Stages>
__device__ __forceinline__ void pipeline_reduce_warp(std::size_t n, const TileStatus<T>& status, unsigned skip,
                                                     const unsigned char* buffers,
                                                     PipelineSlots<T, Stages, Block / 32>& slots) {
  const unsigned lane = threadIdx.x % 32;
  for (unsigned i = 0;; ++i) {
    const unsigned s = i % Stages, parity = (i / Stages) % 2;
    wait_phase(&slots.full[s], parity);
    const unsigned tile = slots.tile[s];
    if (tile == kNoTile) return;
    const std::size_t count = tile_extent<T, Block, Vectors>(n, tile).count;
    const T aggregate = sum_stage<T, Block, Vectors>(
        reinterpret_cast<const T*>(buffers + static_cast<std::size_t>(s) * pipeline_stage_bytes<Block, Vectors>()) + skip,
        count, skip);
    __syncwarp();
    if (lane == 0) {
      status.publish(tile, tile == 0 ? kTileInclusive : kTileAggregate, aggregate);
      slots.aggregate[s] = aggregate;
      arrive(&slots.aggregate_ready[s]);
      arrive(&slots.empty[s]);
    }
  }
}

//! The look-back warp: for each tile of the ring, once its data is in (its index is then known too),
//! the sum of all tiles before it, handed to the consumers: stage 4's look_back_exclusive, or with
//! Windows > 0 look_back_near from the block's previous tile. With Early it also publishes the
//! tile's inclusive prefix, with the aggregate the reduce warp found, without waiting for the
//! consumers.
template <class T, int Block, int Stages, int Windows, bool Early>
__device__ __forceinline__ void pipeline_look_back(const TileStatus<T>& status,
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

//! A consumer thread's Vectors 16-byte vectors of the tile in a stage (warp-striped, stage 5's layout
//! with tile base 0): 16-byte shared loads when the stage is aligned (skip = 0) and the tile whole,
//! element by element with the identity 0 past `count` otherwise.
template <class T, int Block, int Vectors>
__device__ __forceinline__ void read_stage(const T* stage, std::size_t count, unsigned skip,
                                           T (&x)[Vectors][kVecItems<T>]) {
  using V = typename Vec16<T>::type;
  constexpr int kVec = kVecItems<T>;
  constexpr std::size_t kTile = kPipelineTile<T, Block, Vectors>;
  if (skip == 0 && count == kTile) {
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const V v = *reinterpret_cast<const V*>(stage + striped_first<T, Vectors>(0, j));
      std::memcpy(x[j], &v, sizeof v);
    }
  } else {
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const std::size_t e = striped_first<T, Vectors>(0, j);
#pragma unroll
      for (int k = 0; k < kVec; ++k) x[j][k] = e + k < count ? stage[e + k] : T(0);
    }
  }
}

//! Stage 5's scan of a warp's vectors in registers: vector sums, one warp scan per vector index, a
//! carry over the vectors. base[j]: the sum of the warp's elements before vector j of this lane.
//! @return the warp's total (every lane)
template <class T, int Vectors>
__device__ __forceinline__ T scan_warp_vectors(const T (&x)[Vectors][kVecItems<T>], T (&base)[Vectors]) {
  const unsigned lane = threadIdx.x % 32;
  T scan[Vectors];
#pragma unroll
  for (int j = 0; j < Vectors; ++j) {
    scan[j] = x[j][0];
#pragma unroll
    for (int k = 1; k < kVecItems<T>; ++k) scan[j] = scan[j] + x[j][k];
  }
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
#pragma unroll
    for (int j = 0; j < Vectors; ++j) {
      const T y = __shfl_up_sync(kFullMask, scan[j], d);
      if (lane >= d) scan[j] = y + scan[j];
    }
  }
  T carry = T(0);
#pragma unroll
  for (int j = 0; j < Vectors; ++j) {
    const T before_lane = __shfl_up_sync(kFullMask, scan[j], 1);
    base[j] = lane == 0 ? carry : carry + before_lane;
    carry = carry + __shfl_sync(kFullMask, scan[j], 31);
  }
  return carry;
}

//! Stage s of the ring as elements, from its element 0 (`skip` elements into the stage).
template <class T, int Block, int Vectors>
__device__ __forceinline__ const T* stage_elements(const unsigned char* buffers, unsigned s, unsigned skip) {
  return reinterpret_cast<const T*>(buffers + static_cast<std::size_t>(s) * pipeline_stage_bytes<Block, Vectors>()) +
         skip;
}

//! The consumer warps (threads 0 .. Block - 1): for each tile of the ring, read it from the stage,
//! scan it (stage 5's warp-striped scan), publish the aggregate, add the prefix the look-back warp
//! found, publish the inclusive prefix, store. With Early the reduce warp publishes the aggregate
//! and the look-back warp the inclusive prefix, and the consumers only scan, add the prefix and store.
template <class T, int Block, int Vectors, int Stages, bool Early>
__device__ __forceinline__ void pipeline_consumer(T* __restrict__ out, std::size_t n, const TileStatus<T>& status,
                                                  bool inclusive, unsigned skip, bool out_aligned,
                                                  const unsigned char* buffers,
                                                  PipelineSlots<T, Stages, Block / 32>& slots) {
  constexpr int kVec = kVecItems<T>;
  constexpr int kWarps = Block / 32;
  constexpr std::size_t kTile = kPipelineTile<T, Block, Vectors>;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (unsigned i = 0;; ++i) {
    const unsigned s = i % Stages, parity = (i / Stages) % 2;
    wait_phase(&slots.full[s], parity);
    const unsigned tile = slots.tile[s];
    if (tile == kNoTile) return;
    const auto [first, count] = tile_extent<T, Block, Vectors>(n, tile);

    T x[Vectors][kVec];
    read_stage<T, Block, Vectors>(stage_elements<T, Block, Vectors>(buffers, s, skip), count, skip, x);
    T base[Vectors];
    const T carry = scan_warp_vectors<T, Vectors>(x, base);

    // The warps' totals: each warp's lane 0 writes its own, then every consumer reads them all.
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
    if constexpr (!Early)
      if (threadIdx.x == 0) status.publish(tile, tile == 0 ? kTileInclusive : kTileAggregate, aggregate);

    // The prefix of every tile before this one, from the look-back warp.
    wait_phase(&slots.prefix_ready[s], parity);
    const T prefix = slots.prefix[s];
    if constexpr (!Early)
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
                                                    const unsigned char* buffers,
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
                                                    const unsigned char* buffers,
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
                                                        bool out_aligned, const unsigned char* buffers,
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

//! Threads of stage 8's block besides the Block consumers: the producer warp, the look-back warp and,
//! with -early, the reduce warp.
template <bool Early>
inline constexpr int kPipelineRoleThreads = Early ? 96 : 64;

//! Blocks of stage 8 that must fit on one SM at once (the second argument of __launch_bounds__):
//! 4 at block 128 (at most 65536 / (4 x 224) = 73 registers a thread with the reduce warp, 85
//! without: four rings of 16 KiB tiles side by side), 2 up to block 256 (at most 65536 / (2 x 352)
//! = 93 with the reduce warp, 102 without: two rings of a default shape, 2 x 96 KiB), 1 above.
template <int Block>
inline constexpr int kPipelineMinBlocksPerSm = Block <= 128 ? 4 : Block <= 256 ? 2 : 1;

#if CH08_STAGE8_PTX
//! Stage 8's kernel: persistent blocks of Block consumer threads, one producer warp, one look-back
//! warp and with Early one reduce warp (blockDim.x = Block + kPipelineRoleThreads<Early>), a ring
//! of Stages tiles in dynamic shared memory.
//! @tparam T float, double or int
//! @tparam Block consumer threads per block, a power of two 128..512
//! @tparam Vectors 16-byte vectors per consumer thread
//! @tparam Stages tiles in the ring (2 or more)
//! @tparam Windows 0: stage 4's look-back; > 0: look_back_near with that many windows per round trip
//! @tparam Ahead the consumers reduce the next tile before waiting for this one's prefix
//! @tparam Early a reduce warp publishes each tile's aggregate as it lands, the look-back warp the
//!         inclusive prefix (not with Ahead)
//! @param[in] in n elements (aligned to sizeof(T); any 16-byte alignment)
//! @param[out] out n prefixes (must not overlap `in`; aligned to sizeof(T))
//! @param[in] n number of elements (> 0)
//! @param[in] tiles ceil(n / (Block * Vectors * 16 / sizeof(T)))
//! @param[in,out] tile_counter zeroed before the launch; the producers take tiles from it
//! @param[in] status tile status, zeroed (INVALID) before the launch
//! @param[in] inclusive inclusive or exclusive prefixes
//! Launch: any grid (default: the resident blocks); dynamic shared memory Stages *
//! pipeline_stage_bytes<Block, Vectors>(). Requires sm_90; compiled for less, it traps. Not compiled
//! at all where the toolkit lacks the instructions (CH08_STAGE8_PTX 0).
template <class T, int Block, int Vectors, int Stages, int Windows, bool Ahead, bool Early>
__global__ void __launch_bounds__(Block + kPipelineRoleThreads<Early>, kPipelineMinBlocksPerSm<Block>)
    scan_bulk_pipeline(const T* __restrict__ in, T* __restrict__ out, std::size_t n, unsigned tiles,
                       unsigned* tile_counter, TileStatus<T> status, bool inclusive) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // never launched: the stage refuses GPUs below sm_90 (min_cc) and builds without sm_90 code
#else
  static_assert(Block % 32 == 0 && Stages >= 2, "whole consumer warps, at least two stages");
  static_assert(!(Ahead && Early), "-early consumers do not reduce: it is one schedule or the other");
  constexpr int kWarps = Block / 32;
  extern __shared__ __align__(128) unsigned char buffers[];
  __shared__ PipelineSlots<T, Stages, kWarps> slots;
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) {
      cuda::ptx::mbarrier_init(&slots.full[s], 32);
      cuda::ptx::mbarrier_init(&slots.sums_ready[s], kWarps);
      cuda::ptx::mbarrier_init(&slots.prefix_ready[s], 1);
      cuda::ptx::mbarrier_init(&slots.empty[s], kWarps + (Early ? 2 : 1));
      cuda::ptx::mbarrier_init(&slots.aggregate_ready[s], 1);
    }
    // Make the initialised barriers visible to the copy engine (the async proxy) as well.
    cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
  }
  __syncthreads();  // the only block-wide barrier: from here on the warps go their own ways

  const unsigned skip = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) % 16 / sizeof(T));
  const unsigned warp = threadIdx.x / 32;
  if (warp == kWarps) {
    pipeline_producer<T, Block, Vectors, Stages>(in, n, tiles, tile_counter, skip, buffers, slots);
  } else if (warp == kWarps + 1) {
    pipeline_look_back<T, Block, Stages, Windows, Early>(status, slots);
  } else if (warp == kWarps + 2) {
    if constexpr (Early) pipeline_reduce_warp<T, Block, Vectors, Stages>(n, status, skip, buffers, slots);
  } else {
    const bool out_aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    if constexpr (Ahead)
      pipeline_consumer_ahead<T, Block, Vectors, Stages>(out, n, status, inclusive, skip, out_aligned, buffers, slots);
    else
      pipeline_consumer<T, Block, Vectors, Stages, Early>(out, n, status, inclusive, skip, out_aligned, buffers, slots);
  }
#endif
}
#endif  // CH08_STAGE8_PTX

//! A shape of stage 8: 16-byte vectors per consumer thread and stages in the ring.
struct PipelineShape {
  int vectors;  //!< 16-byte vectors per consumer thread (the tile: Block * vectors * 16 bytes)
  int stages;   //!< tiles in the ring
};

//! Dynamic shared memory of stage 8's kernel at a block size and shape, in bytes: the ring's stages.
inline std::size_t pipeline_smem_bytes(int block, PipelineShape shape) {
  return static_cast<std::size_t>(shape.stages) * pipeline_stage_bytes(block, shape.vectors);
}

//! Smallest consumer block of stage 8.
inline constexpr int kPipelineMinBlock = 128;
//! Largest consumer block of stage 8 (at 8 vectors, 3 stages of 64 KiB).
inline constexpr int kPipelineMaxBlock = 512;

//! Windows of 32 predecessors the near look-back reads per round trip to L2 (`-near` shapes).
inline constexpr int kNearWindows = 4;

//! Windows of 32 predecessors per round trip of the wide near look-back (`-near16` shapes): 512
//! tiles, more than one round of the resident blocks (two per SM at the default shape) on a GPU of
//! fewer than 256 SMs, so the walk back to the block's previous tile is one round trip to L2.
inline constexpr int kWideWindows = 16;

//! Stage 8's default shape: 8 vectors per consumer thread (stage 7's tile), 3 stages in the ring
//! (96 KiB at block 256), with the early schedule (`8x3-early`: a reduce warp publishes each
//! tile's aggregate as it lands). The scan README compares the shapes.
inline constexpr PipelineShape kStage8Shape{8, 3};
//! The default schedule's look-back: stage 4's (look_back_exclusive), not the near look-back.
inline constexpr int kStage8Windows = 0;
//! The default schedule's consumers do not reduce ahead (`-ahead`)...
inline constexpr bool kStage8Ahead = false;
//! ...because a reduce warp publishes every tile's aggregate as it lands, and the look-back warp the
//! inclusive prefix (`-early`).
inline constexpr bool kStage8Early = true;

//! The consumer block of the shapes other than the default, which exist to be timed against it at
//! the ladder's block size: they are compiled at this size only (the default at 128, 256 and 512).
inline constexpr int kPipelineShapeBlock = 256;

//! Whether a shape is stage 8's default (compiled at every block size of the stage).
template <int Vectors, int Stages, int Windows, bool Ahead, bool Early>
inline constexpr bool kIsStage8Default = Vectors == kStage8Shape.vectors && Stages == kStage8Shape.stages &&
                                         Windows == kStage8Windows && Ahead == kStage8Ahead &&
                                         Early == kStage8Early;

//! Elements per tile of stage 8 for the arguments: Block * Vectors * 16 / sizeof(T).
template <int Vectors>
std::size_t pipeline_tile(const harness::ScanArgs& a) {
  return vector_tile(a, Vectors);
}

#if CH08_STAGE8_PTX
//! Calls `f(kernel, T{}, block)` with stage 8's kernel at the arguments' type and block size
//! (clamped to 128..512 for the default shape, to 256 for the others; the stage's validation
//! refuses other sizes first).
template <int Vectors, int Stages, int Windows, bool Ahead, bool Early, class F>
void with_pipeline_kernel(harness::DType type, int block, F&& f) {
  harness::with_input_type(type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(block, [&](auto b) {
      constexpr bool kEvery = kIsStage8Default<Vectors, Stages, Windows, Ahead, Early>;
      constexpr int kBlock = std::clamp(decltype(b)::value, kEvery ? kPipelineMinBlock : kPipelineShapeBlock,
                                        kEvery ? kPipelineMaxBlock : kPipelineShapeBlock);
      f(scan_bulk_pipeline<T, kBlock, Vectors, Stages, Windows, Ahead, Early>, t, std::integral_constant<int, kBlock>{});
    });
  });
}

//! Resident blocks of stage 8's kernel for the arguments (SMs x blocks per SM at its shared
//! memory), at most one per tile; raises the kernel's dynamic shared-memory limit on the way.
//! @throws UnsupportedError when one block's ring does not fit in the shared memory a block may have
template <int Vectors, int Stages, int Windows, bool Ahead, bool Early>
std::size_t pipeline_grid(const harness::ScanArgs& a, std::size_t tiles) {
  const std::size_t smem = pipeline_smem_bytes(a.block, {Vectors, Stages});
  std::size_t resident = 0;
  with_pipeline_kernel<Vectors, Stages, Windows, Ahead, Early>(a.type, a.block, [&](auto kernel, auto t, auto block) {
    using Slots = PipelineSlots<decltype(t), Stages, decltype(block)::value / 32>;
    int device = 0, sms = 0, per_sm = 0, optin = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    // check_device_fit refused this before (shared_bytes); kept for a caller that skips it.
    if (smem + sizeof(Slots) > static_cast<std::size_t>(optin))
      throw harness::UnsupportedError("scan_stage_8: " + std::string(harness::kCannotRunHere) + ": a ring of " +
                                      std::to_string(Stages) + " tiles at block " + std::to_string(a.block) +
                                      " needs " + std::to_string(smem + sizeof(Slots)) +
                                      " bytes of shared memory; this GPU gives a block at most " + std::to_string(optin));
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, decltype(block)::value + kPipelineRoleThreads<Early>, smem));
    resident = static_cast<std::size_t>(sms) * static_cast<std::size_t>(std::max(per_sm, 1));
  });
  return std::max<std::size_t>(1, std::min(resident, tiles));
}


//! Launches stage 8: reset the counter and the flags, then one kernel of resident blocks.
//! @tparam Vectors 16-byte vectors per consumer thread
//! @tparam Stages tiles in the ring
//! @tparam Windows, Ahead, Early the schedule (scan_bulk_pipeline)
template <int Vectors, int Stages, int Windows, bool Ahead, bool Early>
void launch_scan_bulk_pipeline(const harness::ScanArgs& a) {
  const unsigned tiles = grid_for_tiles(a.n, pipeline_tile<Vectors>(a));
  const std::size_t grid = pipeline_grid<Vectors, Stages, Windows, Ahead, Early>(a, tiles);
  const std::size_t smem = pipeline_smem_bytes(a.block, {Vectors, Stages});
  with_pipeline_kernel<Vectors, Stages, Windows, Ahead, Early>(a.type, a.block, [&](auto kernel, auto t, auto block) {
    using T = decltype(t);
    constexpr int kBlock = decltype(block)::value;
    unsigned char* ws = a.scratch<unsigned char>();
    CUDA_CHECK(cudaMemsetAsync(ws, 0, look_back_reset_bytes<T>(tiles), a.stream));
    kernel<<<static_cast<unsigned>(grid), kBlock + kPipelineRoleThreads<Early>, smem, a.stream>>>(
        a.input<T>(), a.output<T>(), a.n, tiles, reinterpret_cast<unsigned*>(ws),
        TileStatus<T>::at(ws + kWorkspaceAlign, tiles), a.inclusive);
  });
}
#endif  // CH08_STAGE8_PTX


//! Shared memory one block of stage 8 uses at the arguments' block size and type: the ring (dynamic)
//! and the slots (static), in bytes.
template <int Vectors, int Stages>
std::size_t pipeline_block_smem(const harness::ScanArgs& a) {
  std::size_t slots = 0;
  harness::with_input_type(a.type, [&](auto t) {
    harness::with_block_size(a.block, [&](auto b) {
      slots = sizeof(PipelineSlots<decltype(t), Stages, std::max(decltype(b)::value / 32, 1)>);
    });
  });
  return pipeline_smem_bytes(a.block, {Vectors, Stages}) + slots;
}

//! Stage 8 at a shape, as the harness sees it (the name and texts of the default shape).
//! @tparam Windows, Ahead, Early the schedule (scan_bulk_pipeline); all false: the plain schedule (the
//!         default is kStage8Windows, kStage8Ahead, kStage8Early: early)
//! What it needs of the GPU (checked before any launch, harness::check_device_fit): sm_90 (min_cc;
//! scan_stage_7 instead), a toolkit and a build with its kernel (unavailable), its ring and slots in
//! the shared memory one block may have (shared_bytes), and this build's code for the GPU's
//! architecture, not an older one's trap (device_rule).
template <int Vectors, int Stages, int Windows = 0, bool Ahead = false, bool Early = false>
harness::Stage<harness::Scan> scan_stage_8_shape_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "scan_stage_8";
  s.label = "bulk-copy pipeline";
  s.change = "warp roles: a producer warp fills a ring of shared-memory tiles with bulk async copies, a reduce warp "
             "publishes each tile's aggregate as it lands, a look-back warp finds each prefix while the consumer "
             "warps scan; persistent blocks (sm_90+)";
  s.source = "PTX ISA cp.async.bulk and mbarrier; CCCL warpspeed scan (NVIDIA/cccl 6644, 6811); Merrill and Garland 2016";
  s.deterministic = false;
  constexpr bool kDefault = kIsStage8Default<Vectors, Stages, Windows, Ahead, Early>;
  s.min_block = kDefault ? kPipelineMinBlock : kPipelineShapeBlock;
  s.max_block = kDefault ? kPipelineMaxBlock : kPipelineShapeBlock;
  s.min_cc = 90;
  s.instead = "scan_stage_7";
  s.unavailable = stage8_unavailable();
  s.shared_bytes = pipeline_block_smem<Vectors, Stages>;
  s.device_rule = [](const harness::ScanArgs&, const harness::DeviceLimits& limits) { return stage8_no_code_for(limits); };
  s.workspace_bytes = [](const harness::ScanArgs& a) {
    const std::size_t tiles = grid_for_tiles(a.n, pipeline_tile<Vectors>(a));
    return harness::with_input_type(a.type, [&](auto t) { return look_back_workspace_bytes<decltype(t)>(tiles); });
  };
  s.depth = [](const harness::ScanArgs& a) {
    // A prefix adds the tile aggregates of the look-back to its place in the tile's scan. With
    // -early an aggregate is the reduce warp's sum (sum_stage): at most a lane's elements in a
    // row, then the warp's 5 levels, longer than the consumers' scan of the tile.
    const double scan_depth = vector_tile_depth(a, Vectors) + a.block / 32.0;
    const double sum_depth = static_cast<double>(pipeline_tile<Vectors>(a)) / 32.0 + 5;
    return look_back_depth(Early ? std::max(scan_depth, sum_depth) : scan_depth,
                           grid_for_tiles(a.n, pipeline_tile<Vectors>(a)));
  };
#if CH08_STAGE8_PTX
  s.grid_for = [](const harness::ScanArgs& a) {
    return pipeline_grid<Vectors, Stages, Windows, Ahead, Early>(a, grid_for_tiles(a.n, pipeline_tile<Vectors>(a)));
  };
  s.launch = launch_scan_bulk_pipeline<Vectors, Stages, Windows, Ahead, Early>;
#else
  // No kernel in this build: every path refuses the stage before it gets here (check_device_fit on
  // `unavailable`); a direct call is refused too, with the same reason.
  s.grid_for = [](const harness::ScanArgs& a) -> std::size_t { return grid_for_tiles(a.n, pipeline_tile<Vectors>(a)); };
  s.launch = [](const harness::ScanArgs&) {
    throw harness::UnsupportedError(std::string("scan_stage_8: ") + harness::kCannotRunHere + ": " +
                                    stage8_toolkit_gap() + "; run scan_stage_7 instead");
  };
#endif
  return s;
}

//! Stage 8: the warp-specialised bulk-copy pipeline at its default shape and schedule (8x3-early).
inline harness::Stage<harness::Scan> scan_stage_8_stage() {
  return scan_stage_8_shape_stage<kStage8Shape.vectors, kStage8Shape.stages, kStage8Windows, kStage8Ahead,
                                  kStage8Early>();
}

//! Names of stage 8's shapes for `scan_stage_8 --pipeline`, the first the default:
//! VECTORSxSTAGES, then the schedule: none (each tile scanned, then its prefix awaited), `-near`
//! (the look-back stops at the block's previous tile, four windows per round trip; `-near16`:
//! sixteen), `-ahead` (the consumers reduce the next tile before waiting for this one's prefix),
//! `-early` (a reduce warp publishes each tile's aggregate as it lands, the look-back warp the
//! inclusive prefix), and their combinations.
inline std::vector<std::string> scan_stage_8_shape_names() {
  return {"8x3-early", "8x3", "8x3-near", "8x3-ahead", "8x3-near-ahead", "8x3-near-early", "8x3-near16-early",
          "4x6-early", "4x6-near16-early"};
}

//! Stage 8 at each shape of scan_stage_8_shape_names(), in that order (for measuring the ring's
//! depth, the tile size and the schedule; only the default is in the ladder).
inline std::vector<harness::Stage<harness::Scan>> scan_stage_8_shapes() {
  std::vector<harness::Stage<harness::Scan>> v{scan_stage_8_stage(),
                                               scan_stage_8_shape_stage<8, 3>(),
                                               scan_stage_8_shape_stage<8, 3, kNearWindows>(),
                                               scan_stage_8_shape_stage<8, 3, 0, true>(),
                                               scan_stage_8_shape_stage<8, 3, kNearWindows, true>(),
                                               scan_stage_8_shape_stage<8, 3, kNearWindows, false, true>(),
                                               scan_stage_8_shape_stage<8, 3, kWideWindows, false, true>(),
                                               scan_stage_8_shape_stage<4, 6, 0, false, true>(),
                                               scan_stage_8_shape_stage<4, 6, kWideWindows, false, true>()};
  const std::vector<std::string> names = scan_stage_8_shape_names();
  for (std::size_t i = 1; i < v.size(); ++i) v[i].label = "bulk-copy pipeline, " + names[i];
  return v;
}

}  // namespace ch08
