// Chapter 8's scan stages collected in ladder order: each header holds one stage's kernels, their
// launch and the stage's description; this file compiles them once for the ladder and the tests.
#include <stdexcept>

#include "ch08_scan_stages.hpp"
#include "scan_block_blelloch.cuh"
#include "scan_stage_1_three_pass.cuh"
#include "scan_stage_2_padded.cuh"
#include "scan_stage_3_warp_shuffle.cuh"
#include "scan_stage_4_decoupled_lookback.cuh"
#include "scan_stage_5_vectorized.cuh"
#include "scan_stage_6_more_items.cuh"
#include "scan_stage_7_streaming.cuh"
#include "scan_stage_8_bulk_copy_pipeline.cuh"
#include "scan_stage_8_shapes.cuh"
#include "scan_stage_9_small_inputs.cuh"

namespace ch08 {

std::vector<harness::Stage<harness::Scan>> all_scan_stages() {
  return {scan_stage_1_stage(), scan_stage_2_stage(), scan_stage_3_stage(), scan_stage_4_stage(),
          scan_stage_5_stage(), scan_stage_6_stage(), scan_stage_7_stage(), scan_stage_8_stage(), scan_stage_9_stage()};
}

harness::Stage<harness::Scan> scan_stage_named(const std::string& name) {
  if (name == "scan_block_blelloch") return scan_block_blelloch_stage();
  for (auto& s : all_scan_stages())
    if (s.name == name) return s;
  throw std::out_of_range("no chapter-8 scan stage is called " + name);
}

std::vector<harness::Stage<harness::Scan>> scan_stage_7_knob_stages() { return scan_stage_7_tunings(); }

std::vector<std::string> scan_stage_7_knob_names() { return scan_stage_7_tuning_names(); }

std::vector<harness::Stage<harness::Scan>> scan_stage_8_shape_stages() { return scan_stage_8_shapes(); }

std::vector<std::string> scan_stage_8_pipeline_names() { return scan_stage_8_shape_names(); }

int blelloch_trace(harness::DType type, const std::vector<double>& values) {
  return print_blelloch_trace(type, values);
}

}  // namespace ch08
