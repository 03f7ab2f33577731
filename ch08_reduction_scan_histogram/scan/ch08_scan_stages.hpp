//! @file ch08_scan_stages.hpp
//! @brief Chapter 8's scan stages as one list, for the ladder and the tests. Each stage lives in its
//! own header (`scan_stage_<N>_<idea>.cuh`: the kernels, how they are launched, the Stage value).
#pragma once
#include <string>
#include <vector>

#include "device_limits.hpp"
#include "drivers.hpp"
#include "run_stage.hpp"
#include "scan/scan_problem.hpp"

namespace ch08 {

//! The multi-block scan stages (1 to 9) in ladder order; the one-block Blelloch scan is not a
//! ladder stage (it scans at most one block). Stage 9 is the form for small inputs (one launch per
//! run, `scan_ladder --small`). Stage 8 needs sm_90 (min_cc) and a toolkit with
//! CCCL 2.8 or newer (unavailable otherwise): where it cannot run, check_device_fit refuses it
//! before any launch, and the ladder skips it with one line.
std::vector<harness::Stage<harness::Scan>> all_scan_stages();

//! The scan stage called `name` ("scan_block_blelloch", "scan_stage_1" .. "scan_stage_9").
//! @throws std::out_of_range for an unknown name
harness::Stage<harness::Scan> scan_stage_named(const std::string& name);

//! Runs the one-block Blelloch scan of `values` with its level-by-level trace and prints the GPU's
//! and the host model's traces (exercise 3); see print_blelloch_trace in scan_block_blelloch.cuh.
//! @return 0 when the GPU and the host model agree at every level, 1 otherwise
int blelloch_trace(harness::DType type, const std::vector<double>& values);

//! Stage 7 in each form of `scan_stage_7 --tuning` (default, backoff, occ62, occ75, backoff-occ62).
std::vector<harness::Stage<harness::Scan>> scan_stage_7_knob_stages();

//! The `--tuning` names of scan_stage_7_knob_stages(), in its order.
std::vector<std::string> scan_stage_7_knob_names();

//! Stage 8 at each ring shape of `scan_stage_8 --pipeline` (the default first).
std::vector<harness::Stage<harness::Scan>> scan_stage_8_shape_stages();

//! The `--pipeline` names of scan_stage_8_shape_stages(), in its order (the default first).
std::vector<std::string> scan_stage_8_pipeline_names();

// ---- The stage programs: what each scan_<stage>.cpp runs ----------------------------------------

//! The program scan_block_blelloch: the stage of scan_block_blelloch.cuh.
harness::StageProgram<harness::Scan> scan_block_blelloch_program();
//! The program scan_stage_1: the stage of scan_stage_1_three_pass.cuh.
harness::StageProgram<harness::Scan> scan_stage_1_program();
//! The program scan_stage_2: the stage of scan_stage_2_padded.cuh.
harness::StageProgram<harness::Scan> scan_stage_2_program();
//! The program scan_stage_3: the stage of scan_stage_3_warp_shuffle.cuh.
harness::StageProgram<harness::Scan> scan_stage_3_program();
//! The program scan_stage_4: the stage of scan_stage_4_decoupled_lookback.cuh.
harness::StageProgram<harness::Scan> scan_stage_4_program();
//! The program scan_stage_5: the stage of scan_stage_5_vectorized.cuh.
harness::StageProgram<harness::Scan> scan_stage_5_program();
//! The program scan_stage_6: the stage of scan_stage_6_more_items.cuh.
harness::StageProgram<harness::Scan> scan_stage_6_program();
//! The program scan_stage_7: the stage of scan_stage_7_streaming.cuh, in the forms of `--tuning`
//! (scan_stage_7_knob_stages).
harness::StageProgram<harness::Scan> scan_stage_7_program();
//! The program scan_stage_8: the stage of scan_stage_8_bulk_copy_pipeline.cuh, in the forms of
//! `--pipeline` (scan_stage_8_shape_stages, scan_stage_8_shapes.cuh).
harness::StageProgram<harness::Scan> scan_stage_8_program();
//! The program scan_stage_9: the stage of scan_stage_9_small_inputs.cuh.
harness::StageProgram<harness::Scan> scan_stage_9_program();

//! Why this GPU (its limits as harness::current_device_limits gives them, TUTORIAL_DEVICE_LIMITS
//! included) or this build cannot run `stage` at `block` (0: its default block) for any of its
//! types, or "" when it can: harness::device_refusal, the rule check_device_fit applies, for the
//! GPU tests that launch stages directly. Needs a GPU (NoGpuError otherwise).
inline std::string scan_refusal_here(const harness::Stage<harness::Scan>& stage, int block = 0) {
  harness::ScanArgs a;
  a.n = 1;
  a.block = block ? block : harness::default_block_of(stage);
  for (harness::DType type : stage.types) {
    a.type = type;
    const std::string why = harness::device_refusal(stage, a, harness::current_device_limits());
    if (!why.empty()) return why;
  }
  return "";
}

}  // namespace ch08
