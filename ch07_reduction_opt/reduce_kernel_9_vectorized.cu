// Stage 9 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_8_coarsened.cuh"
#include "reduce_kernel_9_vectorized.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_9_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_9";
  meta.label = "vectorised loads, 4 accumulators";
  meta.change = "16-byte loads, four in flight per thread with four accumulators; warp shuffles and one barrier per block";
  meta.source = "this tutorial (past the article)";
  meta.grid_stride = true;
  meta.grid_for = coarsened_grid;
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_9<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
