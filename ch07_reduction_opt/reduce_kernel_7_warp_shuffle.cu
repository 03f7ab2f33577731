// Stage 7 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_7_warp_shuffle.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_7_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_7";
  meta.label = "warp shuffle";
  meta.change = "the last warp reduces through registers with __shfl_down_sync: no shared memory, no __syncwarp";
  meta.source = "article section 10";
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_7<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
