// Chapter 7's stages collected in ladder order: each header below holds one stage's kernel, its
// launch and its description; this file only compiles them once for the ladder and the tests.
#include <stdexcept>

#include "ch07_stages.hpp"
#include "reduce_kernel_0_atomic.cuh"
#include "reduce_kernel_10_occupancy_grid.cuh"
#include "reduce_kernel_11_single_pass.cuh"
#include "reduce_kernel_1_interleaved_modulo.cuh"
#include "reduce_kernel_2_register_accumulator.cuh"
#include "reduce_kernel_3_strided_index.cuh"
#include "reduce_kernel_4_sequential_addressing.cuh"
#include "reduce_kernel_5_unrolled.cuh"
#include "reduce_kernel_6_last_warp_unrolled.cuh"
#include "reduce_kernel_7_warp_shuffle.cuh"
#include "reduce_kernel_8_coarsened.cuh"
#include "reduce_kernel_9_vectorized.cuh"

namespace ch07 {

std::vector<harness::Stage<harness::Reduce>> all_stages() {
  return {reduce_kernel_0_stage(),
          reduce_kernel_1_stage(),
          reduce_kernel_2_stage(),
          reduce_kernel_3_stage(),
          reduce_kernel_4_stage(),
          reduce_kernel_5_stage(),
          reduce_kernel_6_stage<LastWarp::legacy_volatile>(),
          reduce_kernel_6_stage<LastWarp::syncwarp>(),
          reduce_kernel_7_stage(),
          reduce_kernel_8_stage(),
          reduce_kernel_9_stage(),
          reduce_kernel_10_stage(),
          reduce_kernel_11_stage()};
}

harness::Stage<harness::Reduce> stage_named(const std::string& name) {
  for (auto& s : all_stages())
    if (s.name == name) return s;
  throw std::out_of_range("no chapter-7 stage is called " + name);
}

}  // namespace ch07
