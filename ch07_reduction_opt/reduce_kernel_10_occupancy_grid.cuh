//! @file reduce_kernel_10_occupancy_grid.cuh
//! @brief Stage 10 (past the article): the grid sized from the occupancy API and the SM count.
//!
//! Changed against stage 9: the kernel is the same; the launch is not. Instead of a grid that grows
//! with n (ceil(n / (Block * 32)) blocks, many waves), the launcher asks
//! cudaOccupancyMaxActiveBlocksPerMultiprocessor how many blocks of this kernel fit on one SM at
//! once and launches exactly SMs x that many: one full wave of resident blocks that stride over the
//! whole input (a persistent grid), never more blocks than there are vectors to load. No block
//! waits for a free SM, there is no tail wave, and the number of block results is small and fixed.
//! What the profiler shows: exactly one wave of blocks (fewer than stage 9 launches at the same n),
//! so fewer block results and atomics; about the same DRAM throughput as stage 9 (the chapter README
//! has the measured counters).
//! Reuses stage 9's kernel unchanged (reduce_kernel_9_vectorized.cuh, included): only the launch changes.
//! The grid rule, occupancy_grid_for, is in reduce_grids.cuh (stage 11 sizes its grid the same way).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "dtype.hpp"
#include "kernel_support.cuh"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "reduce_grids.cuh"
#include "reduce_problem.hpp"
#include "reduce_kernel_9_vectorized.cuh"

namespace ch07 {

// ---- How stage 10 is launched ----------------------------------------------------------------

//! Stage 10's grid: one full wave of stage 9's kernel (see occupancy_grid_for).
inline std::size_t reduce_kernel_10_grid(const harness::ReduceArgs& a) {
  return occupancy_grid_for(a, [](auto t, auto block) {
    return reinterpret_cast<const void*>(&reduce_kernel_9<decltype(t), decltype(block)::value>);
  });
}

//! Launches stage 10 on a.stream: zeroes the one-element result (every block adds into it with
//! atomicAdd), then stage 9's kernel on reduce_kernel_10_grid(a) blocks.
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or any
inline void launch_reduce_kernel_10(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_kernel_10_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_9<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 10 as the harness runs it: the program `reduce_kernel_10`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_10_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_kernel_10";
  s.label = "grid from the occupancy API";
  s.change = "one full wave of resident blocks (SMs x blocks per SM from cudaOccupancyMaxActiveBlocksPerMultiprocessor)";
  s.source = "this tutorial (past the article); CUDA programming guide, occupancy calculator API";
  s.grid_stride = true;
  s.grid_for = reduce_kernel_10_grid;
  s.depth = [](const harness::ReduceArgs& a) {
    const double grid = static_cast<double>(reduce_kernel_10_grid(a));
    return occupancy_depth(a, grid, grid);
  };
  s.launch = launch_reduce_kernel_10;
  return s;
}

}  // namespace ch07
