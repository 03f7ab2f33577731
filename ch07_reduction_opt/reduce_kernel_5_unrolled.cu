// Stage 5 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_5_unrolled.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_5_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_5";
  meta.label = "unrolled by block size";
  meta.change = "the block size is a template parameter, so the tree is fully unrolled; the partial stays in a register";
  meta.source = "article section 8";
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_5<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
