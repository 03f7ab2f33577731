//! @file histogram_grid.hpp
//! @brief Grid sizes of the histogram stages: the bound that keeps 32-bit shared-memory counters
//! exact, and the occupancy of kernels whose shared memory is sized at launch.
//!
//! **Why 32-bit shared counters are exact.** A block adds to its shared-memory counters only the
//! samples it reads, so no counter can exceed the block's share of the input. In a grid-stride loop
//! over vectors of S <= 16 samples, block b's share is at most ceil(V / (G B)) B S samples
//! (V = ceil(n / S) vectors, G blocks of B <= 1024 threads), which is below n / G + S + B S, plus the
//! at most 2 (S - 1) head and tail samples block 0 handles. Every stage therefore launches at least
//! min_blocks_for_counters(n) = ceil(n / 2^31) blocks (raising a smaller --grid), and a block's share
//! stays below 2^31 + 2^14 + 46 < 2^32 - 1. The global counters are 64-bit (harness::Count).
#pragma once
#include <algorithm>
#include <cstddef>

#include "histogram_problem.hpp"

namespace harness {

//! Most samples a grid-stride histogram block may be given (see the file comment): 2^31.
inline constexpr std::size_t kMaxSamplesPerBlock = std::size_t{1} << 31;
//! CUDA's limit on gridDim.x.
inline constexpr std::size_t kMaxGridBlocks = 2147483647;

//! Fewest blocks that keep every block's share of n samples within kMaxSamplesPerBlock (>= 1).
inline std::size_t min_blocks_for_counters(std::size_t n) {
  return std::max<std::size_t>(1, (n + kMaxSamplesPerBlock - 1) / kMaxSamplesPerBlock);
}

//! The grid a grid-stride histogram stage launches: `requested` (--grid) if non-zero, else
//! `preferred` (the stage's default), raised to min_blocks_for_counters(n), capped at CUDA's limit.
inline std::size_t stage_grid(std::size_t requested, std::size_t preferred, std::size_t n) {
  const std::size_t g = requested != 0 ? requested : preferred;
  return std::min(std::max(g, min_blocks_for_counters(n)), kMaxGridBlocks);
}

//! Lets `kernel` use `dynamic_smem` bytes of dynamic shared memory (raising its limit past the
//! default 48 KiB when needed) and returns how many blocks of `block` threads fit on the device at
//! once: SMs x cudaOccupancyMaxActiveBlocksPerMultiprocessor(kernel, block, dynamic_smem), at
//! least one per SM. Cached per device, kernel, block and size. (harness::resident_blocks asks with
//! no dynamic shared memory, which overestimates these kernels.)
//! @throws UsageError when the device cannot give one block that much shared memory
//! @throws CudaError on other CUDA failures
std::size_t resident_blocks_with_smem(const void* kernel, int block, std::size_t dynamic_smem);

//! Only the first half of resident_blocks_with_smem: raises `kernel`'s dynamic shared-memory limit
//! to `dynamic_smem` bytes when that is past 48 KiB. Call before launching such a kernel.
//! @throws UsageError when the device cannot give one block that much shared memory
void allow_dynamic_smem(const void* kernel, std::size_t dynamic_smem);

//! Default grid of a coarsened (grid-stride) stage: the blocks of its kernel resident at once with
//! its shared memory, but no more than one step of `per_step` samples per thread needs; then
//! --grid and the counter bound (stage_grid).
//! @tparam WithKernel callable as `with_kernel(a, f)`, calling `f(kernel, T{}, map, smem_bytes)`
//!         with the stage's kernel for the arguments (each stage header has one)
//! @param[in] a the launch arguments (type, n, block, grid, bins)
//! @param[in] per_step samples a thread takes per step of its loop (1, or a vector's 16 / sizeof(T))
//! @param[in] with_kernel the stage's kernel dispatch (see the tparam)
template <class WithKernel>
std::size_t resident_grid(const HistogramArgs& a, std::size_t per_step, WithKernel&& with_kernel) {
  std::size_t resident = 0;
  with_kernel(a, [&](auto kernel, auto, auto, std::size_t smem) {
    resident = resident_blocks_with_smem(reinterpret_cast<const void*>(kernel), a.block, smem);
  });
  const std::size_t steps = (a.n + per_step - 1) / per_step;
  const std::size_t block = static_cast<std::size_t>(a.block);
  const std::size_t needed = std::max<std::size_t>(1, (steps + block - 1) / block);
  return stage_grid(a.grid, std::min(resident, needed), a.n);
}

}  // namespace harness
