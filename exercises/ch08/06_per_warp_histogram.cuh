//! @file 06_per_warp_histogram.cuh
//! @brief Exercise ch08/06: per-warp histogram privatisation (exercise: fill in the TODO(student) parts).
//!
//! Goal: the histogram of section 8.8 with one private histogram per WARP in shared memory (the
//! chapter's "next-level fix" for skewed data). The block's shared memory holds warps x bins 32-bit
//! counters, warp w's copy at [w * bins, (w + 1) * bins); every lane counts its samples into its own
//! warp's copy with shared atomics, so two warps never update the same counter (given). You write
//! the fold: after the barrier, the block's count of bin b is the sum of the warps' copies of bin b;
//! add it to the global histogram with one atomicAdd per bin, skipping the bins the block never saw.
//! Builds on: histogram stage 2 (ch08_reduction_scan_histogram/histogram/histogram_stage_2_per_warp.cuh,
//! WarpHistograms::fold) and stage 1's fold (histogram_stage_1_privatised.cuh); the bin rule
//! (harness::bin_of), the grid (one thread per sample) and the launch are the chapter's.
//! Build and check: scripts/exercise.sh ch08/06
//!   (or: cmake --build build --target exercise_ch08_06 && ctest --test-dir build -L exercise -R ch08_06)
//! A right answer: every bin equal to the CPU's for every n, every block size 32..1024 (block 32 has
//! one warp, so a fold of copy 0 alone is right there and only there), uint8 / int / float samples,
//! uniform, one-bin and zipf data. The test then prints your GB/s next to the chapter's stage 1 (one
//! histogram per block) and stage 2 (the same idea as yours) on 2^26 uint8 samples, uniform and
//! one-bin (a report, not pass/fail): expect about stage 2's speed.
//!
//! Stuck? The solved file, with why it works: solutions/ch08/06_per_warp_histogram.cuh.
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

namespace ex08 {

//! Per-warp sub-histograms in shared memory, grid-stride over the samples, one fold per block.
//! Dynamic shared memory: (blockDim.x / 32) * map.count() * 4 bytes.
template <class T, class Map>
__global__ void ex06_kernel(const T* __restrict__ in, std::size_t n, Map map, harness::Count* __restrict__ out) {
  extern __shared__ unsigned smem[];  // warps x bins counters, warp w's copy at [w * bins, (w + 1) * bins)
  const int bins = map.count();
  const int warps = static_cast<int>(blockDim.x / 32);
  for (int k = threadIdx.x; k < warps * bins; k += blockDim.x) smem[k] = 0;
  __syncthreads();  // every copy zeroed before any thread counts

  unsigned* mine = smem + (threadIdx.x / 32) * bins;  // this warp's copy
  for (std::size_t i = harness::global_thread_id(); i < n; i += harness::grid_threads()) {
    const int bin = harness::bin_of(map, in[i]);
    if (bin >= 0) atomicAdd(&mine[bin], 1u);
  }
  __syncthreads();  // every count done before the fold reads them

  // TODO(student): the fold of the warps' copies into the global histogram. Hints:
  // exercises/README.md, exercise ch08/06. As written only warp 0's copy is folded: at block 32
  // (one warp) that is right, from block 64 on the samples the other warps counted are lost.
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    const unsigned count = smem[b];
    if (count != 0) atomicAdd(&out[b], harness::Count{count});
  }
}

//! Shared memory of ex06_kernel: (block / 32) x bins 32-bit counters (dynamic; no static shared memory).
inline std::size_t ex06_smem(const harness::HistogramArgs& a) {
  return static_cast<std::size_t>(a.block / 32) * static_cast<std::size_t>(a.bins) * sizeof(unsigned);
}

//! Zeroes the histogram and launches ex06_kernel on stage 1's grid (one thread per sample).
//! @throws UsageError when the device cannot give a block warps x bins counters
inline void launch_ex06(const harness::HistogramArgs& a) {
  const std::size_t grid = ch08::histogram_one_per_thread_grid(a);
  const std::size_t smem = ex06_smem(a);
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) {
      auto kernel = ex06_kernel<T, decltype(map)>;
      harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
      kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, a.output<harness::Count>());
    });
  });
}

//! The exercise as the harness runs it (stage 2's limits).
inline harness::Stage<harness::Histogram> ex06_stage() {
  harness::Stage<harness::Histogram> s;
  s.name = "ch08_06_per_warp_histogram";
  s.label = "exercise: per-warp sub-histograms";
  s.change = "one shared-memory histogram per warp, the warps' copies folded at the end";
  s.source = "exercises/ch08/06_per_warp_histogram.cuh";
  s.types = {harness::DType::u8, harness::DType::i32, harness::DType::f32};
  s.min_block = 32;
  s.max_block = 1024;
  s.grid_stride = true;
  s.deterministic = true;
  // (blockDim.x / 32) copies of the bins, what launch_ex06 asks for: the device's shared memory per
  // block decides which block sizes and bins fit, checked before any launch.
  s.shared_bytes = ex06_smem;
  s.instead = "histogram_stage_0";
  s.grid_for = ch08::histogram_one_per_thread_grid;
  s.launch = launch_ex06;
  return s;
}

}  // namespace ex08
