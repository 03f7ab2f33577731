// Stage 10 as a harness::ReduceImpl, and the occupancy-based grid it introduces.
#include <algorithm>

#include "ch07_stages.hpp"
#include "device_info.hpp"
#include "reduce_kernel_10_occupancy_grid.cuh"
#include "stage_launch.cuh"

namespace ch07 {

std::size_t occupancy_grid(const void* kernel, int block, std::size_t n) {
  const std::size_t full_wave = harness::resident_blocks(kernel, block);
  const std::size_t with_work = std::max<std::size_t>(1, harness::blocks_for(n, block * static_cast<int>(kMinElementsPerThread)));
  return std::min(full_wave, with_work);
}

harness::ReduceImpl reduce_kernel_10_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_kernel_10";
  meta.label = "grid from the occupancy API";
  meta.change = "one full wave of resident blocks (SMs x blocks per SM from cudaOccupancyMaxActiveBlocksPerMultiprocessor)";
  meta.source = "this tutorial (past the article); CUDA programming guide, occupancy calculator API";
  meta.grid_stride = true;
  meta.grid_for = occupancy_grid_rule([](auto t, auto block) {
    return reinterpret_cast<const void*>(&reduce_kernel_9<decltype(t), decltype(block)::value>);
  });
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_9<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
