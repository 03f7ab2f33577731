//! @file thread_counters.cuh
//! @brief Per-thread 8-bit counters with 32-bit spill counters in shared memory (ThreadCounters),
//! their shared memory, and the dispatch over sample type, bin range and block size that stages 5
//! and 6 launch through (with_thread_counter_config).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "errors.hpp"
#include "histogram_bins.cuh"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "kernel_support.cuh"

namespace ch08 {

//! Most bins of the per-thread counter stages (5 and 6).
inline constexpr int kThreadCounterMaxBins = 256;
//! Largest block of the per-thread counter stages (66,560 bytes of shared memory at 256 bins).
inline constexpr int kThreadCounterMaxBlock = 256;

//! Bytes of shared memory of per-thread counters for `bins` bins at `block` threads: ceil(bins / 4)
//! rows of `block` 32-bit words (one byte per bin per thread) and `bins` 32-bit spill counters,
//! bins x block + 4 x bins bytes when bins is a multiple of 4 (66,560 at 256 bins and block 256).
__host__ __device__ inline std::size_t thread_counter_bytes(int block, int bins) {
  return (static_cast<std::size_t>(bins) + 3) / 4 * static_cast<std::size_t>(block) * sizeof(unsigned) +
         static_cast<std::size_t>(bins) * sizeof(unsigned);
}

//! Per-thread 8-bit counters with 32-bit spill counters, in shared memory.
//! Layout: `rows = ceil(bins / 4)` rows of Block words; word (r, t) = words[r * Block + t] holds
//! thread t's counters of bins 4r .. 4r + 3 (byte bin % 4); then `bins` 32-bit spill counters.
//! @tparam Block threads per block (blockDim.x), a power of two from 32 to 256
template <int Block>
struct ThreadCounters {
  unsigned char* bytes;  //!< the counters, viewed as bytes
  unsigned* spill;       //!< 256 per wrap of a thread's byte counter, per bin
  int bins;              //!< number of bins

  //! Words of counters for `bins` bins.
  static __host__ __device__ std::size_t rows(int bins) { return static_cast<std::size_t>(bins + 3) / 4; }
  //! Bytes of shared memory for `bins` bins.
  static __host__ __device__ std::size_t smem_bytes(int bins) { return thread_counter_bytes(Block, bins); }
  //! Views `smem` (smem_bytes(bins) bytes) as the counters.
  __device__ __forceinline__ ThreadCounters(unsigned* smem, int bins_)
      : bytes(reinterpret_cast<unsigned char*>(smem)),
        spill(smem + rows(bins_) * Block),
        bins(bins_) {}
  //! Every thread zeroes its own words and a share of the spills; a barrier must follow.
  __device__ __forceinline__ void zero() const {
    unsigned* words = reinterpret_cast<unsigned*>(bytes);
    const int r = static_cast<int>(rows(bins));
    for (int k = 0; k < r; ++k) words[k * Block + threadIdx.x] = 0;
    for (int b = threadIdx.x; b < bins; b += Block) spill[b] = 0;
  }
  //! Address of the calling thread's counter of `bin`: byte (bin % 4) of word (bin / 4, t).
  __device__ __forceinline__ unsigned char* counter(int bin) const {
    return bytes + ((((bin >> 2) * Block + static_cast<int>(threadIdx.x)) << 2) | (bin & 3));
  }
  //! Adds `k` (1 .. 255) samples to bin `bin` (>= 0) of the calling thread's counters.
  __device__ __forceinline__ void add(int bin, unsigned k) const {
    unsigned char* c = counter(bin);
    const unsigned sum = *c + k;
    *c = static_cast<unsigned char>(sum);           // the low 8 bits stay in the byte
    if (sum > 255u) atomicAdd(&spill[bin], 256u);   // the carry goes to the spill counter
  }
  //! After a barrier: warp w folds bins w, w + Block/32, ...: the bytes of every thread plus the
  //! spill, one global atomic per non-empty bin. The total is the block's count: below 2^32.
  __device__ __forceinline__ void fold(harness::Count* out) const {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int b = warp; b < bins; b += Block / 32) {
      unsigned sum = 0;
      for (int t = lane; t < Block; t += 32) sum += bytes[(((b >> 2) * Block + t) << 2) | (b & 3)];
      sum = harness::warp_sum_unsigned(sum);
      if (lane == 0) {
        sum += spill[b];
        if (sum != 0) atomicAdd(&out[b], harness::Count{sum});
      }
    }
  }
};

//! Calls `f(T{}, map, block_constant, smem_bytes)` at the arguments' sample type, range and block
//! size (32 .. 256), with the shared memory of ThreadCounters<Block> at their bins; `f` picks the
//! stage's kernel `kernel<T, Map, Block>` from them. Shared by stages 5 and 6.
//! @throws UsageError for a block size outside 32 .. 256
template <class F>
void with_thread_counter_config(const harness::HistogramArgs& a, F&& f) {
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) {
      harness::with_block_size(a.block, [&](auto block) {
        constexpr int kBlock = decltype(block)::value;
        if constexpr (kBlock <= kThreadCounterMaxBlock) {
          f(t, map, block, ThreadCounters<kBlock>::smem_bytes(a.bins));
        } else {
          throw harness::UsageError("per-thread counters take blocks of at most 256 threads");
        }
      });
    });
  });
}

//! Shared memory of the per-thread counter stages (5 and 6) at the arguments' block and bins: what
//! their launch asks for (ThreadCounters<Block>::smem_bytes; they declare no static shared memory).
inline std::size_t thread_counter_smem(const harness::HistogramArgs& a) {
  return thread_counter_bytes(a.block, a.bins);
}

}  // namespace ch08
