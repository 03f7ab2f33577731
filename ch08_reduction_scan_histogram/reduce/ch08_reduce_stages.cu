// Chapter 8's reduction stages collected in ladder order: each header holds one stage's kernel, its
// two-pass launch and its description; this file compiles them once for the ladder and the tests.
// Stage 4's header also holds its atomic-finish contrast, handed out by reduce_stage_4_atomic_finish;
// stage 6 (the binned sum, float and double sums only), stage 7 (one launch at every size), stage 8
// (stage 7 with tagged partials, no fence), stage 9 (one thread block cluster, sm_90+), stage 10 (stage 7 with CUB's even shares
// over five waves) and CUB's
// gpu_to_gpu sum (cub_gpu_to_gpu.cu, built where
// CCCL 3.1 is given) join the ladder after stages 0 to 5.
#include <stdexcept>

#include "ch08_reduce_stages.hpp"
#include "reduce_stage_0_single_thread.cuh"
#include "reduce_stage_1_shared_tree.cuh"
#include "reduce_stage_2_coarsened.cuh"
#include "reduce_stage_3_warp_shuffle.cuh"
#include "reduce_stage_4_block_reduce.cuh"
#include "reduce_stage_5_vectorized.cuh"
#include "reduce_stage_6_binned.cuh"
#include "reduce_stage_7_one_launch.cuh"
#include "reduce_stage_8_tagged_finish.cuh"
#include "reduce_stage_9_cluster_finish.cuh"
#include "reduce_stage_10_even_shares.cuh"
#include "cub_gpu_to_gpu.hpp"

namespace ch08 {

std::vector<harness::Stage<harness::Reduce>> all_reduce_stages() {
  return {reduce_stage_0_stage(), reduce_stage_1_stage(), reduce_stage_2_stage(),
          reduce_stage_3_stage(), reduce_stage_4_stage(), reduce_stage_5_stage()};
}

std::vector<harness::Stage<harness::Reduce>> ladder_reduce_stages() {
  std::vector<harness::Stage<harness::Reduce>> stages = all_reduce_stages();
  stages.push_back(reduce_stage_6_stage());
  stages.push_back(reduce_stage_7_stage());
  stages.push_back(reduce_stage_8_stage());
  stages.push_back(reduce_stage_9_stage());
  stages.push_back(reduce_stage_10_stage());
  stages.push_back(cub_gpu_to_gpu_stage());
  return stages;
}

harness::Stage<harness::Reduce> reduce_stage_named(const std::string& name) {
  for (auto& s : ladder_reduce_stages())
    if (s.name == name) return s;
  throw std::out_of_range("no chapter-8 reduction stage is called " + name);
}

harness::Stage<harness::Reduce> reduce_stage_4_atomic_finish() { return reduce_stage_4_atomic_stage(); }

harness::StageProgram<harness::Reduce> reduce_stage_0_program() { return reduce_stage_0_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_1_program() { return reduce_stage_1_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_2_program() { return reduce_stage_2_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_3_program() { return reduce_stage_3_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_4_program() { return reduce_stage_4_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_5_program() { return reduce_stage_5_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_6_program() { return reduce_stage_6_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_7_program() { return reduce_stage_7_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_8_program() { return reduce_stage_8_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_9_program() { return reduce_stage_9_stage(); }
harness::StageProgram<harness::Reduce> reduce_stage_10_program() { return reduce_stage_10_stage(); }

}  // namespace ch08
