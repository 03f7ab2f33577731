//! @file ch07_stages.hpp
//! @brief Chapter 7's stages as one list, for the ladder and the tests. Each stage lives in its own
//! header (`reduce_kernel_<N>_<idea>.cuh`: the kernel, how it is launched, and its Stage value);
//! this list only collects them. Stages 1 to 8 come in two forms, one per finish (reduce_finish.cuh). Every stage sums float, double or int with block sizes 32..1024
//! (stage 6: 64..1024).
#pragma once
#include <string>
#include <vector>

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

//! The program of one of stages 1 to 8: `name`_partials (the default) and the stage `name` (the
//! article's atomic finish), chosen by `--finish`.
//! @throws std::out_of_range for an unknown name
inline harness::StageProgram<harness::Reduce> finish_program(const std::string& name) {
  harness::StageProgram<harness::Reduce> p;
  p.variants = {stage_named(name + "_partials"), stage_named(name)};
  p.more_flags = {finish_flag()};
  return p;
}

}  // namespace ch07
