//! @file reduce_kernel_10_occupancy_grid.cuh
//! @brief Stage 10 (past the article): the grid sized from the occupancy API and the SM count.
//!
//! Changed against stage 9: the kernel is the same; the launch is not. Instead of a grid that grows
//! with n (ceil(n / (Block * 32)) blocks, many waves), the launcher asks
//! cudaOccupancyMaxActiveBlocksPerMultiprocessor how many blocks of this kernel fit on one SM at
//! once and launches exactly SMs x that many: one full wave of resident blocks that stride over the
//! whole input (a persistent grid), never more blocks than there are vectors to load. No block
//! waits for a free SM, there is no tail wave, and the number of block results is small and fixed.
//! What the profiler shows: one wave (1,056 blocks on the H200 at block 256, against stage 9's 2,048),
//! so half the block results and atomics; the same DRAM throughput as stage 9 (77% vs 78% at 2^24).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "dtype.hpp"
#include "kernel_support.cuh"
#include "reduce_impl.hpp"
#include "reduce_kernel_9_vectorized.cuh"

namespace ch07 {

//! Fewest elements a thread of stages 10 and 11 gets before the grid stops growing with n: small
//! inputs launch fewer blocks (as stage 9 would), so fewer block results are combined.
inline constexpr std::size_t kMinElementsPerThread = 32;

//! Blocks of `kernel` with `block` threads that fill every SM once: SM count x the occupancy
//! API's resident blocks per SM (at least 1), capped at ceil(n / (block x kMinElementsPerThread))
//! so small inputs launch only the blocks that have a useful amount of work.
//! @param[in] kernel the kernel to size the grid for
//! @param[in] block threads per block
//! @param[in] n number of elements
//! @throws CudaError if the occupancy query fails
std::size_t occupancy_grid(const void* kernel, int block, std::size_t n);

//! A ReduceImpl grid rule for stages 10 and 11: args.grid when the user gave one, else
//! occupancy_grid of the kernel that `kernel_of(T{}, std::integral_constant<int, Block>{})`
//! returns (its address as const void*) for the element type and block size of the arguments.
//! @tparam KernelOf generic callable (T, integral_constant<int, Block>) -> const void*
//! @throws UsageError for an element type or block size outside the supported lists
//! @throws CudaError if the occupancy query fails
template <class KernelOf>
auto occupancy_grid_rule(KernelOf kernel_of) {
  return [kernel_of](const harness::ReduceArgs& a) -> std::size_t {
    if (a.grid != 0) return a.grid;
    std::size_t grid = 0;
    harness::with_input_type(a.type, [&](auto t) {
      harness::with_block_size(a.block, [&](auto block) { grid = occupancy_grid(kernel_of(t, block), a.block, a.n); });
    });
    return grid;
  };
}

}  // namespace ch07
