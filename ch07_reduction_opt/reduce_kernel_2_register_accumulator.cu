// Stage 2 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_2_register_accumulator.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_2_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_2";
  meta.label = "register accumulator";
  meta.change = "the thread's own partial stays in a register: one shared load per level instead of two";
  meta.source = "article section 5";
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_2<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
