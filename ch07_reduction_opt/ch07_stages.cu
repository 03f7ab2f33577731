// Chapter 7's stages collected in ladder order, and each stage program's forms: each header below
// holds one stage's kernel, its launch and its description; this file only compiles them once for
// the stage programs, the ladder and the tests.
#include <stdexcept>
#include <utility>

#include "ch07_stages.hpp"
#include "reduce_kernel_0_atomic.cuh"
#include "reduce_kernel_10_occupancy_grid.cuh"
#include "reduce_kernel_11_single_pass.cuh"
#include "reduce_kernel_12_small_inputs.cuh"
#include "reduce_kernel_13_cluster_finish.cuh"
#include "reduce_kernel_1_interleaved_modulo.cuh"
#include "reduce_kernel_2_register_accumulator.cuh"
#include "reduce_kernel_3_strided_index.cuh"
#include "reduce_kernel_4_sequential_addressing.cuh"
#include "reduce_kernel_5_unrolled.cuh"
#include "reduce_kernel_6_last_warp_unrolled.cuh"
#include "reduce_kernel_7_warp_shuffle.cuh"
#include "reduce_kernel_8_coarsened.cuh"
#include "reduce_kernel_9_vectorized.cuh"
#include "reduce_kernel_9a_vector_loads.cuh"
#include "reduce_kernel_9b_loads_in_flight.cuh"

namespace ch07 {

std::vector<harness::Stage<harness::Reduce>> all_stages() {
  return {reduce_kernel_0_stage(),
          reduce_kernel_1_stage<Finish::atomic>(),
          reduce_kernel_2_stage<Finish::atomic>(),
          reduce_kernel_3_stage<Finish::atomic>(),
          reduce_kernel_4_stage<Finish::atomic>(),
          reduce_kernel_5_stage<Finish::atomic>(),
          reduce_kernel_6_stage<LastWarp::legacy_volatile, Finish::atomic>(),
          reduce_kernel_6_stage<LastWarp::syncwarp, Finish::atomic>(),
          reduce_kernel_7_stage<Finish::atomic>(),
          reduce_kernel_8_stage<Finish::atomic>(),
          reduce_kernel_9a_stage(),
          reduce_kernel_9b_stage(),
          reduce_kernel_9_stage(),
          reduce_kernel_10_stage(),
          reduce_kernel_11_stage(),
          reduce_kernel_12_stage(),
          reduce_kernel_13_stage()};
}

std::vector<harness::Stage<harness::Reduce>> partials_stages() {
  return {reduce_kernel_1_stage<Finish::partials>(),
          reduce_kernel_2_stage<Finish::partials>(),
          reduce_kernel_3_stage<Finish::partials>(),
          reduce_kernel_4_stage<Finish::partials>(),
          reduce_kernel_5_stage<Finish::partials>(),
          reduce_kernel_6_stage<LastWarp::legacy_volatile, Finish::partials>(),
          reduce_kernel_6_stage<LastWarp::syncwarp, Finish::partials>(),
          reduce_kernel_7_stage<Finish::partials>(),
          reduce_kernel_8_stage<Finish::partials>(),
          reduce_kernel_11_stage()};
}

std::vector<harness::LadderTable<harness::Reduce>> ladder_tables() {
  return {{"atomic", "Finish: one atomicAdd per block into the result (the article)",
           "Stages 1 to 8 as the article writes them; stages 9a, 9b, 9 and 10 keep the atomic, stages 11 "
           "and 12 finish in their last block instead (12: one launch per run, for small inputs); stage 13 "
           "(sm_90+) is one thread block cluster whose blocks add their sums in distributed shared memory. "
           "Stage 9's three changes come one at a time: 9a 16-byte "
           "loads, 9b four of them in flight, 9 the one-barrier block sum. `step` compares each row with "
           "the row above.",
           all_stages()},
          {"partials", "Finish: one partial per block, folded by a second pass (deterministic)",
           "The same kernels, each block writing its sum to its own slot; one block then folds the slots "
           "(`reduce_partials`, a second launch). Stage 11 closes the table: the same finish inside one "
           "launch. `total` is against stage 1 with this finish.",
           partials_stages()}};
}

harness::Stage<harness::Reduce> stage_named(const std::string& name) {
  for (auto& s : all_stages())
    if (s.name == name) return s;
  for (auto& s : partials_stages())
    if (s.name == name) return s;
  throw std::out_of_range("no chapter-7 stage is called " + name);
}

namespace {

//! The program of one of stages 1 to 8 but 6: `--finish partials` (the default) or `atomic`.
harness::StageProgram<harness::Reduce> finish_program(harness::Stage<harness::Reduce> partials,
                                                      harness::Stage<harness::Reduce> atomic) {
  return harness::program_by_flag<harness::Reduce>(finish_flag(), {std::move(partials), std::move(atomic)});
}

}  // namespace

harness::StageProgram<harness::Reduce> reduce_kernel_0_program() { return reduce_kernel_0_stage(); }
harness::StageProgram<harness::Reduce> reduce_kernel_1_program() {
  return finish_program(reduce_kernel_1_stage<Finish::partials>(), reduce_kernel_1_stage<Finish::atomic>());
}
harness::StageProgram<harness::Reduce> reduce_kernel_2_program() {
  return finish_program(reduce_kernel_2_stage<Finish::partials>(), reduce_kernel_2_stage<Finish::atomic>());
}
harness::StageProgram<harness::Reduce> reduce_kernel_3_program() {
  return finish_program(reduce_kernel_3_stage<Finish::partials>(), reduce_kernel_3_stage<Finish::atomic>());
}
harness::StageProgram<harness::Reduce> reduce_kernel_4_program() {
  return finish_program(reduce_kernel_4_stage<Finish::partials>(), reduce_kernel_4_stage<Finish::atomic>());
}
harness::StageProgram<harness::Reduce> reduce_kernel_5_program() {
  return finish_program(reduce_kernel_5_stage<Finish::partials>(), reduce_kernel_5_stage<Finish::atomic>());
}
harness::StageProgram<harness::Reduce> reduce_kernel_6_program() {
  const harness::VariantFlag last_warp{
      "--last-warp", {"syncwarp", "volatile"},
      "Warp tail: syncwarp (correct on Volta and later) or volatile (the legacy, racy form)"};
  return {{last_warp, finish_flag()},
          {{{"syncwarp", "partials"}, reduce_kernel_6_stage<LastWarp::syncwarp, Finish::partials>()},
           {{"syncwarp", "atomic"}, reduce_kernel_6_stage<LastWarp::syncwarp, Finish::atomic>()},
           {{"volatile", "partials"}, reduce_kernel_6_stage<LastWarp::legacy_volatile, Finish::partials>()},
           {{"volatile", "atomic"}, reduce_kernel_6_stage<LastWarp::legacy_volatile, Finish::atomic>()}}};
}
harness::StageProgram<harness::Reduce> reduce_kernel_7_program() {
  return finish_program(reduce_kernel_7_stage<Finish::partials>(), reduce_kernel_7_stage<Finish::atomic>());
}
harness::StageProgram<harness::Reduce> reduce_kernel_8_program() {
  return finish_program(reduce_kernel_8_stage<Finish::partials>(), reduce_kernel_8_stage<Finish::atomic>());
}
harness::StageProgram<harness::Reduce> reduce_kernel_9a_program() { return reduce_kernel_9a_stage(); }
harness::StageProgram<harness::Reduce> reduce_kernel_9b_program() { return reduce_kernel_9b_stage(); }
harness::StageProgram<harness::Reduce> reduce_kernel_9_program() { return reduce_kernel_9_stage(); }
harness::StageProgram<harness::Reduce> reduce_kernel_10_program() { return reduce_kernel_10_stage(); }
harness::StageProgram<harness::Reduce> reduce_kernel_11_program() { return reduce_kernel_11_stage(); }
harness::StageProgram<harness::Reduce> reduce_kernel_12_program() { return reduce_kernel_12_stage(); }
harness::StageProgram<harness::Reduce> reduce_kernel_13_program() { return reduce_kernel_13_stage(); }

}  // namespace ch07
