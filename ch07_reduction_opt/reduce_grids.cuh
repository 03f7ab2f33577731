//! @file reduce_grids.cuh
//! @brief How many blocks the grid-stride stages launch, and the summation depth that follows: the
//! coarsened grid of stages 8, 9a, 9b and 9 (about 32 elements a thread) and the occupancy grid of
//! stages 10 and 11 (one full wave of resident blocks). Host code; the depths count kUnroll
//! accumulators.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "device_info.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"
#include "stage.hpp"
#include "vector_loads.cuh"

namespace ch07 {

//! Default coarsening factor of stage 8: the default grid gives each thread about this many elements.
inline constexpr std::size_t kStage8ElementsPerThread = 32;

//! Grid of the coarsened stages 8, 9a, 9b and 9: the user's --grid if given, else
//! ceil(n / (block x kStage8ElementsPerThread)) blocks.
//! @param[in] a the run's arguments (n, block, grid)
inline std::size_t coarsened_grid(const harness::ReduceArgs& a) {
  if (a.grid != 0) return a.grid;
  return harness::blocks_for(a.n, a.block * static_cast<int>(kStage8ElementsPerThread));
}

//! Elements each thread of the coarsened stages 8, 9a, 9b and 9 folds, at most: ceil(n / (grid x Block)).
inline double coarsened_per_thread(const harness::ReduceArgs& a) {
  return static_cast<double>(harness::blocks_for(a.n, a.block)) / static_cast<double>(coarsened_grid(a)) + 1;
}

//! The depth of the coarsened stages 8, 9a, 9b and 9 with the atomic finish: each thread folds up to
//! ceil(n / (grid x Block)) elements (plus `extra` for the head, tail and accumulators of 9a to 9), the
//! block tree, and the grid's block sums added one after another into the result.
inline double coarsened_depth(const harness::ReduceArgs& a, double extra) {
  return harness::reduce_depth(coarsened_per_thread(a) + extra, a.block, static_cast<double>(coarsened_grid(a)));
}

//! One of the coarsened stages 9a, 9b and 9 as the harness runs it: `card`, the coarsened grid
//! (`--grid` honoured), the atomic finish's depth with each thread's `accumulators` folded in
//! (vectorized_sum_depth), enqueued by `launch`.
//! @param[in] card the stage's name, label, change and source
//! @param[in] accumulators the accumulators (and 16-byte loads in flight) of each thread
//! @param[in] launch enqueues the stage
inline harness::Stage<harness::Reduce> coarsened_stage(harness::StageCard card, int accumulators,
                                                       void (*launch)(const harness::ReduceArgs&)) {
  harness::Stage<harness::Reduce> s = harness::stage_of_card<harness::Reduce>(std::move(card));
  s.grid_stride = true;
  s.grid_for = coarsened_grid;
  s.depth = [accumulators](const harness::ReduceArgs& a) {
    return coarsened_depth(a, vectorized_sum_depth(accumulators));
  };
  s.launch = launch;
  return s;
}

//! Fewest elements a thread of stages 10 and 11 gets before the grid stops growing with n: small
//! inputs launch fewer blocks (as stage 9 would), so fewer block results are combined.
inline constexpr std::size_t kMinElementsPerThread = 32;

//! The grid of stages 10 to 12: the user's --grid if given, else one full wave of resident blocks
//! of the kernel that `kernel_of(T{}, std::integral_constant<int, Block>{})` returns (its address)
//! for the arguments' type and block size, and fewer where n gives each thread less than its
//! minimum share: harness::occupancy_grid.
//! @tparam KernelOf generic callable (T, integral_constant<int, Block>) -> const void*
//! @param[in] a the run's arguments (type, block, n, grid)
//! @param[in] kernel_of returns the address of the kernel whose occupancy sizes the grid
//! @param[in] min_bytes_per_thread the least a thread reads before the grid stops growing with n, in
//!            bytes (stage 12: one trip of kUnroll 16-byte loads); 0: kMinElementsPerThread elements
//! @throws CudaError if the occupancy query fails
template <class KernelOf>
std::size_t occupancy_grid_for(const harness::ReduceArgs& a, KernelOf kernel_of, std::size_t min_bytes_per_thread = 0) {
  if (a.grid != 0) return a.grid;
  std::size_t grid = 0;
  harness::with_input_type(a.type, [&](auto t) {
    const std::size_t per_thread =
        min_bytes_per_thread ? (min_bytes_per_thread + sizeof(t) - 1) / sizeof(t) : kMinElementsPerThread;
    harness::with_block_size(a.block, [&](auto block) {
      grid = harness::occupancy_grid(kernel_of(t, block), a.block, a.n, per_thread);
    });
  });
  return grid;
}

//! The depth of stages 10 and 11 on `grid` blocks: per-thread share, block tree, `partials` folds.
inline double occupancy_depth(const harness::ReduceArgs& a, double grid, double partials) {
  const double per_thread = static_cast<double>(harness::blocks_for(a.n, a.block)) / grid + 1;
  return harness::reduce_depth(per_thread + vectorized_sum_depth(kUnroll), a.block, partials);
}

}  // namespace ch07
