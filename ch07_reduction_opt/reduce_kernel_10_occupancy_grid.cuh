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

}  // namespace ch07
