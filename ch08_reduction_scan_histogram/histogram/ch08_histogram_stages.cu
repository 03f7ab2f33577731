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

namespace ch08 {

std::vector<harness::Stage<harness::Histogram>> all_histogram_stages() {
  return {histogram_stage_0_stage(),      histogram_stage_1_stage(true), histogram_stage_1_stage(false),
          histogram_stage_2_stage(),      histogram_stage_3_stage(),     histogram_stage_4_stage(),
          histogram_stage_5_stage(),      histogram_stage_6_stage(),     histogram_stage_7_stage()};
}

std::vector<harness::Stage<harness::Histogram>> histogram_stage_7_copy_stages() {
  return {histogram_stage_7_stage<1>(), histogram_stage_7_stage<2>(), histogram_stage_7_stage<4>()};
}

harness::Stage<harness::Histogram> histogram_stage_named(const std::string& name) {
  for (auto& s : all_histogram_stages())
    if (s.name == name) return s;
  throw std::out_of_range("no chapter-8 histogram stage is called " + name);
}

}  // namespace ch08
