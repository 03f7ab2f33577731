//! @file cub_reduce.hpp
//! @brief The CUB baselines every reduction ladder is measured against.
#pragma once
#include "reduce_problem.hpp"

namespace harness {

//! cub::DeviceReduce::Sum / Max / Min over float, double and int, as a stage (output type = input
//! type; an int sum wraps modulo 2^32 on overflow). Workspace: CUB's temporary storage.
Stage<Reduce> cub_reduce_stage();

//! cub::DeviceReduce::Sum of int inputs into a 64-bit (long long) output, accumulated in 64 bits:
//! the baseline for stages that sum ints exactly (chapter 8). Sum over int only.
Stage<Reduce> cub_reduce_wide_int_stage();

}  // namespace harness
