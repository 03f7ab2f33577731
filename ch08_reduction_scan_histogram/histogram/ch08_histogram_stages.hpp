//! @file ch08_histogram_stages.hpp
//! @brief Chapter 8's histogram stages as one list, for the ladder and the tests. Each stage lives
//! in its own header (`histogram_stage_<N>_<idea>.cuh`: the kernel, its launch, the Stage value).
#pragma once
#include <string>
#include <vector>

#include "histogram_problem.hpp"

namespace ch08 {

//! Every histogram stage in ladder order (stage 1 in both forms: skipping empty bins, then folding
//! every bin).
std::vector<harness::Stage<harness::Histogram>> all_histogram_stages();

//! Stage 7 with 1, 2 and 4 lane-column copies per block (`histogram_stage_7 --copies`).
std::vector<harness::Stage<harness::Histogram>> histogram_stage_7_copy_stages();

//! The histogram stage called `name` ("histogram_stage_0" .. "histogram_stage_7",
//! "histogram_stage_1_fold_all").
//! @throws std::out_of_range for an unknown name
harness::Stage<harness::Histogram> histogram_stage_named(const std::string& name);

}  // namespace ch08
