//! @file histogram_stage_4_vector_loads.cuh
//! @brief Histogram stage 4: 16-byte loads. Each thread reads 16 bytes at a time (sixteen 8-bit
//! samples, or four ints or floats) and keeps four such loads in flight before counting them.
//!
//! Changed against stage 3: the input is read as uint4 vectors in a grid-stride loop over vectors;
//! each round first issues kVectorsInFlight loads, then counts their samples into stage 2's
//! per-warp sub-histograms (WarpHistograms, warp_histograms.cuh). The few
//! samples before the first 16-byte boundary and after the last whole vector are counted one by one
//! by the first threads of the grid. Grid: resident blocks, as stage 3.
//! What the profiler should show against stage 3: global load instructions fall 16-fold for 8-bit
//! samples (4-fold for int and float) and each moves 16 bytes (LDG.E.128); shared atomics are
//! unchanged (one per sample); checked by scripts/maintainers/check_profile_claims.py (3 -> 4), with DRAM
//! throughput up and long-scoreboard stalls down (the figures: README.md, "What the profiler
//! shows"). At 2^28 its top stall on uniform data is MIO throttle (the shared-memory instruction
//! queue: the atomics), on one-bin data still long scoreboard (scripts/maintainers/step_causes.py).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "histogram_stage_2_per_warp.cuh"  // its Stage record, which stage 4 keeps but for grid and launch
#include "histogram_vector_loads.cuh"
#include "kernel_support.cuh"
#include "stage.hpp"
#include "warp_histograms.cuh"

namespace ch08 {

//! Stage 4: 16-byte loads, kVectorsInFlight per round, into per-warp sub-histograms.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (histogram_bins.cuh)
//! @param[in] in n samples (aligned to sizeof(T); any 16-byte alignment)
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in,out] out map.count() 64-bit counters, zeroed before the launch
//! Launch: any grid (default: resident blocks); dynamic shared memory as stage 2. Barriers: 2.
template <class T, class Map>
__global__ void histogram_stage_4(const T* __restrict__ in, std::size_t n, Map map,
                                  harness::Count* __restrict__ out) {
  extern __shared__ unsigned smem[];
  const WarpHistograms hist(smem, map.count());
  hist.zero();
  __syncthreads();
  auto count = [&](T x) {
    const int bin = harness::bin_of(map, x);
    if (bin >= 0) hist.add(bin);
  };
  for_each_vector(in, n, [&](const uint4& v) { for_each_in_vector<T>(v, count); }, count);
  __syncthreads();
  hist.fold(out);
}

//! Calls `f(kernel, T{}, map, smem_bytes)` with stage 4's kernel at the arguments' type and range.
template <class F>
void with_stage_4_kernel(const harness::HistogramArgs& a, F&& f) {
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) { f(histogram_stage_4<T, decltype(map)>, t, map, per_warp_smem(a)); });
  });
}

//! Grid of stage 4: resident blocks of its kernel with its shared memory.
inline std::size_t histogram_stage_4_grid(const harness::HistogramArgs& a) {
  return harness::resident_grid(a, samples_per_vector(a), [](const auto& args, auto&& f) { with_stage_4_kernel(args, f); });
}

//! Zeroes the histogram and launches stage 4's kernel on `grid` blocks (stage 4's own grid, or stage
//! 9's merge-balanced one).
inline void launch_per_warp_vectors(const harness::HistogramArgs& a, std::size_t grid) {
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  with_stage_4_kernel(a, [&](auto kernel, auto t, auto map, std::size_t smem) {
    using T = decltype(t);
    harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
    kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, a.output<harness::Count>());
  });
}

//! Zeroes the histogram and launches stage 4 on its grid.
inline void launch_histogram_stage_4(const harness::HistogramArgs& a) { launch_per_warp_vectors(a, histogram_stage_4_grid(a)); }

//! Stage 4 as the harness sees it.
inline harness::Stage<harness::Histogram> histogram_stage_4_stage() {
  harness::Stage<harness::Histogram> s = histogram_stage_2_stage();
  s.name = "histogram_stage_4";
  s.label = "16-byte loads";
  s.change = "each thread loads 16 bytes at a time (16 uint8 or 4 int/float samples), four loads in flight per round";
  s.source = "beyond the chapter: vectorised loads (CUDA C++ Best Practices Guide, coalesced access)";
  s.grid_for = histogram_stage_4_grid;
  s.launch = launch_histogram_stage_4;
  return s;
}

}  // namespace ch08
