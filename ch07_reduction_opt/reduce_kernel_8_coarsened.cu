// Stage 8 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_8_coarsened.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_8_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_8";
  meta.label = "thread coarsening";
  meta.change = "each thread first sums many elements in a grid-stride loop (coarsening), then one block reduction";
  meta.source = "article section 11";
  meta.grid_stride = true;
  meta.grid_for = coarsened_grid;
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_8<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
