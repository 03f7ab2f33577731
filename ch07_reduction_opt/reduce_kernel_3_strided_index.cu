// Stage 3 as a harness::ReduceImpl: its description and how it is launched.
#include "ch07_stages.hpp"
#include "reduce_kernel_3_strided_index.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_3_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_3";
  meta.label = "strided index";
  meta.change = "thread tid works on slot 2*s*tid: active threads are contiguous, no divergent warps (but bank conflicts)";
  meta.source = "article section 6";
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_3<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
