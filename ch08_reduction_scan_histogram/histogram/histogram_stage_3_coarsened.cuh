//! @file histogram_stage_3_coarsened.cuh
//! @brief Histogram stage 3: thread coarsening. Stage 2's kernel, launched on one wave of resident
//! blocks instead of one thread per sample.
//!
//! Changed against stage 2: only the grid. It has as many blocks as the GPU holds at once (SM count
//! x resident blocks per SM from the occupancy calculator, with the kernel's dynamic shared memory;
//! never more than ceil(n / block)), and the grid-stride loop makes each thread count many samples.
//! Zeroing the sub-histograms, the two barriers and the fold (warps x bins shared reads and up to
//! `bins` global atomics) are now paid once per block of about n / grid samples instead of once per
//! `block` samples. The kernel is stage 2's (included from histogram_stage_2_per_warp.cuh).
//! What the profiler should show against stage 2: far fewer blocks (about a thousand instead of
//! n / block); global atomics fall by the same factor, to about grid x bins; shared atomics stay
//! one per sample; DRAM throughput rises (these three: scripts/maintainers/check_profile_claims.py,
//! 2 -> 3; the GPUs it ran on: docs/results/README.md). Open, not claimed: do the shared atomics
//! become the limiter ("MIO Throttle" / "Short Scoreboard" stalls, ATOMS bank conflicts on random
//! bins)? scripts/maintainers/step_causes.py's stalls would say; look at this stage's top stall in
//! the profile table (docs/results/H100/profile/ch08-histogram_profile_claims.md).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_stage_2_per_warp.cuh"  // the kernel, WarpHistograms, launch_per_warp
#include "kernel_support.cuh"
#include "stage.hpp"

namespace ch08 {

//! Default grid of stage 3: the blocks of stage 2's kernel resident at once (with its shared
//! memory), at most ceil(n / block); --grid overrides; raised to keep 32-bit counters exact.
inline std::size_t histogram_stage_3_grid(const harness::HistogramArgs& a) {
  return harness::resident_grid(a, 1, [](const auto& args, auto&& f) { with_stage_2_kernel(args, f); });
}

//! Launches stage 3: stage 2's kernel on a grid of resident blocks.
inline void launch_histogram_stage_3(const harness::HistogramArgs& a) {
  launch_per_warp(a, histogram_stage_3_grid(a));
}

//! Stage 3 as the harness sees it.
inline harness::Stage<harness::Histogram> histogram_stage_3_stage() {
  harness::Stage<harness::Histogram> s = histogram_stage_2_stage();
  s.name = "histogram_stage_3";
  s.label = "thread coarsening";
  s.change = "one wave of resident blocks, each thread counting many samples in a grid-stride loop; one fold per resident block";
  s.source = "chapter 8, sections 8.4 (coarsening) and 8.8";
  s.grid_for = histogram_stage_3_grid;
  s.launch = launch_histogram_stage_3;
  return s;
}

}  // namespace ch08
