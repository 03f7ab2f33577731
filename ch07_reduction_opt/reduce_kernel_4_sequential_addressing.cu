// Stage 4 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_4_sequential_addressing.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_4_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_4";
  meta.label = "sequential addressing";
  meta.change = "the stride halves from Block/2 and thread tid adds sdata[tid + s]: conflict-free shared-memory access";
  meta.source = "article section 7";
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_4<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
