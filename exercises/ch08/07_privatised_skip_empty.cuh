//! @file 07_privatised_skip_empty.cuh
//! @brief Exercise ch08/07: the privatised histogram with the empty-bin skip (exercise: fill in the TODO(student) parts).
//!
//! Goal: the histogram of section 8.8, "Histogram: Privatisation": each block counts its samples
//! into its own histogram in shared memory, then folds it into the global histogram once, skipping
//! the bins the block never saw (the chapter's `if (s_hist[b] != 0)`). Zeroing the shared counters
//! and the barriers are given; you write the two updates: the count of one sample into the shared
//! histogram and the fold of one bin into the global one. Decide for each whether it needs an
//! atomic, and why.
//! Builds on: histogram stage 1 (ch08_reduction_scan_histogram/histogram/histogram_stage_1_privatised.cuh,
//! --skip-empty on); the bin rule (harness::bin_of), the grid (one thread per sample) and the
//! launch are the chapter's.
//! Build and check: scripts/exercise.sh ch08/07
//!   (or: cmake --build build --target exercise_ch08_07 && ctest --test-dir build -L exercise -R ch08_07)
//! A right answer: every bin equal to the CPU's for every n, every block size 32..1024, uint8 / int /
//! float samples, uniform, one-bin and zipf data. The test then prints your GB/s next to the
//! chapter's stage 1 with and without the skip (histogram_stage_1, histogram_stage_1_fold_all) on
//! 2^26 uint8 samples, uniform and one-bin (a report, not pass/fail): the chapter's exercise 4 --
//! is skipping empty bins always faster? -- measured on your own kernel.
//!
//! Stuck? The solved file, with why it works: solutions/ch08/07_privatised_skip_empty.cuh.
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

//! One privatised histogram per block in shared memory (map.count() 32-bit counters), folded into
//! the global histogram once, skipping empty bins. Dynamic shared memory: map.count() * 4 bytes.
template <class T, class Map>
__global__ void ex07_kernel(const T* __restrict__ in, std::size_t n, Map map, harness::Count* __restrict__ out) {
  extern __shared__ unsigned s_hist[];  // this block's private histogram
  const int bins = map.count();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();  // every counter zeroed before any thread counts

  for (std::size_t i = harness::global_thread_id(); i < n; i += harness::grid_threads()) {
    const int bin = harness::bin_of(map, in[i]);
    // TODO(student): count the sample in the block's histogram. Hints: exercises/README.md,
    // exercise ch08/07. As written the count is a plain read-modify-write, and concurrent counts of
    // one bin are lost.
    if (bin >= 0) s_hist[bin] += 1u;
  }
  __syncthreads();  // every count done before the fold reads them

  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    const unsigned count = s_hist[b];
    // TODO(student): add the block's count of bin b to the global histogram, skipping the bins the
    // block never saw. Hints: exercises/README.md, exercise ch08/07. As written each block
    // overwrites out[b] with its own count, so only one block's samples survive (and empty bins are
    // written too).
    out[b] = harness::Count{count};
  }
}

//! Shared memory of ex07_kernel: the block's histogram, bins 32-bit counters (dynamic; no static
//! shared memory).
inline std::size_t ex07_smem(const harness::HistogramArgs& a) {
  return static_cast<std::size_t>(a.bins) * sizeof(unsigned);
}

//! Zeroes the histogram and launches ex07_kernel on stage 1's grid (one thread per sample).
inline void launch_ex07(const harness::HistogramArgs& a) {
  const std::size_t grid = ch08::histogram_one_per_thread_grid(a);
  const std::size_t smem = ex07_smem(a);
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) {
      auto kernel = ex07_kernel<T, decltype(map)>;
      harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
      kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, a.output<harness::Count>());
    });
  });
}

//! The exercise as the harness runs it (stage 1's limits).
inline harness::Stage<harness::Histogram> ex07_stage() {
  harness::Stage<harness::Histogram> s;
  s.name = "ch08_07_privatised_skip_empty";
  s.label = "exercise: privatised, skip empty bins";
  s.change = "each block counts into its own shared-memory histogram and folds its non-empty bins once";
  s.source = "exercises/ch08/07_privatised_skip_empty.cuh";
  s.types = {harness::DType::u8, harness::DType::i32, harness::DType::f32};
  s.min_block = 32;
  s.max_block = 1024;
  s.grid_stride = true;
  s.deterministic = true;
  s.shared_bytes = ex07_smem;  // bins x 4 bytes at any block: the device decides how many bins fit
  s.instead = "histogram_stage_0";
  s.grid_for = ch08::histogram_one_per_thread_grid;
  s.launch = launch_ex07;
  return s;
}

}  // namespace ex08
