// Stage 0 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_0_atomic.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_0_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_0";
  meta.label = "one atomicAdd per element";
  meta.change = "the naive start: every thread adds its element to the result with atomicAdd";
  meta.source = "article section 2";
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_0<T><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
