//! @file histogram_stage_8_balanced_grid.cuh
//! @brief Histogram stage 8: stage 7's kernel on a grid sized to balance what a block pays whatever
//! its share of the samples (zeroing its private histogram, merging it into the global bins)
//! against the share itself: about sqrt(n / bins) blocks, at most one full wave.
//!
//! Changed against stage 7: the grid only. Stages 3 to 7 launch one full wave of resident blocks
//! (stages 4 to 7 fewer only when a thread would have less than one 16-byte vector). Every block then
//! pays a price that does not depend on its share of the samples: it zeroes its private histogram,
//! and at the end adds each of its non-empty bins into the global histogram with one global atomic.
//! Those atomics all target the same `bins` counters, so each global counter takes one atomic per
//! block, one after the other in its L2 slice. The model this stage rests on: with G blocks the
//! samples cost about a n / G (the blocks count side by side) and the blocks' fixed price about b G,
//! a time smallest at G = sqrt(a n / b) -- about sqrt(n / bins) blocks when zeroing and merging one
//! block's histogram costs about as much as counting `bins` samples. That is a hypothesis: what
//! backs it is stage 7's time against the grid on an H100, whose fastest grids at 2^22 and 2^24
//! samples sit next to sqrt(n / 256), and stage 8's own counters and ladders (README.md of this
//! folder, "Stage 8"); the ratio a / b may
//! differ on other GPUs. At 2^24 8-bit samples and 256 bins the rule gives 256 blocks. Stage 8 is
//! stage 7 again once the square root passes stage 7's full wave W, from n = W^2 x bins (about
//! 2^27 on an H100; much earlier on a GPU with fewer SMs, such as a T4), and at small n, where one
//! 16-byte vector per thread already caps stage 7's grid (up to 2^16 8-bit samples at block 256,
//! 2^12 int or float samples).
//! What check_profile_claims.py (7 -> 8) asks of the profiler at 2^24: the grid and the global
//! atomic instructions fall by at least 40%, the shared atomics stay the same, the kernel time
//! falls; where stage 7's wave is already near stage 8's grid (a T4) those claims read SKIPPED.
//! The kernel, its shared memory, its refusals and its block are stage 7's
//! (histogram_stage_7_lane_columns.cuh): in Nsight Compute stage 8's kernel is named
//! histogram_stage_7. `--grid` overrides the grid as for every stage, and no block is given more
//! than 2^31 samples (histogram_grid.hpp).
//! Source: beyond the chapter: the choice of grid for privatised histograms; the square-root
//! balance of a per-block cost against a per-element cost is the usual one for two-level schemes.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_stage_7_lane_columns.cuh"  // the kernel, its launch and its Stage record
#include "stage.hpp"

namespace ch08 {

//! Blocks that balance a block's fixed price (zeroing and merging `bins` counters) against its
//! share of n samples: ceil(sqrt(n / bins)), at least 1. At 256 bins: 64 blocks at 2^20 samples,
//! 256 at 2^24, 1024 at 2^28.
inline std::size_t merge_balanced_grid(std::size_t n, int bins) {
  const double g = std::ceil(std::sqrt(static_cast<double>(n) / static_cast<double>(std::max(bins, 1))));
  return std::max<std::size_t>(1, static_cast<std::size_t>(g));
}

//! The grid of a stage that runs another stage's kernel on the merge-balanced grid (stages 8 and 9):
//! with `--grid`, `own_grid` (the other stage's grid, which honours it); else `own_grid` capped at
//! merge_balanced_grid(n, bins), never fewer blocks than keep each block's share within 2^31
//! samples (stage_grid).
//! @param[in] a the arguments (n, bins, grid)
//! @param[in] own_grid the grid of the stage whose kernel runs, at these arguments
//! @return blocks
inline std::size_t balanced_grid(const harness::HistogramArgs& a, std::size_t own_grid) {
  if (a.grid != 0) return own_grid;
  return harness::stage_grid(0, std::min(own_grid, merge_balanced_grid(a.n, a.bins)), a.n);
}

//! Grid of stage 8: stage 7's grid (a full wave of resident blocks, fewer when a thread would have
//! less than one vector) on the merge-balanced rule (balanced_grid).
inline std::size_t histogram_stage_8_grid(const harness::HistogramArgs& a) {
  return balanced_grid(a, histogram_stage_7_grid<1>(a));
}

//! Zeroes the histogram and launches stage 7's kernel (one copy per block) on stage 8's grid.
inline void launch_histogram_stage_8(const harness::HistogramArgs& a) {
  launch_lane_columns(a, lane_column_copies(a, 1), histogram_stage_8_grid(a));
}

//! Stage 8 as the harness sees it: stage 7 with one copy, on histogram_stage_8_grid.
inline harness::Stage<harness::Histogram> histogram_stage_8_stage() {
  harness::Stage<harness::Histogram> s = histogram_stage_7_stage<1>();
  s.name = "histogram_stage_8";
  s.label = "merge-balanced grid";
  s.change = "stage 7's kernel on about sqrt(n / bins) blocks, at most one wave: a block's zeroing and merging "
             "balanced against its share of the samples";
  s.source = "beyond the chapter: the grid of a privatised histogram, per-block cost against per-sample cost";
  s.grid_for = histogram_stage_8_grid;
  s.launch = launch_histogram_stage_8;
  return s;
}

}  // namespace ch08
