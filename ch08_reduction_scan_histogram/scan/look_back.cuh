//! @file look_back.cuh
//! @brief The decoupled look-back of the single-pass scans (stages 4 to 8): a warp finds the sum of
//! every tile before its own from the predecessors' published status (look_back_exclusive),
//! publishes its tile's aggregate and inclusive prefix around it (decoupled_look_back), and hands
//! the prefix to its block (block_look_back); how a lane waits on a status still INVALID (SpinWait,
//! SpinBackoff).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "block_scan.cuh"
#include "tile_status.cuh"

namespace ch08 {

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
//! @tparam Status PackedTileStatus or WideTileStatus
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
//! @tparam Status PackedTileStatus or WideTileStatus
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

}  // namespace ch08
