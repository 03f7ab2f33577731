//! @file scan_stage_8_bulk_copy_pipeline.cuh
//! @brief Scan stage 8 (sm_90 and newer): a warp-specialised single pass. A producer warp brings the
//! next tiles into a ring of shared-memory stages with 1-D bulk asynchronous copies, a reduce warp
//! publishes each tile's aggregate as soon as the tile lands, a look-back warp finds each tile's
//! prefix while the consumer warps scan it, and persistent blocks take tile after tile from a counter.
//!
//! Changed against stage 7: who waits for what. In stage 7 every warp of a block does everything in
//! order -- load its vectors, scan, wait at a barrier while warp 0 looks back, store -- one tile per
//! block: while the look-back spins, no load of that block is in flight, and the profiler shows the
//! warps stalled at that barrier. Here each warp of the block has one role:
//!   - the **producer warp** takes a tile index from the counter (atomicAdd) and copies the tile from
//!     global memory into a free stage of the ring with one cp.async.bulk. The copy engine (the
//!     Tensor Memory Accelerator, TMA) moves the bytes and counts them into the stage's mbarrier: no
//!     thread waits for them, and the producer goes on to the next free stage, up to Stages tiles ahead;
//!   - the **reduce warp** waits until a stage is full, sums the tile from shared memory and
//!     publishes the sum as the tile's aggregate (flag AGGREGATE). It waits for nothing else;
//!   - the **look-back warp** runs stage 4's look-back (look_back_exclusive) for the same tile as soon
//!     as its data has landed, publishes the tile's inclusive prefix (its exclusive prefix plus the
//!     reduce warp's aggregate) and hands the exclusive prefix to the consumers;
//!   - the **consumer warps** (the block size, `--block`) read the stage with 16-byte loads (stage 5's
//!     warp-striped layout), scan it in registers, add the tile's prefix from the look-back warp and
//!     store with stage 7's streaming stores.
//! So the loads of the next Stages - 1 tiles are in flight while a tile is scanned and looked back,
//! and the look-back overlaps the scan instead of following it.
//!
//! Why a warp only for the aggregates. A look-back waits while a predecessor's status is INVALID and
//! walks further back while it is AGGREGATE; every block holds tiles between "taken" and "inclusive
//! prefix published". So the sooner every tile's aggregate is out, the less any look-back waits, and
//! the sooner its inclusive prefix is out, the shorter the walks. An aggregate depends on its own tile
//! only, so no look-back waits on a chain of look-backs. The steps to this schedule (consumers that
//! publish, consumers that reduce ahead, a bounded look-back) are `--pipeline` shapes, compared
//! against it in scan_stage_8_shapes.cuh. The arithmetic on a tile in a stage (read, scan, sum) is
//! in scan_stage_8_tile.cuh.
//!
//! The ring: Stages buffers in dynamic shared memory, use i (i = 0, 1, ...) in stage s = i % Stages.
//! Five mbarriers per stage say who waits for whom (PipelineSlots):
//!   full[s]             the 32 producer lanes arrive (lane 0 with the bytes the copy will deliver,
//!                       mbarrier.arrive.expect_tx) and the copy engine completes the transaction;
//!                       awaited by the consumers, the reduce and the look-back warp
//!   sums_ready[s]       lane 0 of each consumer warp, after writing its warp's total; awaited by the
//!                       consumers before they add the warps' totals
//!   aggregate_ready[s]  the reduce warp, after writing the tile's sum; awaited by the look-back warp
//!   prefix_ready[s]     the look-back warp, after writing the exclusive prefix; awaited by the consumers
//!   empty[s]            each consumer warp, the look-back and the reduce warp when done with the
//!                       stage; awaited by the producer before it refills the stage
//! An mbarrier completes one phase after another; a wait names the phase by its parity, (i / Stages)
//! % 2 for use i. The producer waits on empty[s] with the opposite parity: a fresh barrier passes it.
//!
//! Alignment: cp.async.bulk needs 16-byte aligned addresses and sizes. Element e of a tile is kept at
//! byte (skip + e) * sizeof(T) of its stage, skip = (address of `in` mod 16) / sizeof(T), so the
//! tile's aligned middle is copied in bulk to an aligned place, and producer lanes load the fewer
//! than 16 / sizeof(T) elements before it (head) and after it (tail). 16-byte shared loads and global
//! stores where the stage, `out` and the tile allow them (skip = 0, aligned, whole), else elements.
//!
//! Shape (kStage8Shape, per element type): for float and int 4 vectors of 16 bytes per consumer
//! thread (4,096 elements at block 256) and 6 stages in the ring; for double stage 7's tile, 8
//! vectors (4,096 doubles at block 256), and 3 stages. Stages * (tile + 128) bytes of shared memory
//! (99,072 and 98,688 at block 256: two blocks fit an SM of 227 KiB), Block + 96 threads. The shape
//! table that chose them is on the page (stage8.md); `--pipeline` runs the others.
//! Against stage 7 the profiler shows no stalls at a block barrier (waits on mbarriers instead) and
//! DRAM throughput closer to a copy's (its % of peak at 2^26:
//! docs/results/H200/profile/ch08-scan_profile_claims.md).
//! Determinism: as stage 4 (not promised for float and double). Requires compute capability 9.0:
//! below, the stage refuses before any launch (min_cc = 90) and names scan_stage_7; a build's code
//! for older GPUs is a trap. Requires CUDA 12.9 or newer (CH08_STAGE8_PTX, scan_stage_8_toolkit.cuh).
//! Source: NVIDIA PTX ISA, cp.async.bulk and mbarrier; CUDA C++ Programming Guide, "Asynchronous Data
//! Copies using the Tensor Memory Accelerator"; CCCL's warp-specialised scan (NVIDIA/cccl 6644, 6811).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "block_scan.cuh"
#include "cuda_check.hpp"
#include "errors.hpp"
#include "look_back.cuh"
#include "scan_stage_8_tile.cuh"
#include "scan_stage_8_toolkit.cuh"
#include "scan_support.cuh"
#include "striped_vectors.cuh"
#include "tile_status.cuh"

namespace ch08 {

//! The ring's bookkeeping, in static shared memory: per stage its five mbarriers, the tile index,
//! the tile's exclusive prefix and aggregate, and the consumer warps' totals.
template <class T, int Stages, int ConsumerWarps>
struct PipelineSlots {
  std::uint64_t full[Stages];             //!< producer -> everyone: the tile's index and data are in
  std::uint64_t sums_ready[Stages];       //!< consumer warps -> consumer warps: every warp total written
  std::uint64_t prefix_ready[Stages];     //!< look-back warp -> consumers: the prefix is written
  std::uint64_t empty[Stages];            //!< consumers, look-back and reduce warp -> producer: stage free
  std::uint64_t aggregate_ready[Stages];  //!< reduce warp -> look-back warp: the aggregate is written
  unsigned tile[Stages];                  //!< tile index of the stage's current use (kNoTile: stop)
  T prefix[Stages];                       //!< the tile's exclusive prefix
  T aggregate[Stages];                    //!< the tile's sum, from the reduce warp
  T warp_sums[Stages][ConsumerWarps];     //!< each consumer warp's total of the tile
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

//! Thread 0's set-up of the ring: each mbarrier with the arrivals that complete one of its phases
//! (`empty_arrivals`: the warps that free a stage), made visible to the copy engine too.
template <class T, int Stages, int Warps>
__device__ __forceinline__ void init_ring(PipelineSlots<T, Stages, Warps>& slots, unsigned empty_arrivals) {
  for (int s = 0; s < Stages; ++s) {
    cuda::ptx::mbarrier_init(&slots.full[s], 32);
    cuda::ptx::mbarrier_init(&slots.sums_ready[s], Warps);
    cuda::ptx::mbarrier_init(&slots.prefix_ready[s], 1);
    cuda::ptx::mbarrier_init(&slots.empty[s], empty_arrivals);
    cuda::ptx::mbarrier_init(&slots.aggregate_ready[s], 1);
  }
  // Make the initialised barriers visible to the copy engine (the async proxy) as well.
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
}

//! The producer warp: for each free stage, a tile index from the counter and the tile into the
//! stage (head and tail with plain loads by lanes, the aligned middle with one bulk copy by lane 0).
//! After the last tile it hands over kNoTile and returns.
template <class T, int Block, int Vectors, int Stages>
__device__ __forceinline__ void pipeline_producer(const T* __restrict__ in, std::size_t n, unsigned tiles,
                                                  unsigned* tile_counter, unsigned skip, unsigned char* buffers,
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

//! The reduce warp: for each tile of the ring, as soon as its data has landed, its sum (sum_stage),
//! published as the tile's aggregate (tile 0: its inclusive prefix) and handed to the look-back warp.
//! It waits for nothing but the data, whatever the look-backs and the consumers are doing.
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
//! the sum of all tiles before it (stage 4's look_back_exclusive); then, with the reduce warp's
//! aggregate, the tile's inclusive prefix, published without waiting for the consumers; and the
//! exclusive prefix, handed to the consumers.
template <class T, int Block, int Stages>
__device__ __forceinline__ void pipeline_look_back(const TileStatus<T>& status,
                                                   PipelineSlots<T, Stages, Block / 32>& slots) {
  const unsigned lane = threadIdx.x % 32;
  for (unsigned i = 0;; ++i) {
    const unsigned s = i % Stages, parity = (i / Stages) % 2;
    wait_phase(&slots.full[s], parity);
    const unsigned tile = slots.tile[s];
    if (tile == kNoTile) return;
    T exclusive = T(0);
    if (tile != 0) exclusive = look_back_exclusive<T>(status, tile);
    wait_phase(&slots.aggregate_ready[s], parity);
    if (lane == 0 && tile != 0) status.publish(tile, kTileInclusive, exclusive + slots.aggregate[s]);
    __syncwarp();
    if (lane == 0) {
      slots.prefix[s] = exclusive;
      arrive(&slots.prefix_ready[s]);
      arrive(&slots.empty[s]);
    }
  }
}

//! The consumer warps (threads 0 .. Block - 1): for each tile of the ring, read it from the stage,
//! scan it (stage 5's warp-striped scan), add the warps' totals before this warp and the prefix the
//! look-back warp found, store. They publish nothing: the reduce and the look-back warp do.
template <class T, int Block, int Vectors, int Stages>
__device__ __forceinline__ void pipeline_consumer(T* __restrict__ out, std::size_t n, bool inclusive, unsigned skip,
                                                  bool out_aligned, const unsigned char* buffers,
                                                  PipelineSlots<T, Stages, Block / 32>& slots) {
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

    // The warps' totals: each warp's lane 0 writes its own, then every consumer reads them all.
    if (lane == 0) {
      slots.warp_sums[s][warp] = carry;
      arrive(&slots.sums_ready[s]);
    }
    wait_phase(&slots.sums_ready[s], parity);
    T warp_exclusive = T(0);
#pragma unroll
    for (int w = 0; w < Block / 32; ++w) {
      const T v = slots.warp_sums[s][w];
      if (w < static_cast<int>(warp)) warp_exclusive = warp_exclusive + v;
    }

    // The prefix of every tile before this one, from the look-back warp.
    wait_phase(&slots.prefix_ready[s], parity);
    const T prefix = slots.prefix[s];
    __syncwarp();
    if (lane == 0) arrive(&slots.empty[s]);  // this warp has read the stage, its sums and prefix

    const T offset = prefix + warp_exclusive;
#pragma unroll
    for (int j = 0; j < Vectors; ++j) base[j] = offset + base[j];
    store_striped<StreamingCache, Vectors>(out, first, n, out_aligned && count == kPipelineTile<T, Block, Vectors>,
                                           x, base, inclusive);
  }
}

#endif  // CH08_STAGE8_PTX && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)

//! Threads of stage 8's block besides the Block consumers: the producer, look-back and reduce warps.
inline constexpr int kPipelineRoleThreads = 96;

//! Blocks of stage 8 that must fit on one SM at once (__launch_bounds__): 4 at block 128 (at most
//! 65536 / (4 x 224) = 73 registers a thread), 2 up to block 256 (65536 / (2 x 352) = 93), 1 above.
template <int Block>
inline constexpr int kPipelineMinBlocksPerSm = Block <= 128 ? 4 : Block <= 256 ? 2 : 1;

#if CH08_STAGE8_PTX
//! Stage 8's kernel: persistent blocks of Block consumer threads, one producer warp, one look-back
//! warp and one reduce warp (blockDim.x = Block + kPipelineRoleThreads), a ring of Stages tiles in
//! dynamic shared memory.
//! @tparam T float, double or int
//! @tparam Block consumer threads per block, a power of two 128..512
//! @tparam Vectors 16-byte vectors per consumer thread
//! @tparam Stages tiles in the ring (2 or more)
//! @param[in] in n elements (aligned to sizeof(T); any 16-byte alignment)
//! @param[out] out n prefixes (must not overlap `in`; aligned to sizeof(T))
//! @param[in] n number of elements (> 0)
//! @param[in] tiles ceil(n / (Block * Vectors * 16 / sizeof(T)))
//! @param[in,out] tile_counter zeroed before the launch; the producers take tiles from it
//! @param[in] status tile status, zeroed (INVALID) before the launch
//! @param[in] inclusive inclusive or exclusive prefixes
//! Launch: any grid (default: the resident blocks); dynamic shared memory Stages *
//! pipeline_stage_bytes(Block, Vectors). Requires sm_90; compiled for less, it traps.
template <class T, int Block, int Vectors, int Stages>
__global__ void __launch_bounds__(Block + kPipelineRoleThreads, kPipelineMinBlocksPerSm<Block>)
    scan_bulk_pipeline(const T* __restrict__ in, T* __restrict__ out, std::size_t n, unsigned tiles,
                       unsigned* tile_counter, TileStatus<T> status, bool inclusive) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // never launched: the stage refuses GPUs below sm_90 (min_cc) and builds without sm_90 code
#else
  static_assert(Block % 32 == 0 && Stages >= 2, "whole consumer warps, at least two stages");
  constexpr int kWarps = Block / 32;
  extern __shared__ __align__(128) unsigned char buffers[];
  __shared__ PipelineSlots<T, Stages, kWarps> slots;
  if (threadIdx.x == 0) init_ring(slots, kWarps + 2);  // empty: the consumer warps, look-back, reduce
  __syncthreads();  // the only block-wide barrier: from here on the warps go their own ways

  const unsigned skip = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) % 16 / sizeof(T));
  const unsigned warp = threadIdx.x / 32;
  if (warp == kWarps) {
    pipeline_producer<T, Block, Vectors, Stages>(in, n, tiles, tile_counter, skip, buffers, slots);
  } else if (warp == kWarps + 1) {
    pipeline_look_back<T, Block, Stages>(status, slots);
  } else if (warp == kWarps + 2) {
    pipeline_reduce_warp<T, Block, Vectors, Stages>(n, status, skip, buffers, slots);
  } else {
    const bool out_aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    pipeline_consumer<T, Block, Vectors, Stages>(out, n, inclusive, skip, out_aligned, buffers, slots);
  }
#endif
}
#endif  // CH08_STAGE8_PTX

//! A shape of stage 8: 16-byte vectors per consumer thread, tiles in the ring.
struct PipelineShape {
  int vectors;  //!< 16-byte vectors each consumer thread scans per tile
  int stages;   //!< tiles the ring holds
};

//! Stage 8's default shape for element type T, the fastest of the measured shape table (stage8.md):
//! 4-byte types 4 vectors x 6 stages (16 KiB tiles at block 256, more and smaller copies in flight);
//! double 8 x 3 (stage 7's 32 KiB tile), since every smaller tile made the double scan slower.
//! Every default shape holds about the same shared memory at a block size: 99,072 and 98,688
//! bytes of ring at block 256.
template <class T>
inline constexpr PipelineShape kStage8Shape = sizeof(T) == 4 ? PipelineShape{4, 6} : PipelineShape{8, 3};

//! A shape policy: the same shape for every element type (the compared shapes, scan_stage_8_shapes.cuh).
template <int Vectors, int Stages>
struct FixedShape {
  template <class T>
  static constexpr PipelineShape of{Vectors, Stages};  //!< the shape at element type T
};

//! The default's shape policy: the shape of kStage8Shape's row for the element type.
struct PerTypeShape {
  template <class T>
  static constexpr PipelineShape of = kStage8Shape<T>;  //!< the shape at element type T
};

//! The shape a policy gives an element type.
template <class Shape>
PipelineShape shape_for(harness::DType type) {
  return harness::with_input_type(type, [](auto t) { return Shape::template of<decltype(t)>; });
}

//! Tiles of stage 8 for the arguments at a shape policy: ceil(n / tile), the tile Block x the
//! shape's vectors of 16 bytes at the arguments' type and block.
//! @throws harness::UsageError past 2^31 - 1 tiles (grid_for_tiles)
template <class Shape>
unsigned pipeline_tiles(const harness::ScanArgs& a) {
  return grid_for_tiles(a.n, vector_tile(a, shape_for<Shape>(a.type).vectors));
}

//! Dynamic shared memory of stage 8's kernel at a block size and shape, in bytes: the ring's stages.
inline std::size_t pipeline_smem_bytes(int block, PipelineShape shape) {
  return static_cast<std::size_t>(shape.stages) * pipeline_stage_bytes(block, shape.vectors);
}

inline constexpr int kPipelineMinBlock = 128;  //!< smallest consumer block of the default shape
inline constexpr int kPipelineMaxBlock = 512;  //!< largest (at 512: 6 stages of 32 KiB, or 3 of 64 KiB for double)
//! The consumer block of every other shape (scan_stage_8_shapes.cuh): compiled at this size only.
inline constexpr int kPipelineShapeBlock = 256;

//! Stage 8's schedule as its launch sees it: the kernel at a type, block size and shape, the threads
//! of the roles besides the consumers, and whether a reduce warp sums each tile. This one is the
//! default (`-early`); the comparison schedules of scan_stage_8_shapes.cuh plug in the same way.
struct EarlySchedule {
  static constexpr int kRoleThreads = kPipelineRoleThreads;  //!< threads of the roles besides the consumers
  static constexpr bool kReduceWarp = true;                  //!< a reduce warp sums each tile
#if CH08_STAGE8_PTX
  template <class T, int Block, int Vectors, int Stages>
  static constexpr auto kernel() { return scan_bulk_pipeline<T, Block, Vectors, Stages>; }
#endif
};

//! Whether a schedule and shape policy are stage 8's default (compiled at every block size of the stage).
template <class Schedule, class Shape>
inline constexpr bool kIsStage8Default = std::is_same_v<Schedule, EarlySchedule> && std::is_same_v<Shape, PerTypeShape>;

//! Shared memory one block of stage 8 uses at the arguments' block size and type: the ring (dynamic)
//! and the slots (static), in bytes.
template <class Shape>
std::size_t pipeline_block_smem(const harness::ScanArgs& a) {
  std::size_t slots = 0;
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(a.block, [&](auto b) {
      slots = sizeof(PipelineSlots<T, Shape::template of<T>.stages, std::max(decltype(b)::value / 32, 1)>);
    });
  });
  return pipeline_smem_bytes(a.block, shape_for<Shape>(a.type)) + slots;
}

#if CH08_STAGE8_PTX
//! Calls `f(kernel, T{}, block)` with the schedule's kernel at the arguments' type, that type's shape
//! and the block size (clamped to 128..512 for the default, to 256 for other shapes; the stage
//! refuses others first).
template <class Schedule, class Shape, class F>
void with_pipeline_kernel(harness::DType type, int block, F&& f) {
  harness::with_input_type(type, [&](auto t) {
    using T = decltype(t);
    constexpr PipelineShape kShape = Shape::template of<T>;
    harness::with_block_size(block, [&](auto b) {
      constexpr bool kEvery = kIsStage8Default<Schedule, Shape>;
      constexpr int kBlock = std::clamp(decltype(b)::value, kEvery ? kPipelineMinBlock : kPipelineShapeBlock,
                                        kEvery ? kPipelineMaxBlock : kPipelineShapeBlock);
      f(Schedule::template kernel<T, kBlock, kShape.vectors, kShape.stages>(), t, std::integral_constant<int, kBlock>{});
    });
  });
}

//! Resident blocks of stage 8's kernel for the arguments (SMs x blocks per SM at its shared memory),
//! at most one per tile; raises the kernel's dynamic shared-memory limit on the way.
//! @throws UnsupportedError when one block's ring does not fit in the shared memory a block may have
template <class Schedule, class Shape>
std::size_t pipeline_grid(const harness::ScanArgs& a, std::size_t tiles) {
  const PipelineShape shape = shape_for<Shape>(a.type);
  const std::size_t smem = pipeline_smem_bytes(a.block, shape);
  std::size_t resident = 0;
  with_pipeline_kernel<Schedule, Shape>(a.type, a.block, [&](auto kernel, auto t, auto block) {
    using T = decltype(t);
    using Slots = PipelineSlots<T, Shape::template of<T>.stages, decltype(block)::value / 32>;
    int device = 0, sms = 0, per_sm = 0, optin = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    // check_device_fit refused this before (shared_bytes); kept for a caller that skips it.
    if (smem + sizeof(Slots) > static_cast<std::size_t>(optin))
      throw harness::UnsupportedError("scan_stage_8: " + std::string(harness::kCannotRunHere) + ": a ring of " +
                                      std::to_string(shape.stages) + " tiles at block " + std::to_string(a.block) +
                                      " needs " + std::to_string(smem + sizeof(Slots)) +
                                      " bytes of shared memory; this GPU gives a block at most " + std::to_string(optin));
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                             decltype(block)::value + Schedule::kRoleThreads, smem));
    resident = static_cast<std::size_t>(sms) * static_cast<std::size_t>(std::max(per_sm, 1));
  });
  return std::max<std::size_t>(1, std::min(resident, tiles));
}

//! Launches stage 8: reset the counter and the flags, then one kernel of resident blocks, each of
//! Block consumers and the schedule's role warps, with the ring in dynamic shared memory.
template <class Schedule, class Shape>
void launch_scan_bulk_pipeline(const harness::ScanArgs& a) {
  const PipelineShape shape = shape_for<Shape>(a.type);
  const unsigned tiles = pipeline_tiles<Shape>(a);
  const std::size_t grid = pipeline_grid<Schedule, Shape>(a, tiles);
  const std::size_t smem = pipeline_smem_bytes(a.block, shape);
  with_pipeline_kernel<Schedule, Shape>(a.type, a.block, [&](auto kernel, auto t, auto block) {
    using T = decltype(t);
    unsigned char* ws = a.scratch<unsigned char>();
    CUDA_CHECK(cudaMemsetAsync(ws, 0, look_back_reset_bytes<T>(tiles), a.stream));
    kernel<<<static_cast<unsigned>(grid), decltype(block)::value + Schedule::kRoleThreads, smem, a.stream>>>(
        a.input<T>(), a.output<T>(), a.n, tiles, reinterpret_cast<unsigned*>(ws),
        TileStatus<T>::at(ws + kWorkspaceAlign, tiles), a.inclusive);
  });
}
#endif  // CH08_STAGE8_PTX

//! Stage 8 at a schedule and shape, as the harness sees it (the name and texts of the default).
//! What it needs of the GPU, checked before any launch: sm_90 (min_cc; scan_stage_7 instead), a
//! toolkit and a build with its kernel (unavailable), its ring and slots in the shared memory one
//! block may have (shared_bytes), and this build's code for the GPU, not an older one's trap.
template <class Schedule, class Shape>
harness::Stage<harness::Scan> pipeline_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "scan_stage_8";
  s.label = "bulk-copy pipeline";
  s.change = "warp roles: a producer warp fills a ring of shared-memory tiles with bulk async copies, a reduce warp "
             "publishes each tile's aggregate as it lands, a look-back warp finds each prefix while the consumer "
             "warps scan; persistent blocks (sm_90+)";
  s.source = "PTX ISA cp.async.bulk and mbarrier; CCCL warpspeed scan (NVIDIA/cccl 6644, 6811); Merrill and Garland 2016";
  s.deterministic = false;
  constexpr bool kDefault = kIsStage8Default<Schedule, Shape>;
  s.min_block = kDefault ? kPipelineMinBlock : kPipelineShapeBlock;
  s.max_block = kDefault ? kPipelineMaxBlock : kPipelineShapeBlock;
  s.min_cc = 90;
  s.instead = "scan_stage_7";
  s.unavailable = stage8_unavailable();
  s.shared_bytes = pipeline_block_smem<Shape>;
  s.device_rule = [](const harness::ScanArgs&, const harness::DeviceLimits& limits) { return stage8_no_code_for(limits); };
  s.workspace_bytes = [](const harness::ScanArgs& a) {
    const std::size_t tiles = pipeline_tiles<Shape>(a);
    return harness::with_input_type(a.type, [&](auto t) { return look_back_workspace_bytes<decltype(t)>(tiles); });
  };
  s.depth = [](const harness::ScanArgs& a) {
    // A prefix adds the tile aggregates of the look-back to its place in the tile's scan. With a
    // reduce warp an aggregate is its sum (sum_stage): at most a lane's elements in a row, then the
    // warp's 5 levels, longer than the consumers' scan of the tile.
    const int vectors = shape_for<Shape>(a.type).vectors;
    const double scan_depth = vector_tile_depth(a, vectors) + a.block / 32.0;
    const double sum_depth = static_cast<double>(vector_tile(a, vectors)) / 32.0 + 5;
    return look_back_depth(Schedule::kReduceWarp ? std::max(scan_depth, sum_depth) : scan_depth,
                           pipeline_tiles<Shape>(a));
  };
#if CH08_STAGE8_PTX
  s.grid_for = [](const harness::ScanArgs& a) {
    return pipeline_grid<Schedule, Shape>(a, pipeline_tiles<Shape>(a));
  };
  s.launch = launch_scan_bulk_pipeline<Schedule, Shape>;
#else
  // No kernel in this build: every path refuses the stage before it gets here (check_device_fit on
  // `unavailable`); a direct call is refused too, with the same reason.
  s.grid_for = [](const harness::ScanArgs& a) -> std::size_t { return pipeline_tiles<Shape>(a); };
  s.launch = [](const harness::ScanArgs&) {
    throw harness::UnsupportedError(std::string("scan_stage_8: ") + harness::kCannotRunHere + ": " +
                                    stage8_toolkit_gap() + "; run scan_stage_7 instead");
  };
#endif
  return s;
}

//! Stage 8: the warp-specialised bulk-copy pipeline at its default schedule (-early) and its type's
//! default shape (kStage8Shape: 4x6 for float and int, 8x3 for double).
inline harness::Stage<harness::Scan> scan_stage_8_stage() {
  return pipeline_stage<EarlySchedule, PerTypeShape>();
}

}  // namespace ch08
