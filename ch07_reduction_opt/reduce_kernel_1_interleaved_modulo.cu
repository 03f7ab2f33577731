// Stage 1 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_1_interleaved_modulo.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_1_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_1";
  meta.label = "shared-memory tree, modulo branch";
  meta.change = "each block sums its elements in a shared-memory tree (tid % 2s == 0 picks the active threads); one atomicAdd per block";
  meta.source = "article section 3";
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_1<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
