//! @file histogram_stage_0_global_atomics.cuh
//! @brief Histogram stage 0 (chapter 8, section 8.8, "the naive histogram of Chapter 5"): one
//! thread per sample, one global atomicAdd per counted sample.
//!
//! The starting point. Every thread computes its sample's bin (the shared bin function,
//! common/histogram/histogram_bins.cuh) and adds 1 to that bin's 64-bit counter in global memory.
//! Correct for every input: integer atomics give exact counts in any order.
//! What the profiler shows: one global atomic warp instruction per 32 samples and DRAM throughput
//! near zero (its % of peak: docs/results/H200/profile/ch08-histogram_profile_claims.md). On one-bin
//! data each lane's atomic is its own request to the L2 (one per sample; on uniform data the SMs
//! send fewer: docs/results/H100/profile/l2_atomic_requests.txt), and a counter lives in one L2
//! slice: on one-bin data that one slice counts every request the SMs send, where 256 counters
//! spread them over several slices, and one-bin data takes several times as long (the profile
//! claims, docs/results/H100/profile/ch08-histogram_profile_claims.md). Skewed data is the worst
//! case: compare stage 0's row of the one-bin and the uniform ladder at 2^30
//! (docs/results/H200/ch08/histogram/histogram_ladder_2e30_uint8_*.md).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cuda_check.hpp"
#include "errors.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "kernel_support.cuh"
#include "stage.hpp"

namespace ch08 {

//! Stage 0: thread i adds sample i to its bin with a global atomicAdd.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (IdentityBins, IntBins or FloatBins; see histogram_bins.cuh)
//! @param[in] in n samples
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in,out] out map.count() 64-bit counters, zeroed before the launch
//! Launch: ceil(n / blockDim.x) blocks of any power-of-two size; thread i reads sample i.
//! Source: chapter 8, section 8.8 (the naive histogram of chapter 5).
template <class T, class Map>
__global__ void histogram_stage_0(const T* __restrict__ in, std::size_t n, Map map,
                                  harness::Count* __restrict__ out) {
  const std::size_t i = harness::global_thread_id();
  if (i >= n) return;
  const int bin = harness::bin_of(map, in[i]);
  if (bin >= 0) atomicAdd(&out[bin], harness::Count{1});
}

//! Zeroes the histogram and launches stage 0: ceil(n / block) blocks.
//! @throws UsageError when that grid exceeds CUDA's 2^31 - 1 blocks
inline void launch_histogram_stage_0(const harness::HistogramArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  if (grid > harness::kMaxGridBlocks)
    throw harness::UsageError("histogram_stage_0 launches one thread per sample: n = " +
                              std::to_string(a.n) + " needs more than 2^31 - 1 blocks of " +
                              std::to_string(a.block) + "; use a larger --block");
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) {
      histogram_stage_0<T><<<grid, a.block, 0, a.stream>>>(a.input<T>(), a.n, map,
                                                         a.output<harness::Count>());
    });
  });
}

//! Stage 0 as the harness sees it.
inline harness::Stage<harness::Histogram> histogram_stage_0_stage() {
  harness::Stage<harness::Histogram> s;
  s.name = "histogram_stage_0";
  s.label = "global atomics";
  s.change = "the starting point: one global atomicAdd per sample";
  s.source = "chapter 8, section 8.8 (the naive histogram of chapter 5)";
  s.types = {harness::DType::u8, harness::DType::i32, harness::DType::f32};
  s.min_block = 32;
  s.max_block = 1024;
  s.grid_stride = false;
  s.deterministic = true;  // integer counts: the same bits whatever order the atomics run in
  s.caps.max_bins = 1 << 20;
  s.grid_for = [](const harness::HistogramArgs& a) { return harness::blocks_for(a.n, a.block); };
  s.launch = launch_histogram_stage_0;
  return s;
}

}  // namespace ch08
