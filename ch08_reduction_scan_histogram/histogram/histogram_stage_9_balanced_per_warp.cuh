//! @file histogram_stage_9_balanced_per_warp.cuh
//! @brief Stage 9 (past the chapter's sections): stage 4's kernel -- per-warp copies, 16-byte loads --
//! on stage 8's merge-balanced grid.
//!
//! Stage 8 put stage 7's kernel on about sqrt(n / bins) blocks, so that what a block pays whatever
//! its share of the samples (zeroing its private histogram, merging it into the global one) is
//! balanced against the samples it counts. That price depends on the kernel: stage 7 keeps 32 lane
//! columns of the histogram per block (32 KiB at 256 bins), stage 4 one copy per warp (8 KiB at
//! block 256), so a stage-4 block zeroes and reads back a quarter of the shared memory. Stage 4
//! lost to stage 7 on a full wave at large n because its per-warp copies take more shared-memory
//! wavefronts per atomic (the bank conflicts of stage 7's section); on the balanced grid the fixed
//! price weighs more, and the cheaper block wins where the grid sweep of the histogram page shows
//! it (README.md of this folder, "Stage 9"). Changed against stage 8: the kernel, stage 4's;
//! the grid rule, stage 8's (balanced_grid), capped at stage 4's own wave.
//! The kernel, its shared memory and its refusals are stage 4's
//! (histogram_stage_4_vector_loads.cuh): in Nsight Compute stage 9's kernel is named
//! histogram_stage_4. `--grid` overrides the grid as for every stage, and no block is given more
//! than 2^31 samples (histogram_grid.hpp).
//! Source: beyond the chapter: the grid of a privatised histogram (stage 8) applied to the
//! chapter's per-warp privatisation.
#pragma once
#include <cstddef>

#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_stage_4_vector_loads.cuh"   // the kernel, its launch and its Stage record
#include "histogram_stage_8_balanced_grid.cuh"  // balanced_grid
#include "stage.hpp"

namespace ch08 {

//! Grid of stage 9: stage 4's grid (a full wave of resident blocks) on stage 8's merge-balanced rule
//! (balanced_grid).
inline std::size_t histogram_stage_9_grid(const harness::HistogramArgs& a) {
  return balanced_grid(a, histogram_stage_4_grid(a));
}

//! Zeroes the histogram and launches stage 4's kernel on stage 9's grid.
inline void launch_histogram_stage_9(const harness::HistogramArgs& a) { launch_per_warp_vectors(a, histogram_stage_9_grid(a)); }

//! Stage 9 as the harness sees it: stage 4 on histogram_stage_9_grid.
inline harness::Stage<harness::Histogram> histogram_stage_9_stage() {
  harness::Stage<harness::Histogram> s = histogram_stage_4_stage();
  s.name = "histogram_stage_9";
  s.label = "per-warp copies, balanced grid";
  s.change = "stage 4's kernel (per-warp copies, a quarter of stage 7's shared memory per block) on stage 8's grid "
             "of about sqrt(n / bins) blocks";
  s.source = "beyond the chapter: stage 8's grid rule with the chapter's per-warp privatisation";
  s.grid_for = histogram_stage_9_grid;
  s.launch = launch_histogram_stage_9;
  return s;
}

}  // namespace ch08
