//! @file reduce_stage_9_cluster_finish.cuh
//! @brief Stage 9 (past the chapter's sections, sm_90 and newer): the whole grid is one thread block
//! cluster, and the blocks fold their values through distributed shared memory instead of global
//! memory. Chapter 7's stage 13 (reduce_kernel_13_cluster_finish.cuh) with chapter 8's operators.
//!
//! From two blocks to a few dozen, stage 7's time is set by its finish, not by its loads: after its
//! last load each block stores its partial, takes an acquire-release ticket and, if last, loads the
//! partials back, a chain of round trips to L2 (README.md of this folder has the Nsight Compute
//! cycles of one block against sixteen blocks and a finish). Stage 8's relaxed finish did not shorten
//! that chain. On Hopper the blocks of one cluster (at most 8 everywhere, 16 where the GPU allows
//! it) run at the same time in one GPC and can read and write each other's shared memory, so they can
//! meet without L2. Changed against stage 7:
//!   - one cluster is the grid: at most reduce_stage_9_capacity() blocks, so no ticket, no partials
//!     in global memory and no workspace at all;
//!   - the finish: thread 0 of each block stores its block's value into block 0's shared memory (a
//!     distributed shared memory store); the cluster barrier (arrive with release, wait with acquire)
//!     makes those stores visible to block 0, whose first warp folds them in rank order with stage
//!     3's warp_fold: the same bits on every run;
//!   - a split cluster barrier at the start: a thread may touch another block's shared memory only
//!     once that block is running, so every thread arrives (relaxed) when it starts and waits just
//!     before the store, when its loads are done and the other blocks have long started;
//!   - a grid for latency: one block per Block 16-byte loads of input (one load per thread), up to
//!     the cluster's capacity; past that the threads go round stage 5's loop, kVectorLoads loads in
//!     flight per trip. One cluster is a small part of the GPU (at most 16 of its SMs), so from some
//!     size on stage 7's grid of up to a full wave is faster again: the size rule says where.
//! Everything else is stage 5's: the vectorised grid-stride loop (grid_stride_fold_vec16) and the
//! block reduction (block_fold), for every n and any element-aligned address.
//! Launch: harness::launch_one_cluster (cudaLaunchKernelEx with the cluster dimension as a launch
//! attribute). Built for less than sm_90 the kernel is a trap, never launched: the stage refuses
//! GPUs below sm_90 (min_cc) and builds without sm_90 code (device_rule), and names stage 7 instead.
//! What the profiler should show against stage 7: one kernel, no atomic and no global store but the
//! result; at sizes where both have the same grid, a shorter kernel (Nsight Compute's cycles of both
//! at 2^16 floats: docs/results/H100/kernel_time/one_launch_cluster_float_sum_n2e16.txt).
//! Source: chapter 7's stage 13; CUDA C++ Programming Guide, "Thread Block Clusters" and
//! "Distributed Shared Memory"; PTX ISA, barrier.cluster.
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "barrier_policy.cuh"
#include "block_folds.cuh"
#include "build_archs.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "kernel_support.cuh"
#include "reduce_ops.cuh"
#include "reduce_problem.hpp"
#include "reduce_second_pass.cuh"
#include "reduce_stage_5_vectorized.cuh"

namespace ch08 {

//! Stage 9: stage 5's fold and block reduction, then the cluster's finish in distributed shared
//! memory: each block's value into block 0's shared memory, one cluster barrier, block 0's first warp
//! folds them in rank order and writes the result.
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] in n input elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] out one accumulator: the result (written, not accumulated: no zeroing)
//! @param[in] op the operator
//! Launch: one cluster is the whole grid (cluster dimension = gridDim.x <= harness::kMaxClusterBlocks,
//! launch_reduce_stage_9). Requires sm_90; compiled for less, it traps.
template <class T, class Op, int Block>
__global__ void __launch_bounds__(Block)
    reduce_stage_9(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* out, Op op) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap();  // never launched: the stage refuses GPUs below sm_90 (min_cc) and builds without sm_90 code
#else
  namespace cg = cooperative_groups;
  using Acc = accumulator_t<Op, T>;
  const cg::cluster_group cluster = cg::this_cluster();
  static_assert(harness::kMaxClusterBlocks <= 32, "block 0's first warp folds one value per lane");
  __shared__ Acc block_values[harness::kMaxClusterBlocks];  // block 0's copy collects the cluster's values

  __cluster_barrier_arrive_relaxed();  // "this block is running": no memory ordering needed yet
  PlainBarrier sync;
  const Acc v = block_fold<Acc, Block>(grid_stride_fold_vec16(in, n, op), op, sync);
  __cluster_barrier_wait();  // every block of the cluster has started: its shared memory exists

  if (threadIdx.x == 0) *cluster.map_shared_rank(&block_values[cluster.block_rank()], 0) = v;
  cluster.sync();  // arrive with release, wait with acquire: block 0 now sees every block's store

  if (cluster.block_rank() == 0 && threadIdx.x < 32) {
    const unsigned lane = threadIdx.x;
    Acc x = lane < cluster.num_blocks() ? block_values[lane] : Op::template identity<Acc>();
    x = warp_fold(x, op);
    if (lane == 0) *out = x;
  }
  // The other blocks may exit: nobody reads their shared memory, and block 0 reads only its own.
#endif
}

// ---- How stage 9 is launched -----------------------------------------------------------------

//! The most blocks stage 9's one cluster holds for these arguments' type, operator and block on the
//! current GPU: harness::max_cluster_blocks of its kernel (16 on an H100), at most
//! harness::kMaxClusterBlocks. The query also allows the kernel clusters past the portable 8 blocks,
//! which the launch needs: launch_reduce_stage_9 reaches it through reduce_stage_9_grid. Needs a GPU
//! of sm_90 or newer and this build's sm_90 code.
//! @return blocks, 1 to harness::kMaxClusterBlocks
//! @throws harness::CudaError when a CUDA call fails
inline std::size_t reduce_stage_9_capacity(const harness::ReduceArgs& a) {
  int capacity = 1;
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    constexpr int B = decltype(block)::value;
    capacity = harness::max_cluster_blocks(
        reinterpret_cast<const void*>(&reduce_stage_9<decltype(t), decltype(op), B>), B);
  });
  return static_cast<std::size_t>(capacity < harness::kMaxClusterBlocks ? capacity : harness::kMaxClusterBlocks);
}

//! Stage 9's grid, which is its one cluster: the user's --grid if given (at most the cluster's
//! capacity, else a UsageError), else one block per a.block 16-byte vectors of input (one load per
//! thread), at least 1 and at most reduce_stage_9_capacity(a) (harness::one_cluster_grid).
//! @return blocks in the grid (and in its one cluster)
//! @throws harness::UsageError when --grid asks for more blocks than one cluster holds on this GPU
//! @throws harness::CudaError when a CUDA call fails
inline std::size_t reduce_stage_9_grid(const harness::ReduceArgs& a) {
  return harness::one_cluster_grid(a, reduce_stage_9_capacity(a), "reduce_stage_9");
}

//! Launches stage 9 on a.stream: one launch of reduce_stage_9 on reduce_stage_9_grid(a) blocks, all
//! of them one cluster (harness::launch_one_cluster). Nothing else is enqueued and no workspace is
//! used.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            the input aligned to sizeof(T); grid 0 or at most one cluster's capacity; a GPU of
//!            sm_90 or newer
//! @throws harness::UsageError (reduce_stage_9_grid), harness::CudaError when the launch fails
inline void launch_reduce_stage_9(const harness::ReduceArgs& a) {
  const unsigned grid = static_cast<unsigned>(reduce_stage_9_grid(a));
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    harness::launch_one_cluster(reduce_stage_9<T, Op, B>, grid, B, a.stream, a.input<T>(), a.n, a.output<Acc>(), op);
  });
}

//! Summation depth of stage 9: stage 5's thread and block tree on its grid, then block 0's warp
//! folding the cluster's values: five levels.
inline double reduce_stage_9_depth(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_9_grid(a);
  return harness::reduce_depth(reduce_stage_5_per_thread(a, grid), a.block, 0) + harness::tree_levels(32);
}

//! Stage 9 as the harness runs it: the program `reduce_stage_9`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_9_stage() {
  harness::Stage<harness::Reduce> s = harness::stage_of_card<harness::Reduce>(
      {"reduce_stage_9", "one cluster, finish in distributed shared memory",
       "the grid is one thread block cluster (at most 16 blocks on an H100): the blocks fold their values in block "
       "0's shared memory after one cluster barrier, with no ticket, no partials in global memory and no workspace; "
       "one block per 4 KiB of input at block 256 (sm_90+)",
       "past chapter 8: chapter 7's stage 13 with chapter 8's operators; CUDA C++ Programming Guide, thread block "
       "clusters and distributed shared memory"});
  s.caps = two_pass_caps();
  s.deterministic = true;
  s.grid_stride = true;
  s.min_cc = 90;
  s.instead = "reduce_stage_7";
  s.unavailable = harness::no_code_in_build(900);
  s.device_rule = [](const harness::ReduceArgs&, const harness::DeviceLimits& limits) {
    return harness::no_code_for(limits, 900);
  };
  s.grid_for = reduce_stage_9_grid;
  s.depth = reduce_stage_9_depth;
  s.launch = launch_reduce_stage_9;
  return s;
}

}  // namespace ch08
