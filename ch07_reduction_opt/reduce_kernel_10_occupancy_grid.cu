// Stage 10 as a harness::ReduceImpl, and the occupancy-based grid it introduces.
#include <algorithm>
#include <map>
#include <utility>

#include "ch07_stages.hpp"
#include "cuda_check.hpp"
#include "reduce_kernel_10_occupancy_grid.cuh"
#include "stage_launch.cuh"

namespace ch07 {

std::size_t occupancy_grid(const void* kernel, int block, std::size_t n, std::size_t elem_bytes) {
  static std::map<std::pair<const void*, int>, int> resident;  // occupancy answers, per kernel and block
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  auto it = resident.find({kernel, block});
  if (it == resident.end()) {
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    it = resident.emplace(std::make_pair(kernel, block), std::max(per_sm, 1)).first;
  }
  const std::size_t full_wave = static_cast<std::size_t>(sms) * static_cast<std::size_t>(it->second);
  (void)elem_bytes;
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
  meta.grid_for = [](const harness::ReduceArgs& a) {
    if (a.grid != 0) return a.grid;
    std::size_t grid = 0;
    harness::with_input_type(a.type, [&](auto t) {
      using T = decltype(t);
      harness::with_block_size(a.block, [&](auto block) {
        grid = occupancy_grid(reinterpret_cast<const void*>(&reduce_kernel_9<T, decltype(block)::value>),
                              a.block, a.n, sizeof(T));
      });
    });
    return grid;
  };
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    reduce_kernel_9<T, decltype(block)::value><<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace ch07
