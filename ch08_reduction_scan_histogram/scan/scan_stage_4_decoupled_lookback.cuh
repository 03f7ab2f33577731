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
//! Publishing a flag and its value together: for 4-byte types (float, int) flag and value share
//! one 64-bit word (PackedTileStatus), stored and loaded as single 64-bit accesses
//! (cuda::atomic_ref, relaxed): a reader sees both or neither, and needs no fence, because nothing
//! else is communicated. For double the pair does not fit in 64 bits and 128-bit plain accesses are
//! not single-copy atomic in the PTX memory model, so SplitTileStatus keeps the flag in its own word
//! and the aggregate and the inclusive prefix in two separate slots: the writer stores the value,
//! then the flag with release semantics; the reader loads the flag with acquire semantics, then the
//! slot the flag names. Two slots, because a reader that saw AGGREGATE must not read the slot after
//! the tile has overwritten it with its inclusive prefix.
//! What the profiler shows against stage 3: DRAM bytes per element fall from 12 to 8 (floats), one
//! kernel instead of 2 per level; new: a global atomic per tile, spinning loads of the status words
//! (L2 hits), and warps stalled at the block's second barrier while warp 0 looks back.
//! Determinism: not promised for float and double: where a look-back stops depends on which
//! predecessors had published their inclusive prefix by then, so the order of the additions, and
//! the last bits of a prefix, can change from run to run. Integer results are always the same.
//! Source: Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", NVIDIA
//! technical report NVR-2016-002 (2016), sections 4.1-4.4; the scan CUB's DeviceScan uses.
//! Reuses load_blocked, block_scan_blocked and store_blocked from scan_stage_3_warp_shuffle.cuh.
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "cuda_check.hpp"
#include "scan_stage_3_warp_shuffle.cuh"

namespace ch08 {

//! Status of a tile in the look-back.
enum TileFlag : unsigned {
  kTileInvalid = 0,    //!< nothing published yet (the value after the launch's memset)
  kTileAggregate = 1,  //!< the tile's own total is published
  kTileInclusive = 2   //!< the sum of this tile and every tile before it is published
};

//! A flag and the value it publishes.
template <class T>
struct TileState {
  unsigned flag;  //!< a TileFlag
  T value;        //!< the aggregate or the inclusive prefix (0 when INVALID)
};

//! Tile status for 4-byte types: flag (high 32 bits) and value bits (low 32 bits) in one 64-bit
//! word per tile, published and read with single 64-bit atomic accesses (relaxed).
//! @tparam T float or int
template <class T>
struct PackedTileStatus {
  static_assert(sizeof(T) == 4, "flag and value share one 64-bit word");
  unsigned long long* words;  //!< one word per tile, zeroed (INVALID) before the launch

  //! Bytes for `tiles` tiles.
  static std::size_t bytes(std::size_t tiles) { return tiles * sizeof(unsigned long long); }
  //! Bytes from the start that the launch must zero.
  static std::size_t reset_bytes(std::size_t tiles) { return bytes(tiles); }
  //! The status over `tiles` tiles at `p` (256-byte aligned).
  static PackedTileStatus at(unsigned char* p, std::size_t) {
    return {reinterpret_cast<unsigned long long*>(p)};
  }
  //! Publishes `value` with `flag` for `tile`: one 64-bit store.
  __device__ void publish(std::size_t tile, unsigned flag, T value) const {
    unsigned bits;
    std::memcpy(&bits, &value, sizeof bits);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile]);
    word.store((static_cast<unsigned long long>(flag) << 32) | bits, cuda::memory_order_relaxed);
  }
  //! Reads the flag and value of `tile`: one 64-bit load.
  __device__ TileState<T> load(std::size_t tile) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile]);
    const unsigned long long w = word.load(cuda::memory_order_relaxed);
    const unsigned bits = static_cast<unsigned>(w);
    TileState<T> s;
    s.flag = static_cast<unsigned>(w >> 32);
    std::memcpy(&s.value, &bits, sizeof bits);
    return s;
  }
};

//! Tile status for 8-byte types: a flag word per tile and two value slots (aggregate, inclusive
//! prefix). Value first, then the flag with release; the reader acquires the flag, then reads the
//! slot it names.
//! @tparam T double
template <class T>
struct SplitTileStatus {
  unsigned* flags;  //!< one flag per tile, zeroed (INVALID) before the launch
  T* aggregates;    //!< aggregates[t] valid once flags[t] >= AGGREGATE
  T* inclusives;    //!< inclusives[t] valid once flags[t] == INCLUSIVE

  //! Bytes for `tiles` tiles: the flags, then the two slots, each 256-byte aligned.
  static std::size_t bytes(std::size_t tiles) {
    return align_up(tiles * sizeof(unsigned)) + 2 * align_up(tiles * sizeof(T));
  }
  //! Bytes from the start that the launch must zero: the flags only.
  static std::size_t reset_bytes(std::size_t tiles) { return tiles * sizeof(unsigned); }
  //! The status over `tiles` tiles at `p` (256-byte aligned).
  static SplitTileStatus at(unsigned char* p, std::size_t tiles) {
    const std::size_t f = align_up(tiles * sizeof(unsigned)), v = align_up(tiles * sizeof(T));
    return {reinterpret_cast<unsigned*>(p), reinterpret_cast<T*>(p + f), reinterpret_cast<T*>(p + f + v)};
  }
  //! Publishes `value` with `flag` for `tile`: the value, then the flag (release).
  __device__ void publish(std::size_t tile, unsigned flag, T value) const {
    (flag == kTileAggregate ? aggregates : inclusives)[tile] = value;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(flags[tile]);
    f.store(flag, cuda::memory_order_release);
  }
  //! Reads the flag of `tile` (acquire), then the value it names.
  __device__ TileState<T> load(std::size_t tile) const {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(flags[tile]);
    TileState<T> s;
    s.flag = f.load(cuda::memory_order_acquire);
    s.value = s.flag == kTileAggregate ? aggregates[tile]
              : s.flag == kTileInclusive ? inclusives[tile]
                                         : T(0);
    return s;
  }
};

//! The tile status a type uses: packed for 4-byte types, split for double.
template <class T>
using TileStatus = std::conditional_t<sizeof(T) == 4, PackedTileStatus<T>, SplitTileStatus<T>>;

//! Workspace of a look-back scan over `tiles` tiles: the tile counter (first 256 bytes), then the
//! status. The launch zeroes look_back_reset_bytes() of it.
template <class T>
std::size_t look_back_workspace_bytes(std::size_t tiles) {
  return kWorkspaceAlign + TileStatus<T>::bytes(tiles);
}
//! Bytes of the workspace to zero before each launch: the counter and the flags.
template <class T>
std::size_t look_back_reset_bytes(std::size_t tiles) {
  return kWorkspaceAlign + TileStatus<T>::reset_bytes(tiles);
}

//! Sum of one value per lane over the warp (butterfly: every lane gets the same bits).
template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (unsigned d = 16; d > 0; d >>= 1) v = v + __shfl_xor_sync(kFullMask, v, d);
  return v;
}

//! How a lane waits for a predecessor's status to leave INVALID: spin on the load (the stages' default).
struct SpinWait {
  //! Nothing between two loads of the status.
  __device__ static void pause(unsigned&) {}
};

//! A backoff for the look-back's spin: __nanosleep between two loads of a status that is still
//! INVALID, from 32 ns doubling to 1024 ns, so that waiting warps issue fewer L2 loads and leave
//! issue slots to the warps that work (a knob of stage 7, `scan_stage_7 --tuning backoff`).
struct SpinBackoff {
  //! Sleeps `ns` nanoseconds (first call: 32), then doubles it up to 1024.
  __device__ static void pause(unsigned& ns) {
    ns = ns == 0 ? 32 : ns;
    __nanosleep(ns);
    ns = ns < 1024 ? 2 * ns : ns;
  }
};

//! The look-back proper, run by the 32 lanes of one warp: the sum of every tile before `tile`
//! (tile > 0), read from the predecessors' published status. Lane l reads the status of
//! tile - 1 - l, waits until it is not INVALID, a ballot finds the nearest predecessor whose flag is
//! INCLUSIVE; the lanes up to it add their values (aggregates, then that inclusive prefix) and the
//! look-back is done; with no INCLUSIVE flag in the window the 32 aggregates are added and the
//! window moves 32 tiles back. Publishes nothing (decoupled_look_back does; in stage 8 the
//! aggregate comes from another warp).
//! @tparam T float, double or int
//! @tparam Status PackedTileStatus or SplitTileStatus
//! @tparam Spin SpinWait (spin on the load) or SpinBackoff (__nanosleep between loads)
//! @param[in] status the tile status
//! @param[in] tile this tile's index, > 0
//! @return in every lane: the exclusive prefix of the tile
//! Source: Merrill and Garland 2016, section 4.
template <class T, class Status, class Spin = SpinWait>
__device__ __forceinline__ T look_back_exclusive(const Status& status, unsigned tile) {
  const unsigned lane = threadIdx.x % 32;
  T exclusive = T(0);
  long long window = static_cast<long long>(tile) - 1;  // the predecessor lane 0 reads
  while (true) {
    const long long pred = window - static_cast<long long>(lane);
    TileState<T> s{kTileInclusive, T(0)};  // before tile 0: the identity, never reached in practice
    if (pred >= 0) {
      if constexpr (std::is_same_v<Spin, SpinWait>) {
        do {
          s = status.load(static_cast<std::size_t>(pred));
        } while (s.flag == kTileInvalid);  // its block has its tile index, so it will publish
      } else {
        unsigned ns = 0;
        while (true) {
          s = status.load(static_cast<std::size_t>(pred));
          if (s.flag != kTileInvalid) break;
          Spin::pause(ns);
        }
      }
    }
    const unsigned inclusive_lanes = __ballot_sync(kFullMask, s.flag == kTileInclusive);
    // The nearest INCLUSIVE predecessor is the lowest such lane; lanes past it do not count.
    const unsigned stop = inclusive_lanes != 0 ? __ffs(inclusive_lanes) - 1 : 31;
    exclusive = warp_sum(lane <= stop ? s.value : T(0)) + exclusive;
    if (inclusive_lanes != 0) break;
    window -= 32;
  }
  return exclusive;
}

//! Decoupled look-back, run by the 32 lanes of one warp: publishes `aggregate` for `tile`, finds
//! the sum of all tiles before it from their status (look_back_exclusive), publishes the inclusive
//! prefix.
//! @tparam T float, double or int
//! @tparam Status PackedTileStatus or SplitTileStatus
//! @tparam Spin SpinWait or SpinBackoff
//! @param[in] status the tile status
//! @param[in] tile this tile's index
//! @param[in] aggregate this tile's total (the same in every lane)
//! @return in every lane: the exclusive prefix of the tile (0 for tile 0)
//! Source: Merrill and Garland 2016, section 4.
template <class T, class Status, class Spin = SpinWait>
__device__ __forceinline__ T decoupled_look_back(const Status& status, unsigned tile, T aggregate) {
  const unsigned lane = threadIdx.x % 32;
  if (tile == 0) {
    if (lane == 0) status.publish(0, kTileInclusive, aggregate);
    return T(0);
  }
  if (lane == 0) status.publish(tile, kTileAggregate, aggregate);
  const T exclusive = look_back_exclusive<T, Status, Spin>(status, tile);
  if (lane == 0) status.publish(tile, kTileInclusive, exclusive + aggregate);
  return exclusive;
}

//! Takes the block's tile index from the counter: thread 0 does the atomicAdd, one barrier hands
//! it to every thread. Every thread must call it, once per kernel.
//! @param[in,out] tile_counter zeroed before the launch
__device__ __forceinline__ unsigned take_tile_index(unsigned* tile_counter) {
  __shared__ unsigned tile_index;
  if (threadIdx.x == 0) tile_index = atomicAdd(tile_counter, 1u);
  __syncthreads();
  return tile_index;
}

//! Warp 0 runs decoupled_look_back for the block's tile; one barrier hands the tile's exclusive
//! prefix to every thread. Every thread must call it, once per kernel.
//! @param[in] status the tile status
//! @param[in] tile this block's tile
//! @param[in] block_total the tile's total (the same in every thread of warp 0)
//! @return the sum of all tiles before this one, in every thread
//! @tparam Spin SpinWait (the default) or SpinBackoff
template <class T, class Status, class Spin = SpinWait>
__device__ __forceinline__ T block_look_back(const Status& status, unsigned tile, T block_total) {
  __shared__ T tile_exclusive;
  if (threadIdx.x < 32) {
    const T e = decoupled_look_back<T, Status, Spin>(status, tile, block_total);
    if (threadIdx.x == 0) tile_exclusive = e;
  }
  __syncthreads();
  return tile_exclusive;
}

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

//! Longest addition chain of a look-back scan: the tile's own chain, plus, in the worst case, a
//! chain through every tile before it (each hop: a 5-level warp sum, one add to the running
//! exclusive prefix, one add of the aggregate).
inline double look_back_depth(double tile_depth, std::size_t tiles) {
  return tile_depth + 7.0 * static_cast<double>(tiles);
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
