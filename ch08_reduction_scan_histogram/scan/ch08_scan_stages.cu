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

harness::StageProgram<harness::Scan> scan_block_blelloch_program() { return scan_block_blelloch_stage(); }
harness::StageProgram<harness::Scan> scan_stage_1_program() { return scan_stage_1_stage(); }
harness::StageProgram<harness::Scan> scan_stage_2_program() { return scan_stage_2_stage(); }
harness::StageProgram<harness::Scan> scan_stage_3_program() { return scan_stage_3_stage(); }
harness::StageProgram<harness::Scan> scan_stage_4_program() { return scan_stage_4_stage(); }
harness::StageProgram<harness::Scan> scan_stage_5_program() { return scan_stage_5_stage(); }
harness::StageProgram<harness::Scan> scan_stage_6_program() { return scan_stage_6_stage(); }
harness::StageProgram<harness::Scan> scan_stage_7_program() {
  return harness::program_by_flag<harness::Scan>(
      {"--tuning", scan_stage_7_tuning_names(),
       "Stage 7 as in the ladder (default), or with a knob: look-back backoff (backoff), at most 48 registers for "
       "62.5% occupancy (occ62), at most 40 for 75% (occ75), both backoff and occ62 (backoff-occ62)"},
      scan_stage_7_tunings());
}
harness::StageProgram<harness::Scan> scan_stage_8_program() {
  return harness::program_by_flag<harness::Scan>(
      {"--pipeline", scan_stage_8_shape_names(),
       "Vectors of 16 bytes per consumer thread x tiles in the shared-memory ring, then the schedule: -near / "
       "-near16 (the look-back stops at the block's previous tile; 4 / 16 windows of 32 predecessors per round "
       "trip), -ahead (next tile reduced before this one's prefix), -early (a reduce warp publishes each tile's "
       "aggregate as it lands, the look-back warp its inclusive prefix). The first, default, is the ladder's, at "
       "blocks 128 to 512: 4x6-early for float and int, 8x3-early for double (the fastest of the measured "
       "shapes); the others at block 256"},
      scan_stage_8_shapes());
}
harness::StageProgram<harness::Scan> scan_stage_9_program() { return scan_stage_9_stage(); }

}  // namespace ch08
