// Chapter 8's reduction stages collected in ladder order: each header holds one stage's kernel, its
// two-pass launch and its description; this file compiles them once for the ladder and the tests.
// Stage 4's header also holds its atomic-finish contrast, handed out by reduce_stage_4_atomic_finish.
#include <stdexcept>

#include "ch08_reduce_stages.hpp"
#include "reduce_stage_0_single_thread.cuh"
#include "reduce_stage_1_shared_tree.cuh"
#include "reduce_stage_2_coarsened.cuh"
#include "reduce_stage_3_warp_shuffle.cuh"
#include "reduce_stage_4_block_reduce.cuh"
#include "reduce_stage_5_vectorized.cuh"

namespace ch08 {

std::vector<harness::Stage<harness::Reduce>> all_reduce_stages() {
  return {reduce_stage_0_stage(), reduce_stage_1_stage(), reduce_stage_2_stage(),
          reduce_stage_3_stage(), reduce_stage_4_stage(), reduce_stage_5_stage()};
}

harness::Stage<harness::Reduce> reduce_stage_named(const std::string& name) {
  for (auto& s : all_reduce_stages())
    if (s.name == name) return s;
  throw std::out_of_range("no chapter-8 reduction stage is called " + name);
}

harness::Stage<harness::Reduce> reduce_stage_4_atomic_finish() { return reduce_stage_4_atomic_stage(); }

}  // namespace ch08
