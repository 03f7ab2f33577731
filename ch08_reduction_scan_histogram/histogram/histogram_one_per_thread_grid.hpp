//! @file histogram_one_per_thread_grid.hpp
//! @brief The grid of the histogram stages with one thread per sample (stages 1 and 2 and the
//! exercises built on them): --grid if given, else one thread per sample.
#pragma once
#include <cstddef>

#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "kernel_support.cuh"

namespace ch08 {

//! The grid of stage 1 (and stage 2): --grid if given, else one thread per sample; raised to keep
//! 32-bit shared counters exact and capped at 2^31 - 1 (histogram_grid.hpp).
inline std::size_t histogram_one_per_thread_grid(const harness::HistogramArgs& a) {
  return harness::stage_grid(a.grid, harness::blocks_for(a.n, a.block), a.n);
}

}  // namespace ch08
