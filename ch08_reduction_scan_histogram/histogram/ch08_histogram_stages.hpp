//! @file ch08_histogram_stages.hpp
//! @brief Chapter 8's histogram stages as one list, for the ladder and the tests. Each stage lives
//! in its own header (`histogram_stage_<N>_<idea>.cuh`: the kernel, its launch, the Stage value).
#pragma once
#include <string>
#include <vector>

#include "drivers.hpp"
#include "histogram_problem.hpp"

namespace ch08 {

//! Every histogram stage in ladder order (stage 1 in both forms: skipping empty bins, then folding
//! every bin).
std::vector<harness::Stage<harness::Histogram>> all_histogram_stages();

//! Stage 7 with 1, 2 and 4 lane-column copies per block (`histogram_stage_7 --copies`).
std::vector<harness::Stage<harness::Histogram>> histogram_stage_7_copy_stages();

//! The histogram stage called `name` ("histogram_stage_0" .. "histogram_stage_10",
//! "histogram_stage_1_fold_all").
//! @throws std::out_of_range for an unknown name
harness::Stage<harness::Histogram> histogram_stage_named(const std::string& name);

// ---- The stage programs: what each histogram_stage_<N>.cpp runs ---------------------------------

//! The program histogram_stage_0: the stage of histogram_stage_0_global_atomics.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_0_program();
//! The program histogram_stage_1: the stage of histogram_stage_1_privatised.cuh,
//! `--skip-empty on` (the default) or `off`.
harness::StageProgram<harness::Histogram> histogram_stage_1_program();
//! The program histogram_stage_2: the stage of histogram_stage_2_per_warp.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_2_program();
//! The program histogram_stage_3: the stage of histogram_stage_3_coarsened.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_3_program();
//! The program histogram_stage_4: the stage of histogram_stage_4_vector_loads.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_4_program();
//! The program histogram_stage_5: the stage of histogram_stage_5_thread_counters.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_5_program();
//! The program histogram_stage_6: the stage of histogram_stage_6_vector_runs.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_6_program();
//! The program histogram_stage_7: the stage of histogram_stage_7_lane_columns.cuh,
//! `--copies 1` (the default), `2` or `4`.
harness::StageProgram<harness::Histogram> histogram_stage_7_program();
//! The program histogram_stage_8: the stage of histogram_stage_8_balanced_grid.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_8_program();
//! The program histogram_stage_9: the stage of histogram_stage_9_balanced_per_warp.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_9_program();
//! The program histogram_stage_10: the stage of histogram_stage_10_one_launch.cuh.
harness::StageProgram<harness::Histogram> histogram_stage_10_program();

}  // namespace ch08
