//! @file histogram_stage_1_privatised.cuh
//! @brief Histogram stage 1 (chapter 8, section 8.8, "Histogram: Privatisation"): each block counts
//! into its own histogram in shared memory and folds it into the global histogram once.
//!
//! Changed against stage 0: a sample's atomicAdd goes to a 32-bit counter in the block's shared
//! memory, not to global memory. After a barrier, thread b adds the block's count of bin b to the
//! global counter, so global atomics fall from one per sample to one per (block, bin). The loop is
//! the chapter's grid-stride loop; by default the grid still has one thread per sample (capped at
//! 2^31 - 1 blocks), so each block counts `block` samples and then folds `bins` counters: the fold
//! is as large as the counting. `--grid` changes that (a student's experiment for exercise 4).
//!
//! Exercise 4 (is skipping empty bins in the fold correct, and always faster?): both forms are
//! here, chosen by `--skip-empty on|off` in the program. Skipping is correct: adding 0 changes
//! nothing. It saves one global atomic per empty bin at the cost of one comparison per bin; when
//! every bin is non-empty (uniform data and many samples per block) it saves nothing, and the
//! branch is pure overhead. With one sample per thread and uniform 8-bit data a block of 256
//! samples leaves about 256 (255/256)^256 = 94 of 256 bins empty; with one-bin data, 255 of them.
//!
//! What the profiler shows against stage 0 (the profile claims,
//! docs/results/H100/profile/ch08-histogram_profile_claims.md):
//! global atomics fall from n to (grid x bins) (fewer with the skip); shared-memory atomics (ATOMS)
//! appear, one per sample. On uniform data a warp's 32 random bins collide on banks: several
//! shared-memory wavefronts per atomic instruction. When all 32 lanes hit one counter (one-bin data)
//! the instruction takes one wavefront, not 32 (the hardware does not replay it lane by lane), and at
//! the same grid one-bin data is no slower than uniform data.
//! Shared counters are 32-bit: no block is given more than 2^31 samples (histogram_grid.hpp).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_one_per_thread_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "kernel_support.cuh"
#include "stage.hpp"

namespace ch08 {

//! Stage 1: a privatised histogram per block in shared memory, folded into global memory once.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (histogram_bins.cuh)
//! @tparam SkipEmpty fold only the bins whose block count is non-zero (the chapter's `if`)
//! @param[in] in n samples
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in,out] out map.count() 64-bit counters, zeroed before the launch
//! Launch: any grid; dynamic shared memory map.count() * 4 bytes. Barriers per block: 2.
//! Source: chapter 8, section 8.8, histogramPrivatised; exercise 4.
template <class T, class Map, bool SkipEmpty>
__global__ void histogram_stage_1(const T* __restrict__ in, std::size_t n, Map map,
                                  harness::Count* __restrict__ out) {
  extern __shared__ unsigned s_hist[];  // this block's private histogram
  const int bins = map.count();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();  // every counter zeroed before any thread counts

  for (std::size_t i = harness::global_thread_id(); i < n; i += harness::grid_threads()) {
    const int bin = harness::bin_of(map, in[i]);
    if (bin >= 0) atomicAdd(&s_hist[bin], 1u);
  }
  __syncthreads();  // every count done before the fold reads them

  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    const unsigned count = s_hist[b];
    if (!SkipEmpty || count != 0) atomicAdd(&out[b], harness::Count{count});
  }
}

//! Shared memory of stage 1: the block's histogram, `bins` 32-bit counters (dynamic; no static
//! shared memory), whatever the block size.
inline std::size_t privatised_smem(const harness::HistogramArgs& a) {
  return static_cast<std::size_t>(a.bins) * sizeof(unsigned);
}

//! Zeroes the histogram and launches stage 1 with or without the empty-bin skip.
inline void launch_histogram_stage_1(const harness::HistogramArgs& a, bool skip_empty) {
  const std::size_t grid = histogram_one_per_thread_grid(a);
  const std::size_t smem = privatised_smem(a);
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) {
      auto run = [&](auto kernel) {
        harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
        kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, a.output<harness::Count>());
      };
      if (skip_empty) run(histogram_stage_1<T, decltype(map), true>);
      else run(histogram_stage_1<T, decltype(map), false>);
    });
  });
}

//! Stage 1 as the harness sees it, with the chapter's empty-bin skip (`skip_empty`) or without.
inline harness::Stage<harness::Histogram> histogram_stage_1_stage(bool skip_empty = true) {
  harness::Stage<harness::Histogram> s;
  s.name = skip_empty ? "histogram_stage_1" : "histogram_stage_1_fold_all";
  s.label = skip_empty ? "privatised (skip empty bins)" : "privatised (fold every bin)";
  s.change = "each block counts into its own shared-memory histogram with shared atomics and folds it into global memory once";
  s.source = "chapter 8, section 8.8; exercise 4";
  s.types = {harness::DType::u8, harness::DType::i32, harness::DType::f32};
  s.min_block = 32;
  s.max_block = 1024;
  s.grid_stride = true;
  s.deterministic = true;
  // One 32-bit counter per bin, whatever the block: the device's shared memory per block decides
  // how many bins fit (16,384 on a T4, 58,112 on an H200), checked before any launch; past that no
  // block size helps, and stage 0 (global atomics) counts any number of bins.
  s.shared_bytes = privatised_smem;
  s.instead = "histogram_stage_0";
  s.grid_for = histogram_one_per_thread_grid;
  if (skip_empty) s.launch = [](const harness::HistogramArgs& a) { launch_histogram_stage_1(a, true); };
  else s.launch = [](const harness::HistogramArgs& a) { launch_histogram_stage_1(a, false); };
  return s;
}

}  // namespace ch08
