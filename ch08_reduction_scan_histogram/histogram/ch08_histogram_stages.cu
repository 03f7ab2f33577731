// Chapter 8's histogram stages collected in ladder order: each header holds one stage's kernel, its
// launch and its description; this file compiles them once for the ladder and the tests.
#include <stdexcept>

#include "ch08_histogram_stages.hpp"
#include "histogram_stage_0_global_atomics.cuh"
#include "histogram_stage_1_privatised.cuh"
#include "histogram_stage_2_per_warp.cuh"
#include "histogram_stage_3_coarsened.cuh"
#include "histogram_stage_4_vector_loads.cuh"
#include "histogram_stage_5_thread_counters.cuh"
#include "histogram_stage_6_vector_runs.cuh"
#include "histogram_stage_7_lane_columns.cuh"
#include "histogram_stage_8_balanced_grid.cuh"
#include "histogram_stage_9_balanced_per_warp.cuh"
#include "histogram_stage_10_one_launch.cuh"

namespace ch08 {

std::vector<harness::Stage<harness::Histogram>> all_histogram_stages() {
  return {histogram_stage_0_stage(),      histogram_stage_1_stage(true), histogram_stage_1_stage(false),
          histogram_stage_2_stage(),      histogram_stage_3_stage(),     histogram_stage_4_stage(),
          histogram_stage_5_stage(),      histogram_stage_6_stage(),     histogram_stage_7_stage(),
          histogram_stage_8_stage(),      histogram_stage_9_stage(),     histogram_stage_10_stage()};
}

std::vector<harness::Stage<harness::Histogram>> histogram_stage_7_copy_stages() {
  return {histogram_stage_7_stage<1>(), histogram_stage_7_stage<2>(), histogram_stage_7_stage<4>()};
}

harness::Stage<harness::Histogram> histogram_stage_named(const std::string& name) {
  for (auto& s : all_histogram_stages())
    if (s.name == name) return s;
  throw std::out_of_range("no chapter-8 histogram stage is called " + name);
}

harness::StageProgram<harness::Histogram> histogram_stage_0_program() { return histogram_stage_0_stage(); }
harness::StageProgram<harness::Histogram> histogram_stage_1_program() {
  return harness::program_by_flag<harness::Histogram>(
      {"--skip-empty", {"on", "off"}, "Skip empty bins when folding the block's histogram into global memory (exercise 4)"},
      {histogram_stage_1_stage(true), histogram_stage_1_stage(false)});
}
harness::StageProgram<harness::Histogram> histogram_stage_2_program() { return histogram_stage_2_stage(); }
harness::StageProgram<harness::Histogram> histogram_stage_3_program() { return histogram_stage_3_stage(); }
harness::StageProgram<harness::Histogram> histogram_stage_4_program() { return histogram_stage_4_stage(); }
harness::StageProgram<harness::Histogram> histogram_stage_5_program() { return histogram_stage_5_stage(); }
harness::StageProgram<harness::Histogram> histogram_stage_6_program() { return histogram_stage_6_stage(); }
harness::StageProgram<harness::Histogram> histogram_stage_7_program() {
  return harness::program_by_flag<harness::Histogram>(
      {"--copies", {"1", "2", "4"},
       "Lane-column histograms per block (warp w counts into copy w % copies; at most block / 32 of them). "
       "--copies 4 at 256 bins needs 128 KiB per block: without --block, block 256 where the GPU has it, "
       "else block 64 (2 copies)"},
      histogram_stage_7_copy_stages());
}
harness::StageProgram<harness::Histogram> histogram_stage_8_program() { return histogram_stage_8_stage(); }
harness::StageProgram<harness::Histogram> histogram_stage_9_program() { return histogram_stage_9_stage(); }
harness::StageProgram<harness::Histogram> histogram_stage_10_program() { return histogram_stage_10_stage(); }

}  // namespace ch08
