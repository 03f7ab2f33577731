//! @file stage_driver.hpp
//! @brief The body of every stage program: parse flags, make the input, verify, time, report.
#pragma once
#include <string>
#include <vector>

#include "reduce_impl.hpp"

namespace harness {

//! A stage program: one stage, or a few variants of it chosen by a flag.
struct StageProgram {
  std::vector<ReduceImpl> variants;      //!< the first is the default
  std::string variant_flag;              //!< e.g. "--last-warp"; empty when there is one variant
  std::vector<std::string> variant_names;  //!< flag value of each variant, e.g. "syncwarp"
  std::string variant_help;              //!< help text of the flag
};

//! Wraps a single stage as a program.
inline StageProgram single_stage(ReduceImpl impl) { return StageProgram{{std::move(impl)}, {}, {}, {}}; }

//! Runs a stage program. Prints the device, the configuration, the median and min time, GB/s,
//! GFLOP/s, % of peak bandwidth, the roofline ceiling, and the verification with its error and
//! bound. With --profile: one verified warm-up, then exactly one launch between cudaProfilerStart
//! and cudaProfilerStop inside an NVTX range named after the stage.
//! @return 0 when verified; 1 (kExitFailure) when verification or CUDA failed; 2 (kExitUsage) for
//!         bad flags or unsupported sizes; 77 (kExitNoGpu) when no GPU is visible.
int stage_main(int argc, char** argv, const StageProgram& program);

}  // namespace harness
