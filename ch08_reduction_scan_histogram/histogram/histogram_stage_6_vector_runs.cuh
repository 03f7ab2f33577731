//! @file histogram_stage_6_vector_runs.cuh
//! @brief Histogram stage 6: a 16-byte vector whose samples all fall in one bin is counted with
//! one add. Runs in the data cost one counter update instead of sixteen.
//!
//! Changed against stage 5: before counting a vector sample by sample, the thread checks whether
//! every sample of it has the same bin; if so it adds kSamplesPerVector (16 for 8-bit samples, 4
//! for int and float) to that bin's byte counter at once (stage 5's ThreadCounters::add, with its
//! spill when the byte passes 255). For 8-bit samples with 256 bins over [0, 256) the check
//! compares the four words of the vector with the first byte repeated (__byte_perm): five
//! instructions per sixteen samples. Other maps compare the computed bins. Random data almost
//! never has a uniform vector (probability 256^-15), so it pays only the check; data with runs
//! (one hot bin, flat image regions, sorted keys) skips most of the shared-memory traffic.
//! What the profiler shows against stage 5 (scripts/maintainers/check_profile_claims.py, 5 -> 6; the figures:
//! README.md): on one-bin data shared loads and stores fall by almost half (the loop's per-byte
//! increments become one per vector; the fold still reads every counter) and so does the kernel
//! time; on uniform data the counters do not move. On one-bin data the time nears the streaming
//! read's: compare stage 6's row with the streaming read's in
//! docs/results/H200/ch08/histogram/histogram_ladder_2e30_uint8_one-bin.md.
//! Shared memory: stage 5's, bins x Block + 4 x bins bytes per block; like stage 5 it runs at block
//! 256 where the GPU gives a block 66,560 bytes, else at 128 (33,792 bytes: a T4).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_vector_loads.cuh"
#include "kernel_support.cuh"
#include "stage.hpp"
#include "thread_counters.cuh"

namespace ch08 {

//! The first sample (lowest address) of a 16-byte vector.
template <class T>
__device__ __forceinline__ T first_in_vector(const uint4& v) {
  if constexpr (std::is_same_v<T, unsigned char>) {
    return static_cast<unsigned char>(v.x & 0xFFu);
  } else if constexpr (std::is_same_v<T, float>) {
    return __uint_as_float(v.x);
  } else {
    return static_cast<int>(v.x);
  }
}

//! Counts one 16-byte vector into per-thread counters, with one add when all its samples share a bin.
//! @tparam T sample type; @tparam Map bin map; @tparam Block threads per block
template <class T, class Map, int Block>
__device__ __forceinline__ void count_vector_with_runs(const uint4& v, const Map& map,
                                                       const ThreadCounters<Block>& counters) {
  constexpr int S = kSamplesPerVector<T>;
  if constexpr (std::is_same_v<Map, harness::IdentityBins>) {
    // bin = byte: the vector is one run when all 16 bytes equal byte 0.
    const unsigned rep = __byte_perm(v.x, 0, 0x0000);  // byte 0 in all four byte lanes
    if (v.x == rep && v.y == rep && v.z == rep && v.w == rep) {
      counters.add(static_cast<int>(v.x & 0xFFu), S);
      return;
    }
    for_each_in_vector<T>(v, [&](T x) { counters.add(harness::bin_of(map, x), 1u); });
  } else {
    // Other maps: the bin of the vector's first sample, then whether every sample has that bin.
    const int first = harness::bin_of(map, first_in_vector<T>(v));
    bool same = first >= 0;
    for_each_in_vector<T>(v, [&](T x) { same = same && harness::bin_of(map, x) == first; });
    if (same) {
      counters.add(first, S);
      return;
    }
    for_each_in_vector<T>(v, [&](T x) {
      const int bin = harness::bin_of(map, x);
      if (bin >= 0) counters.add(bin, 1u);
    });
  }
}

//! Stage 6: stage 5 plus one add per single-bin vector.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (histogram_bins.cuh), at most kThreadCounterMaxBins bins
//! @tparam Block threads per block, 32 .. 256
//! @param[in] in n samples (aligned to sizeof(T))
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in,out] out map.count() 64-bit counters, zeroed before the launch
//! Launch: as stage 5.
template <class T, class Map, int Block>
__global__ void __launch_bounds__(Block) histogram_stage_6(const T* __restrict__ in, std::size_t n,
                                                           Map map, harness::Count* __restrict__ out) {
  extern __shared__ unsigned smem[];
  const ThreadCounters<Block> counters(smem, map.count());
  counters.zero();
  __syncthreads();
  for_each_vector(
      in, n, [&](const uint4& v) { count_vector_with_runs<T>(v, map, counters); },
      [&](T x) {
        const int bin = harness::bin_of(map, x);
        if (bin >= 0) counters.add(bin, 1u);
      });
  __syncthreads();
  counters.fold(out);
}

//! Calls `f(kernel, T{}, map, smem_bytes)` with stage 6's kernel at the arguments' type, range and block.
template <class F>
void with_stage_6_kernel(const harness::HistogramArgs& a, F&& f) {
  with_thread_counter_config(a, [&](auto t, auto map, auto block, std::size_t smem) {
    f(histogram_stage_6<decltype(t), decltype(map), decltype(block)::value>, t, map, smem);
  });
}

//! Grid of stage 6: resident blocks of its kernel with its shared memory, at most one vector per thread.
inline std::size_t histogram_stage_6_grid(const harness::HistogramArgs& a) {
  return harness::resident_grid(a, samples_per_vector(a), [](const auto& args, auto&& f) { with_stage_6_kernel(args, f); });
}

//! Zeroes the histogram and launches stage 6.
inline void launch_histogram_stage_6(const harness::HistogramArgs& a) {
  const std::size_t grid = histogram_stage_6_grid(a);
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  with_stage_6_kernel(a, [&](auto kernel, auto t, auto map, std::size_t smem) {
    using T = decltype(t);
    harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
    kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, a.output<harness::Count>());
  });
}

//! Stage 6 as the harness sees it.
inline harness::Stage<harness::Histogram> histogram_stage_6_stage() {
  harness::Stage<harness::Histogram> s;
  s.name = "histogram_stage_6";
  s.label = "one add per single-bin vector";
  s.change = "a 16-byte vector whose samples share one bin is counted with one add instead of one per sample";
  s.source = "beyond the chapter: run-length counting (as CUB's RLE-compressed accumulation, per vector)";
  s.types = {harness::DType::u8, harness::DType::i32, harness::DType::f32};
  s.min_block = 32;
  s.max_block = kThreadCounterMaxBlock;
  s.grid_stride = true;
  s.deterministic = true;
  s.caps.max_bins = kThreadCounterMaxBins;
  s.shared_bytes = thread_counter_smem;
  s.grid_for = histogram_stage_6_grid;
  s.launch = launch_histogram_stage_6;
  return s;
}

}  // namespace ch08
