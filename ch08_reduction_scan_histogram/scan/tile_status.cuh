//! @file tile_status.cuh
//! @brief What the single-pass scans (stages 4 to 8) publish per tile and how: a flag and a value
//! per tile (INVALID, AGGREGATE, INCLUSIVE) in one word, stored and read whole: 64 bits for 4-byte
//! types, 128 bits for double; the workspace they live in; the tile counter a block
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
#include "relaxed_128.cuh"
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

//! Tile status for 8-byte types: the flag (low 8 bytes) and the value bits (high 8 bytes) in one
//! 16-byte word per tile, published and read with single 128-bit accesses (relaxed), as
//! PackedTileStatus does with 64 bits for 4-byte types: a reader sees a flag with the value it was
//! published with, so one load per predecessor, and no fence, because nothing else is
//! communicated. Source: CUB's ScanTileState keeps a 16-byte {status, value} word for 8-byte types
//! too (cub/agent/single_pass_scan_operators.cuh).
//! @tparam T double
template <class T>
struct WideTileStatus {
  static_assert(sizeof(T) == 8, "flag and value share one 16-byte word");
  Word128* words;  //!< one word per tile, zeroed (INVALID) before the launch

  //! Bytes for `tiles` tiles.
  static std::size_t bytes(std::size_t tiles) { return tiles * sizeof(Word128); }
  //! Bytes from the start that the launch must zero: every word (its flag is in it).
  static std::size_t reset_bytes(std::size_t tiles) { return bytes(tiles); }
  //! The status over `tiles` tiles at `p` (256-byte aligned).
  static WideTileStatus at(unsigned char* p, std::size_t) { return {reinterpret_cast<Word128*>(p)}; }
  //! Publishes `value` with `flag` for `tile`: one 128-bit store.
  __device__ void publish(std::size_t tile, unsigned flag, T value) const {
    Word128 w{flag, 0ull};
    std::memcpy(&w.hi, &value, sizeof value);
    store_relaxed_128(words + tile, w);
  }
  //! Reads the flag and value of `tile`: one 128-bit load.
  __device__ TileState<T> load(std::size_t tile) const {
    const Word128 w = load_relaxed_128(words + tile);
    TileState<T> s;
    s.flag = static_cast<unsigned>(w.lo);
    std::memcpy(&s.value, &w.hi, sizeof s.value);
    return s;
  }
};

//! The tile status a type uses: one 64-bit word per tile for 4-byte types, one 128-bit word for double.
template <class T>
using TileStatus = std::conditional_t<sizeof(T) == 4, PackedTileStatus<T>, WideTileStatus<T>>;

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
//! PackedTileStatus); two for double (the tag word, tag in its high 32 bits, then the value bits:
//! one relaxed 128-bit store or load, as WideTileStatus).
//! @tparam T float, double or int
template <class T>
struct EpochTileStatus {
  //! 64-bit words per tile.
  static constexpr std::size_t kWords = sizeof(T) == 4 ? 1 : 2;
  unsigned long long* words;  //!< kWords words per tile (16-byte aligned for double)
  unsigned epoch;             //!< the run's epoch (next_epoch of the run word's)

  //! Bytes for `tiles` tiles.
  static std::size_t bytes(std::size_t tiles) { return tiles * kWords * sizeof(unsigned long long); }
  //! Tiles whose status fits in `bytes` bytes.
  static std::size_t capacity(std::size_t bytes) { return bytes / (kWords * sizeof(unsigned long long)); }

  //! Publishes `value` with `flag` for `tile`, tagged with this run's epoch.
  __device__ void publish(std::size_t tile, unsigned flag, T value) const {
    const unsigned long long tag = static_cast<unsigned long long>(epoch_tag(epoch, flag)) << 32;
    if constexpr (sizeof(T) == 4) {
      unsigned bits;
      std::memcpy(&bits, &value, sizeof bits);
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile]);
      word.store(tag | bits, cuda::memory_order_relaxed);
    } else {
      Word128 w{tag, 0ull};
      std::memcpy(&w.hi, &value, sizeof value);
      store_relaxed_128(reinterpret_cast<Word128*>(words) + tile, w);
    }
  }
  //! Reads the flag of `tile` in this run (INVALID unless this run published it) and its value.
  __device__ TileState<T> load(std::size_t tile) const {
    TileState<T> s{kTileInvalid, T(0)};
    if constexpr (sizeof(T) == 4) {
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile]);
      const unsigned long long x = word.load(cuda::memory_order_relaxed);
      s.flag = flag_in_epoch(static_cast<unsigned>(x >> 32), epoch);
      const unsigned bits = static_cast<unsigned>(x);
      if (s.flag != kTileInvalid) std::memcpy(&s.value, &bits, sizeof bits);
    } else {
      const Word128 w = load_relaxed_128(reinterpret_cast<const Word128*>(words) + tile);
      s.flag = flag_in_epoch(static_cast<unsigned>(w.lo >> 32), epoch);
      if (s.flag != kTileInvalid) std::memcpy(&s.value, &w.hi, sizeof s.value);
    }
    return s;
  }
  //! Clears the tag of `tile` (INVALID in every epoch).
  __device__ void clear(std::size_t tile) const {
    if constexpr (sizeof(T) == 4) {
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(words[tile]);
      word.store(0ull, cuda::memory_order_relaxed);
    } else {
      store_relaxed_128(reinterpret_cast<Word128*>(words) + tile, Word128{0ull, 0ull});
    }
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
