//! @file reduce_kernel_13_cluster_finish.cuh
//! @brief Stage 13 (past the article, sm_90 and newer): the whole grid is one thread block cluster,
//! and the blocks add their sums through distributed shared memory instead of global memory.
//!
//! Stage 12 runs in one launch, but from two blocks on its blocks meet in global memory: each writes
//! its partial, takes a ticket with an acquire-release atomic, and the last block reads every
//! partial back (last_block_finish.cuh): a chain of round trips to the L2 after the last load.
//! small_inputs.md measures what that chain costs. On Hopper the blocks of one cluster (at most 8
//! everywhere, 16 where the GPU allows it) are scheduled together on one group of SMs (a GPC) and
//! can read and write each other's shared memory. Changed against stage 12:
//!   - one cluster is the grid: at most reduce_kernel_13_capacity() blocks, so no ticket, no partials in
//!     global memory and no workspace at all;
//!   - the finish: thread 0 of each block stores its block's sum into block 0's shared memory (a
//!     distributed shared memory store), the cluster barrier (release, then acquire) makes those
//!     stores visible to block 0, whose first warp adds them in rank order: deterministic;
//!   - a split cluster barrier at the start: a thread may touch another block's shared memory only
//!     once that block is running, so every thread arrives (relaxed) when it starts and waits just
//!     before the store, when the loads are done and the other blocks have long started;
//!   - a grid for latency, not bandwidth: one block per Block 16-byte loads of input (one load per
//!     thread), up to the cluster's capacity; past that the threads go round the grid-stride loop,
//!     kUnroll loads in flight per trip. One cluster is a small part of the GPU (at most 16 blocks,
//!     in one GPC), so from some size on stage 12 is faster again: the small-input ladder shows where.
//!   - a default block of 256 threads. With the grid capped at one cluster, blocks of 256 whose threads
//!     have four loads in flight read as many bytes per trip as blocks of 1024 with one load each, and
//!     the block sweep (docs/results/H100/block_sweep/) times 256 ahead of 1024 from 2^10 to 2^16 for
//!     float, int and double, and on to 2^22 for float and int (double from 2^18 is faster at 1024, at
//!     sizes where stage 12 is faster than either).
//! Launch: cudaLaunchKernelEx with the cluster dimension as a launch attribute (a <<<...>>> launch
//! cannot set it at run time). Built for less than sm_90, the kernel is a trap, never launched: the
//! stage refuses GPUs below sm_90 (min_cc) and builds without sm_90 code (device_rule).
//! Source: this tutorial; CUDA C++ Programming Guide, "Thread Block Clusters" and "Distributed
//! Shared Memory"; PTX ISA, barrier.cluster.
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "block_sum_one_barrier.cuh"
#include "build_archs.hpp"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "kernel_support.cuh"
#include "reduce_grids.cuh"
#include "reduce_problem.hpp"
#include "thread_sum_vectorized.cuh"
#include "warp_sum.cuh"

namespace ch07 {

//! Block 0's array of block sums holds harness::kMaxClusterBlocks (32) values: more than any GPU puts
//! in one cluster.
using harness::kMaxClusterBlocks;

//! Stage 13: stage 12's accumulation and block sum, then the cluster's finish in distributed shared
//! memory: each block's sum into block 0's shared memory, one cluster barrier, block 0's first warp
//! adds them in rank order and writes the result.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] result one element: the sum (written, not accumulated: no zeroing needed)
//! Launch: one cluster is the whole grid (cluster dimension = gridDim.x <= kMaxClusterBlocks,
//! launch_reduce_kernel_13). Requires sm_90; compiled for less, it traps.
template <class T, int Block>
__global__ void __launch_bounds__(Block) reduce_kernel_13(const T* __restrict__ data, std::size_t n, T* result) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // never launched: the stage refuses GPUs below sm_90 (min_cc) and builds without sm_90 code
#else
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  static_assert(kMaxClusterBlocks <= 32, "block 0's first warp adds one sum per lane");
  __shared__ T block_sums[kMaxClusterBlocks];  // block 0's copy collects the cluster's block sums

  __cluster_barrier_arrive_relaxed();  // "this block is running": no memory ordering needed yet
  const T sum = block_sum_one_barrier<T, Block>(thread_sum_vectorized<kUnroll, true>(data, n));
  __cluster_barrier_wait();  // every block of the cluster has started: its shared memory exists

  if (threadIdx.x == 0) *cluster.map_shared_rank(&block_sums[cluster.block_rank()], 0) = sum;
  cluster.sync();  // arrive with release, wait with acquire: block 0 now sees every block's store

  if (cluster.block_rank() == 0 && threadIdx.x < 32) {
    const unsigned lane = threadIdx.x;
    const T total = warp_shuffle_sum(lane < cluster.num_blocks() ? block_sums[lane] : T(0));
    if (lane == 0) *result = total;
  }
  // The other blocks may exit: nobody reads their shared memory, and block 0 reads only its own.
#endif
}

// ---- How stage 13 is launched ----------------------------------------------------------------

//! The most blocks stage 13's one cluster holds for these arguments' type and block on the current
//! GPU: harness::max_cluster_blocks of its kernel (16 on an H100), at most kMaxClusterBlocks. The
//! query also allows the kernel clusters past the portable 8 blocks, which the launch needs:
//! launch_reduce_kernel_13 reaches it through reduce_kernel_13_grid before launching. Needs a GPU
//! of sm_90 or newer and this build's sm_90 code.
//! @return blocks, 1 to kMaxClusterBlocks
//! @throws harness::CudaError when a CUDA call fails
inline std::size_t reduce_kernel_13_capacity(const harness::ReduceArgs& a) {
  int capacity = 1;
  harness::with_input_type(a.type, [&](auto t) {
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      capacity = harness::max_cluster_blocks(reinterpret_cast<const void*>(&reduce_kernel_13<decltype(t), B>), B);
    });
  });
  return static_cast<std::size_t>(capacity < kMaxClusterBlocks ? capacity : kMaxClusterBlocks);
}

//! Stage 13's grid, which is its one cluster: the user's --grid if given (at most the cluster's
//! capacity, else a UsageError), else one block per a.block 16-byte vectors of input (one load per
//! thread), at least 1 and at most reduce_kernel_13_capacity(a) (harness::one_cluster_grid).
//! @return blocks in the grid (and in its one cluster)
//! @throws harness::UsageError when --grid asks for more blocks than one cluster holds on this GPU
//! @throws harness::CudaError when a CUDA call fails
inline std::size_t reduce_kernel_13_grid(const harness::ReduceArgs& a) {
  return harness::one_cluster_grid(a, reduce_kernel_13_capacity(a), "reduce_kernel_13");
}

//! Launches stage 13 on a.stream: one launch of reduce_kernel_13 on reduce_kernel_13_grid(a) blocks,
//! all of them one cluster (harness::launch_one_cluster: cudaLaunchKernelEx with
//! cudaLaunchAttributeClusterDimension). Nothing
//! else is enqueued and no workspace is used.
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or at
//!            most one cluster's capacity; a GPU of sm_90 or newer
//! @throws harness::UsageError (reduce_kernel_13_grid), harness::CudaError when the launch fails
inline void launch_reduce_kernel_13(const harness::ReduceArgs& a) {
  const unsigned grid = static_cast<unsigned>(reduce_kernel_13_grid(a));
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      harness::launch_one_cluster(reduce_kernel_13<T, B>, grid, B, a.stream, a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 13 as the harness runs it: the program `reduce_kernel_13`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_13_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_kernel_13";
  s.label = "one cluster, finish in distributed shared memory";
  s.change = "the grid is one thread block cluster (at most 16 blocks on an H100): the blocks add their sums in "
             "block 0's shared memory after one cluster barrier, with no ticket, no partials in global memory and "
             "no workspace; one block per 4 KiB of input at block 256 (sm_90+)";
  s.source = "this tutorial (past the article); CUDA C++ Programming Guide, thread block clusters and distributed "
             "shared memory";
  s.grid_stride = true;
  s.deterministic = true;
  s.min_cc = 90;
  s.instead = "reduce_kernel_12";
  s.unavailable = harness::no_code_in_build(900);
  s.device_rule = [](const harness::ReduceArgs&, const harness::DeviceLimits& limits) {
    return harness::no_code_for(limits, 900);
  };
  s.grid_for = reduce_kernel_13_grid;
  s.depth = [](const harness::ReduceArgs& a) {
    // A thread's share and the block tree as in stages 10 to 12, then block 0's warp adding the
    // cluster's sums: five levels.
    const double grid = static_cast<double>(reduce_kernel_13_grid(a));
    return occupancy_depth(a, grid, harness::tree_levels(32));
  };
  s.launch = launch_reduce_kernel_13;
  return s;
}

}  // namespace ch07
