// Stage 11 as a harness::ReduceImpl: one launch, partials in the workspace, last-block finish.
#include "ch07_stages.hpp"
#include "reduce_kernel_10_occupancy_grid.cuh"
#include "reduce_kernel_11_single_pass.cuh"
#include "stage_launch.cuh"

namespace ch07 {

harness::ReduceImpl reduce_kernel_11_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_11";
  meta.label = "single pass, last block finishes";
  meta.change = "blocks write partials; the last block to finish (threadfence + ticket counter) sums them: one launch, no float atomics, deterministic";
  meta.source = "CUDA programming guide, memory fence functions; CUDA samples threadFenceReduction";
  meta.grid_stride = true;
  meta.deterministic = true;
  const auto grid_of = occupancy_grid_rule([](auto t, auto block) {
    return reinterpret_cast<const void*>(&reduce_kernel_11<decltype(t), decltype(block)::value>);
  });
  meta.grid_for = grid_of;
  meta.workspace_bytes = [grid_of](const harness::ReduceArgs& a) {
    return grid_of(a) * harness::dtype_size(a.type);
  };
  meta.launch = [grid_of](const harness::ReduceArgs& a) {
    const std::size_t grid = grid_of(a);
    harness::with_input_type(a.type, [&](auto t) {
      using T = decltype(t);
      harness::with_block_size(a.block, [&](auto block) {
        reduce_kernel_11<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(
            input_as<T>(a), a.n, static_cast<T*>(a.workspace), output_as<T>(a));
      });
    });
  };
  return meta;
}

}  // namespace ch07
