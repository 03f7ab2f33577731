//! @file vector_loads.cuh
//! @brief What the vectorised stages of chapter 7 load with: the 16-byte vector of an element type
//! (harness::Vec16, common/vec16.cuh) and how many of them a thread keeps in flight (kUnroll).
#pragma once
#include "vec16.cuh"

namespace ch07 {

using harness::Vec16;

//! Independent 16-byte loads each thread issues per loop trip (and accumulators it keeps).
inline constexpr int kUnroll = 4;

//! Summation depth that thread_sum_vectorized<accumulators> adds to a thread's share of the grid
//! stride: the scalar head and tail, a vector's lanes and the accumulators (2 x accumulators + 4).
//! Stages 9a (1 accumulator), 9b to 11 (kUnroll) pass it to their depth rule.
inline constexpr int vectorized_sum_depth(int accumulators) { return 2 * accumulators + 4; }

}  // namespace ch07
