//! @file kernel_support.cuh
//! @brief Small pieces shared by the stage launchers: compile-time block-size dispatch,
//! launch-size arithmetic, the launch of a grid that is one thread block cluster, and warp helpers
//! that build for every architecture from sm_75. Device code only needs CUDA; nothing here allocates.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>

#include "cuda_check.hpp"
#include "errors.hpp"

namespace harness {

//! Calls `f(std::integral_constant<int, B>{})` with B equal to `block`, for the power-of-two block
//! sizes 32..1024, so that kernels templated on their block size can be chosen at run time.
//! @tparam F a generic callable taking `std::integral_constant<int, B>` for each B above
//! @throws UsageError for any other block size.
template <class F>
void with_block_size(int block, F&& f) {
  switch (block) {
    case 32: f(std::integral_constant<int, 32>{}); return;
    case 64: f(std::integral_constant<int, 64>{}); return;
    case 128: f(std::integral_constant<int, 128>{}); return;
    case 256: f(std::integral_constant<int, 256>{}); return;
    case 512: f(std::integral_constant<int, 512>{}); return;
    case 1024: f(std::integral_constant<int, 1024>{}); return;
    default:
      throw UsageError("block size " + std::to_string(block) +
                       " is not a power of two from 32 to 1024");
  }
}

//! Resident threads and blocks one SM holds on the architecture this compiler pass targets
//! (__CUDA_ARCH__): 1024 threads and 16 blocks on sm_75 (T4); 1536 and 16 on sm_86, sm_87 and sm_88
//! (RTX 30, Jetson Orin); 1536 and 24 on sm_89, sm_110, sm_120 and sm_121 (RTX 40 and 50, Thor);
//! 2048 and 32 on the others (sm_80, sm_90, sm_100, ...) and in the host pass. Only for
//! __launch_bounds__ (launch_min_blocks): ptxas is never asked for more blocks than the SM can hold,
//! which it would warn about and ignore.
//! Source: CUDA C++ Programming Guide, "Compute Capabilities" (technical specifications table).
struct CompiledSmLimits {
  int threads;  //!< resident threads per SM
  int blocks;   //!< resident blocks per SM
};

//! The CompiledSmLimits of the architecture this compiler pass targets.
__host__ __device__ constexpr CompiledSmLimits compiled_sm_limits() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
  return {1024, 16};
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 880)
  return {1536, 16};
#elif defined(__CUDA_ARCH__) && \
    (__CUDA_ARCH__ == 890 || __CUDA_ARCH__ == 1100 || __CUDA_ARCH__ == 1200 || __CUDA_ARCH__ == 1210)
  return {1536, 24};
#else
  return {2048, 32};
#endif
}

//! The second argument of __launch_bounds__ for `min_blocks` resident blocks of `block` threads per
//! SM, capped at what one SM of the target architecture holds (compiled_sm_limits); 0 for none.
//! It caps the kernel's registers at 65536 / (blocks x block) per thread, so that what a stage
//! keeps in registers cannot lower its occupancy below that.
//! @param[in] block threads per block, a power of two 32..1024
//! @param[in] min_blocks blocks wanted per SM (0: no bound)
__host__ __device__ constexpr int launch_min_blocks(int block, int min_blocks) {
  const CompiledSmLimits sm = compiled_sm_limits();
  const int by_threads = sm.threads / block;
  const int fit = by_threads < sm.blocks ? by_threads : sm.blocks;
  return min_blocks <= fit ? min_blocks : (fit > 0 ? fit : 1);
}

//! launch_min_blocks for a full SM: as many blocks of `block` threads as one SM holds (32 registers
//! per thread where 2048 threads fit).
__host__ __device__ constexpr int full_sm_blocks(int block) { return launch_min_blocks(block, 1 << 30); }

//! Number of blocks of `block` threads that cover n elements at one element per thread.
inline std::size_t blocks_for(std::size_t n, int block) {
  return (n + static_cast<std::size_t>(block) - 1) / static_cast<std::size_t>(block);
}

//! The length of the array in which a one-cluster grid's first block collects its blocks' values: 32,
//! one per lane of the warp that folds them, more than any GPU puts in one cluster (8 is the portable
//! limit; an H100 allows 16 with non-portable sizes). The one-cluster stages cap their grids at it.
inline constexpr int kMaxClusterBlocks = 32;

//! Launches `kernel` on `grid` blocks of `block` threads, on `stream`, with `args`, the whole grid one
//! thread block cluster: cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension set to the grid
//! (a <<<...>>> launch cannot choose the cluster size at run time).
//! @param[in] kernel the __global__ function
//! @param[in] grid blocks, at most the kernel's cluster capacity on this GPU (max_cluster_blocks,
//!            device_info.hpp, which also allows sizes past the portable 8 and must have been asked)
//! @param[in] block threads per block
//! @param[in] stream the stream to launch on
//! @param[in] args the kernel's arguments
//! @throws CudaError when the launch fails (for instance below sm_90, where clusters do not exist)
//! Source: CUDA C++ Programming Guide, "Thread Block Clusters" (launch with cudaLaunchKernelEx).
template <class... Params, class... Args>
void launch_one_cluster(void (*kernel)(Params...), unsigned grid, int block, cudaStream_t stream, Args... args) {
  cudaLaunchAttribute cluster_dim = {};
  cluster_dim.id = cudaLaunchAttributeClusterDimension;
  cluster_dim.val.clusterDim.x = grid;  // the whole grid is one cluster
  cluster_dim.val.clusterDim.y = 1;
  cluster_dim.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(static_cast<unsigned>(block));
  config.stream = stream;
  config.attrs = &cluster_dim;
  config.numAttrs = 1;
  CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, args...));
}

//! Global index of the calling thread, computed in 64 bits so it never wraps for grids past 2^31 threads.
__device__ __forceinline__ std::size_t global_thread_id() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

//! Total threads in the grid, in 64 bits: the stride of a grid-stride loop.
__device__ __forceinline__ std::size_t grid_threads() {
  return static_cast<std::size_t>(gridDim.x) * blockDim.x;
}

//! Sum of `value` over the 32 lanes of the calling warp, modulo 2^32, returned to every lane.
//! On sm_80 and newer it is one `__reduce_add_sync` (a single REDUX instruction); older GPUs
//! (sm_75) lack that intrinsic and get a `__shfl_xor_sync` butterfly of five steps, which gives
//! every lane the same total. All 32 lanes must call it together (full mask).
//! @param[in] value this lane's term
//! @return the warp's total, in every lane
__device__ __forceinline__ unsigned warp_sum_unsigned(unsigned value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xffffffffu, value);
#else
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
#endif
}

}  // namespace harness
