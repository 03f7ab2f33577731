//! @file histogram_stage_2_per_warp.cuh
//! @brief Histogram stage 2 (chapter 8, section 8.8, "the next-level fix is per-warp histograms"):
//! every warp of a block counts into its own sub-histogram in shared memory.
//!
//! Changed against stage 1: the block's shared memory holds one histogram per warp (warps x bins
//! 32-bit counters); a lane's atomicAdd goes to its own warp's copy, so two warps never update the
//! same counter. The fold adds the warps' copies of bin b (conflict-free reads: consecutive threads,
//! consecutive bins) and issues one global atomic per non-empty bin, as stage 1's default. The grid
//! is stage 1's (one thread per sample unless --grid says otherwise).
//! What the profiler shows against stage 1 (the profile claims,
//! docs/results/H100/profile/ch08-histogram_profile_claims.md):
//! the same number of shared atomics; shared memory per block grows warps-fold and the fold reads
//! warps x bins counters (at one thread per sample, 8 times stage 1's shared loads). On one-bin
//! data the chapter expects less contention; the counters show none to remove: stage 1's warp
//! already takes one wavefront per atomic instruction with its 32 lanes on one counter, stage 2 the
//! same, and the time does not fall (FAIL (not required) in the claims). What does remove the
//! shared atomics is stage 5's per-thread counters.
//! Shared counters are 32-bit: no block is given more than 2^31 samples (histogram_grid.hpp).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "histogram_one_per_thread_grid.hpp"
#include "kernel_support.cuh"
#include "stage.hpp"
#include "warp_histograms.cuh"

namespace ch08 {

//! Stage 2: per-warp sub-histograms in shared memory, grid-stride over the samples.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (histogram_bins.cuh)
//! @param[in] in n samples
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in,out] out map.count() 64-bit counters, zeroed before the launch
//! Launch: any grid; dynamic shared memory WarpHistograms::bytes(blockDim.x / 32, map.count()).
//! Barriers per block: 2. Source: chapter 8, section 8.8 (per-warp histograms for skewed data).
template <class T, class Map>
__global__ void histogram_stage_2(const T* __restrict__ in, std::size_t n, Map map,
                                  harness::Count* __restrict__ out) {
  extern __shared__ unsigned smem[];
  const WarpHistograms hist(smem, map.count());
  hist.zero();
  __syncthreads();
  for (std::size_t i = harness::global_thread_id(); i < n; i += harness::grid_threads()) {
    const int bin = harness::bin_of(map, in[i]);
    if (bin >= 0) hist.add(bin);
  }
  __syncthreads();
  hist.fold(out);
}

//! Calls `f(kernel, T{}, map, smem_bytes)` with stage 2's kernel at the arguments' type and range.
template <class F>
void with_stage_2_kernel(const harness::HistogramArgs& a, F&& f) {
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) { f(histogram_stage_2<T, decltype(map)>, t, map, per_warp_smem(a)); });
  });
}

//! Zeroes the histogram and launches stage 2's kernel on `grid` blocks.
//! @throws UsageError when the device cannot give a block warps x bins counters
inline void launch_per_warp(const harness::HistogramArgs& a, std::size_t grid) {
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  with_stage_2_kernel(a, [&](auto kernel, auto t, auto map, std::size_t smem) {
    using T = decltype(t);
    harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
    kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, a.output<harness::Count>());
  });
}

//! Launches stage 2: stage 1's grid (one thread per sample unless --grid).
inline void launch_histogram_stage_2(const harness::HistogramArgs& a) {
  launch_per_warp(a, histogram_one_per_thread_grid(a));
}

//! Stage 2 as the harness sees it.
inline harness::Stage<harness::Histogram> histogram_stage_2_stage() {
  harness::Stage<harness::Histogram> s;
  s.name = "histogram_stage_2";
  s.label = "per-warp sub-histograms";
  s.change = "one shared-memory histogram per warp instead of one per block, folded together at the end";
  s.source = "chapter 8, section 8.8 (per-warp histograms for skewed data)";
  s.types = {harness::DType::u8, harness::DType::i32, harness::DType::f32};
  s.min_block = 32;
  s.max_block = 1024;
  s.grid_stride = true;
  s.deterministic = true;
  // One copy per warp, block / 32 x bins x 4 bytes (8 KiB at block 256 and 256 bins): the device's
  // shared memory per block decides which block sizes and bins fit, checked before any launch (a
  // refusal names the largest block that fits; where not even block 32 does, stage 0 counts any
  // number of bins).
  s.shared_bytes = per_warp_smem;
  s.instead = "histogram_stage_0";
  s.grid_for = histogram_one_per_thread_grid;
  s.launch = launch_histogram_stage_2;
  return s;
}

}  // namespace ch08
