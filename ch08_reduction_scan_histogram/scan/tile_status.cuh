//! @file tile_status.cuh
//! @brief What the single-pass scans (stages 4 to 8) publish per tile and how: a flag and a value
//! per tile (INVALID, AGGREGATE, INCLUSIVE), stored with release and read with acquire semantics
//! (or as one 64-bit word for 4-byte types); the workspace they live in; the tile counter a block
//! takes its tile from; a warp's sum; and, for scan stage 9, a status whose words carry the run's
//! epoch (EpochTileStatus) and the run word a block takes its tile and that epoch from
//! (take_run_ticket), so that no launch has to zero anything. The look-back that reads them is in
//! look_back.cuh.
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "block_scan.cuh"
#include "scan_support.cuh"
#include "tile_flags.cuh"

namespace ch08 {

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

//! Takes the block's tile index from the counter: thread 0 does the atomicAdd, one barrier hands
//! it to every thread. Every thread must call it, once per kernel.
//! @param[in,out] tile_counter zeroed before the launch
__device__ __forceinline__ unsigned take_tile_index(unsigned* tile_counter) {
  __shared__ unsigned tile_index;
  if (threadIdx.x == 0) tile_index = atomicAdd(tile_counter, 1u);
  __syncthreads();
  return tile_index;
}

// ---- Status words tagged with the run's epoch (scan stage 9: nothing zeroed between runs) ------
// The tags, the epochs and why no stale or garbage word passes for a current one: tile_flags.cuh.

//! Tile status tagged with the run's epoch, at a place per tile that does not depend on the number
//! of tiles (runs of different sizes share one workspace): one 64-bit word per tile for 4-byte types
//! (tag in the high 32 bits, value bits in the low 32, one relaxed 64-bit store or load, as
//! PackedTileStatus); three for double (the tag word, then the aggregate and the inclusive slots:
//! value first, then the tag with release; the reader acquires the tag, then reads the slot it
//! names, as SplitTileStatus).
//! @tparam T float, double or int
template <class T>
struct EpochTileStatus {
  //! 64-bit words per tile.
  static constexpr std::size_t kWords = sizeof(T) == 4 ? 1 : 3;
  unsigned long long* words;  //!< kWords words per tile
  unsigned epoch;             //!< the run's epoch (next_epoch of the run word's)

  //! Bytes for `tiles` tiles.
  static std::size_t bytes(std::size_t tiles) { return tiles * kWords * sizeof(unsigned long long); }
  //! Tiles whose status fits in `bytes` bytes.
  static std::size_t capacity(std::size_t bytes) { return bytes / (kWords * sizeof(unsigned long long)); }

  //! Publishes `value` with `flag` for `tile`, tagged with this run's epoch.
  __device__ void publish(std::size_t tile, unsigned flag, T value) const {
    unsigned long long* w = words + tile * kWords;
    const unsigned long long tag = static_cast<unsigned long long>(epoch_tag(epoch, flag)) << 32;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(w[0]);
    if constexpr (sizeof(T) == 4) {
      unsigned bits;
      std::memcpy(&bits, &value, sizeof bits);
      word.store(tag | bits, cuda::memory_order_relaxed);
    } else {
      std::memcpy(&w[flag == kTileAggregate ? 1 : 2], &value, sizeof value);
      word.store(tag, cuda::memory_order_release);
    }
  }
  //! Reads the flag of `tile` in this run (INVALID unless this run published it) and its value.
  __device__ TileState<T> load(std::size_t tile) const {
    unsigned long long* w = words + tile * kWords;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(w[0]);
    TileState<T> s{kTileInvalid, T(0)};
    if constexpr (sizeof(T) == 4) {
      const unsigned long long x = word.load(cuda::memory_order_relaxed);
      s.flag = flag_in_epoch(static_cast<unsigned>(x >> 32), epoch);
      const unsigned bits = static_cast<unsigned>(x);
      if (s.flag != kTileInvalid) std::memcpy(&s.value, &bits, sizeof bits);
    } else {
      s.flag = flag_in_epoch(static_cast<unsigned>(word.load(cuda::memory_order_acquire) >> 32), epoch);
      if (s.flag != kTileInvalid) std::memcpy(&s.value, &w[s.flag == kTileAggregate ? 1 : 2], sizeof s.value);
    }
    return s;
  }
  //! Clears the tag of `tile` (INVALID in every epoch).
  __device__ void clear(std::size_t tile) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile * kWords]);
    word.store(0ull, cuda::memory_order_relaxed);
  }
};

//! What a block learns from the run word: its tile and the run's epoch.
struct RunTicket {
  unsigned tile;   //!< this block's tile: the count of tiles taken before it in this run (kNoTile: none)
  unsigned epoch;  //!< this run's epoch, the same in every block of the run
};

//! No tile: past every grid (stage 8's producer when the counter has passed the last tile; stage 9's
//! block whose run word was not one a complete launch leaves).
inline constexpr unsigned kNoTile = 0xFFFFFFFFu;

//! Takes the block's tile and the run's epoch from the run word (layout above). Thread 0 adds
//! kTicketStep (one atomic: every block of the run reads the same epoch with its tile); when the
//! two counts it read differ, the word was not left by a launch and the block gets kNoTile. The
//! block that takes the last tile (gridDim.x - 1: every other block has taken its tile) takes
//! gridDim.x back off both counts and moves the epoch to this run's, in one more atomic add: the
//! word the next launch starts from. One barrier hands the ticket to every thread. Every thread
//! must call it, once per kernel; gridDim.x <= kMaxRunTiles.
//! @param[in,out] run_word zero before the first launch on a workspace; left ready for the next
//! @return in every thread: the block's tile (kNoTile: none) and the run's epoch
__device__ __forceinline__ RunTicket take_run_ticket(unsigned long long* run_word) {
  __shared__ RunTicket ticket;
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(*run_word);
    const unsigned long long before = word.fetch_add(kTicketStep, cuda::memory_order_relaxed);
    const unsigned count = static_cast<unsigned>(before & kRunCountMask);
    const unsigned check = static_cast<unsigned>((before >> 24) & kRunCountMask);
    const unsigned last_epoch = static_cast<unsigned>(before >> kRunEpochShift);
    RunTicket t{count == check ? count : kNoTile, next_epoch(last_epoch)};
    if (t.tile == gridDim.x - 1) {
      // Both counts back by the grid (they hold gridDim.x or more now: no borrow), the epoch from
      // last_epoch to this run's (the top field: its carry leaves the word).
      const unsigned long long epoch_step = static_cast<unsigned long long>(t.epoch - last_epoch) << kRunEpochShift;
      word.fetch_add(epoch_step - gridDim.x * kTicketStep, cuda::memory_order_relaxed);
    }
    ticket = t;
  }
  __syncthreads();
  return ticket;
}

//! Longest addition chain of a look-back scan: the tile's own chain, plus, in the worst case, a
//! chain through every tile before it (each hop: a 5-level warp sum, one add to the running
//! exclusive prefix, one add of the aggregate).
inline double look_back_depth(double tile_depth, std::size_t tiles) {
  return tile_depth + 7.0 * static_cast<double>(tiles);
}

}  // namespace ch08
