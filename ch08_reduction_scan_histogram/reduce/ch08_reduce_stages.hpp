//! @file ch08_reduce_stages.hpp
//! @brief Chapter 8's reduction stages as one list, for the ladder and the tests. Each stage lives
//! in its own header (`reduce_stage_<N>_<idea>.cuh`: the kernel, its two-pass launch, its Stage
//! value); this list only collects them. Stages 0 to 5 reduce float, double or int with sum, max or
//! min, block sizes 32..1024, and finish with a one-block second pass (no atomics: deterministic
//! run to run). Int sums are exact: accumulated in long long, output int64. Stage 6 sums float and
//! double with the same bits on any block size, grid and GPU; stage 7 reduces in one launch (the
//! last block folds the partials); stage 8 is stage 7 with tagged partials (no fence); stage 9 finishes in one
//! thread block cluster; stage 10 is stage 7 with CUB's schedule (even shares over five waves).
#pragma once
#include <string>
#include <vector>

#include "drivers.hpp"
#include "reduce_problem.hpp"

//! Chapter 8: reduction (sections 8.2 to 8.6), scan and histogram.
namespace ch08 {

//! The chapter's six reduction stages, 0 to 5, in ladder order: each takes sum, max and min over
//! float, double and int.
std::vector<harness::Stage<harness::Reduce>> all_reduce_stages();

//! What reduce_ladder_ch08 runs: all_reduce_stages, then stage 6 (the binned sum: the same bits for
//! any block, grid and GPU; float and double sums only), stage 7 (one launch at every size), stage 8
//! (stage 7 with tagged partials, no fence), stage 9 (one thread block cluster, sm_90 and newer), stage 10 (stage 7 with
//! CUB's schedule: even shares of tiles over five waves) and CUB's gpu_to_gpu sum, the library's reproducible
//! sum, where this build has CCCL 3.1 (else the ladder skips it with one line).
std::vector<harness::Stage<harness::Reduce>> ladder_reduce_stages();

//! The reduction stage called `name` ("reduce_stage_0" .. "reduce_stage_10", "cub_gpu_to_gpu").
//! @throws std::out_of_range for an unknown name
harness::Stage<harness::Reduce> reduce_stage_named(const std::string& name);

//! Stage 4 with each block's partial added to the result by atomicAdd instead of the second pass:
//! the non-deterministic contrast of section 8.6 ("Determinism") that atomic_vs_deterministic
//! times against stage 4. Sum only; not in the ladder (reduce_stage_4_block_reduce.cuh).
harness::Stage<harness::Reduce> reduce_stage_4_atomic_finish();

// ---- The stage programs: what each reduce_stage_<N>.cpp runs -----------------------------------

//! The program reduce_stage_0: the stage of reduce_stage_0_single_thread.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_0_program();
//! The program reduce_stage_1: the stage of reduce_stage_1_shared_tree.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_1_program();
//! The program reduce_stage_2: the stage of reduce_stage_2_coarsened.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_2_program();
//! The program reduce_stage_3: the stage of reduce_stage_3_warp_shuffle.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_3_program();
//! The program reduce_stage_4: the stage of reduce_stage_4_block_reduce.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_4_program();
//! The program reduce_stage_5: the stage of reduce_stage_5_vectorized.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_5_program();
//! The program reduce_stage_6: the stage of reduce_stage_6_binned.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_6_program();
//! The program reduce_stage_7: the stage of reduce_stage_7_one_launch.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_7_program();
//! The program reduce_stage_8: the stage of reduce_stage_8_tagged_finish.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_8_program();
//! The program reduce_stage_9: the stage of reduce_stage_9_cluster_finish.cuh (sm_90 and newer).
harness::StageProgram<harness::Reduce> reduce_stage_9_program();
//! The program reduce_stage_10: the stage of reduce_stage_10_even_shares.cuh.
harness::StageProgram<harness::Reduce> reduce_stage_10_program();

}  // namespace ch08
