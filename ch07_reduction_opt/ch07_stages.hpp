//! @file ch07_stages.hpp
//! @brief Chapter 7's stages as one list, for the ladder and the tests. Each stage lives in its own
//! header (`reduce_kernel_<N>_<idea>.cuh`: the kernel, how it is launched, and its Stage value);
//! this list only collects them. Stages 1 to 8 come in two forms, one per finish (reduce_finish.cuh). Every stage sums float, double or int with block sizes 32..1024
//! (stage 6: 64..1024).
#pragma once
#include <string>
#include <vector>

#include "drivers.hpp"
#include "reduce_problem.hpp"

//! Chapter 7: the reduction article's stages 0 to 8, then stages 9a, 9b and 9 to 11 that reach CUB,
//! and stage 12 for small inputs (one launch per run).
namespace ch07 {

//! Every stage of the chapter in ladder order with the atomic finish of the article (stage 6 in
//! both warp tails: volatile, then syncwarp), then stages 9a, 9b (stage 9's first two changes
//! alone), 9, 10, 11 and 12: the ladder's first table.
std::vector<harness::Stage<harness::Reduce>> all_stages();

//! Stages 1 to 8 with the partials finish (a second pass; deterministic), in ladder order (stage 6
//! in both warp tails), then stage 11 (the same finish inside one launch): the ladder's second table.
std::vector<harness::Stage<harness::Reduce>> partials_stages();

//! The ladder's tables: key "atomic" (all_stages()) and key "partials" (partials_stages()), for
//! the CSV column `finish`.
std::vector<harness::LadderTable<harness::Reduce>> ladder_tables();

//! The stage called `name`, from either list: a program name such as "reduce_kernel_4" (the atomic
//! finish), "reduce_kernel_4_partials", "reduce_kernel_6_volatile" or "reduce_kernel_6_volatile_partials".
//! @throws std::out_of_range for an unknown name
harness::Stage<harness::Reduce> stage_named(const std::string& name);

//! The `--finish` flag of the programs of stages 1 to 8: partials (the default: a second pass;
//! deterministic, and the time shows the block's tree) or atomic (the article as written: every
//! block adds into one address, and that queue, not the tree, sets the time of stages 1 to 7).
//! reduce_finish.cuh says what each does.
inline harness::VariantFlag finish_flag() {
  return {"--finish", {"partials", "atomic"},
          "How each block finishes: partials (one sum per block to the workspace, folded by a second "
          "one-block pass: deterministic; the default) or atomic (atomicAdd into the result, as the "
          "article writes it; the atomics on one address hide the tree's step)"};
}

// ---- The stage programs: what each reduce_kernel_<N>.cpp runs ---------------------------------
// Each names its stage's header; ch07_stages.cu builds the program from that header's functions.

//! The program reduce_kernel_0: the stage of reduce_kernel_0_atomic.cuh.
harness::StageProgram<harness::Reduce> reduce_kernel_0_program();
//! The program reduce_kernel_1 (reduce_kernel_1_interleaved_modulo.cuh):
//! `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> reduce_kernel_1_program();
//! The program reduce_kernel_2 (reduce_kernel_2_register_accumulator.cuh):
//! `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> reduce_kernel_2_program();
//! The program reduce_kernel_3 (reduce_kernel_3_strided_index.cuh):
//! `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> reduce_kernel_3_program();
//! The program reduce_kernel_4 (reduce_kernel_4_sequential_addressing.cuh):
//! `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> reduce_kernel_4_program();
//! The program reduce_kernel_5 (reduce_kernel_5_unrolled.cuh):
//! `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> reduce_kernel_5_program();
//! The program reduce_kernel_6 (reduce_kernel_6_last_warp_unrolled.cuh): `--last-warp syncwarp`
//! (the default) or `volatile`, each with `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> reduce_kernel_6_program();
//! The program reduce_kernel_7 (reduce_kernel_7_warp_shuffle.cuh):
//! `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> reduce_kernel_7_program();
//! The program reduce_kernel_8 (reduce_kernel_8_coarsened.cuh):
//! `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> reduce_kernel_8_program();
//! The program reduce_kernel_9a: the stage of reduce_kernel_9a_vector_loads.cuh.
harness::StageProgram<harness::Reduce> reduce_kernel_9a_program();
//! The program reduce_kernel_9b: the stage of reduce_kernel_9b_loads_in_flight.cuh.
harness::StageProgram<harness::Reduce> reduce_kernel_9b_program();
//! The program reduce_kernel_9: the stage of reduce_kernel_9_vectorized.cuh.
harness::StageProgram<harness::Reduce> reduce_kernel_9_program();
//! The program reduce_kernel_10: the stage of reduce_kernel_10_occupancy_grid.cuh.
harness::StageProgram<harness::Reduce> reduce_kernel_10_program();
//! The program reduce_kernel_11: the stage of reduce_kernel_11_single_pass.cuh.
harness::StageProgram<harness::Reduce> reduce_kernel_11_program();
//! The program reduce_kernel_12: the stage of reduce_kernel_12_small_inputs.cuh.
harness::StageProgram<harness::Reduce> reduce_kernel_12_program();
//! The program reduce_kernel_13: the stage of reduce_kernel_13_cluster_finish.cuh.
harness::StageProgram<harness::Reduce> reduce_kernel_13_program();

}  // namespace ch07
