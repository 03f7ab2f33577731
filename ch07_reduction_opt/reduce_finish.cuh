//! @file reduce_finish.cuh
//! @brief How stages 1 to 8 finish: what each block does with its sum. Two forms, chosen by the
//! launch (a template argument of every stage kernel) and by the programs' `--finish` flag:
//!
//! - **atomic** (the article; `--finish atomic`): thread 0 of each block adds the block's
//!   sum into the one result with `atomicAdd`. One launch; the result must be zeroed first; the
//!   order in which blocks add is whichever finishes first, so float sums may differ in the last
//!   bits from run to run. All blocks add to one address, and same-address atomics are serialised
//!   in the L2 slice that owns it: with one element per thread (stages 1 to 7) that queue, not the
//!   tree, sets the time (the chapter README measures it), so every stage reads the same.
//! - **partials** (the finish of Harris's slides, and the programs' default): thread 0 of each
//!   block writes the block's sum to its own slot, partials[blockIdx.x], in the workspace, and a
//!   second, small kernel (reduce_partials, below: one block) folds the partials into the result in
//!   a fixed order. No
//!   atomics: the same bits on every run, and the tree's cost shows in the time.
//!
//! Stages 9a, 9b, 9 and 10 keep the atomic (their coarsened grids have a few thousand blocks, so its
//! queue is short); stage 11 moves the partials finish into the same launch (the last block folds them).
//! Source: article sections 3-11 (atomic); M. Harris, "Optimizing Parallel Reduction in CUDA"
//! (NVIDIA, 2007), slide "Solution: Kernel Decomposition" (partials, one more launch).
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! What a block of stages 1 to 8 does with its sum.
enum class Finish {
  atomic,   //!< atomicAdd into the one result (the article)
  partials  //!< store to partials[blockIdx.x]; reduce_partials folds them (deterministic)
};

//! Threads of the one block of the second pass.
inline constexpr int kPartialsBlock = 1024;
//! Independent loads (and accumulators) each thread of the second pass keeps in flight.
inline constexpr int kPartialsUnroll = 4;

//! The second pass of the partials finish: one block folds partials[0..count) into *result.
//! Thread t adds partials t, t + Block, t + 2 Block, ... into kPartialsUnroll accumulators (their
//! loads are independent, so several are in flight at once), then the block folds its threads
//! with a shared-memory tree (sequential addressing, stage 4's tree). The order is fixed by count
//! and Block alone: the same bits on every run.
//! @tparam T float, double or int
//! @tparam Block threads of the one block (kPartialsBlock), equal to blockDim.x
//! @param[in] partials count block sums written by the first pass
//! @param[in] count number of partials (>= 1)
//! @param[out] result one element: the sum (written, not accumulated)
//! Launch: exactly one block of Block threads. Source: Harris's slides, "Kernel Decomposition".
template <class T, int Block>
__global__ void __launch_bounds__(Block)
    reduce_partials(const T* __restrict__ partials, std::size_t count, T* __restrict__ result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  T acc[kPartialsUnroll];
#pragma unroll
  for (int u = 0; u < kPartialsUnroll; ++u) acc[u] = T(0);
  std::size_t i = tid;
  for (; i + (kPartialsUnroll - 1) * std::size_t{Block} < count; i += kPartialsUnroll * std::size_t{Block}) {
#pragma unroll
    for (int u = 0; u < kPartialsUnroll; ++u) acc[u] += partials[i + u * std::size_t{Block}];
  }
  for (; i < count; i += Block) acc[0] += partials[i];
  T sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  static_assert(kPartialsUnroll == 4, "the line above folds exactly four accumulators");

  sdata[tid] = sum;
  __syncthreads();
#pragma unroll
  for (int s = Block / 2; s >= 1; s >>= 1) {
    if (tid < static_cast<unsigned>(s)) sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) *result = sum;
}

// ---- What the launches of stages 1 to 8 share ------------------------------------------------

//! Where the blocks of a stage kernel with finish F put their sums, made ready on a.stream:
//! atomic: the one-element result, zeroed (every block adds into it); partials: the workspace,
//! one slot per block (every block writes its own slot, so nothing needs zeroing).
//! @tparam F the finish
//! @tparam T the element type
//! @param[in] a the launch arguments (partials: a workspace of finish_workspace_bytes)
template <Finish F, class T>
T* block_sums_target(const harness::ReduceArgs& a) {
  if constexpr (F == Finish::atomic) {
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    return a.output<T>();
  } else {
    return a.scratch<T>();
  }
}

//! After a stage kernel of `grid` blocks with finish F: partials: launches reduce_partials on one
//! block of kPartialsBlock threads, folding the grid's block sums into the result; atomic: nothing
//! (the blocks have already added their sums).
//! @tparam F the finish
//! @tparam T the element type
//! @param[in] a the launch arguments
//! @param[in] grid blocks of the stage kernel that was just launched (>= 1)
template <Finish F, class T>
void finish_block_sums(const harness::ReduceArgs& a, std::size_t grid) {
  if constexpr (F == Finish::partials) {
    CUDA_CHECK_LAUNCH();  // the stage kernel's launch, before the second pass is enqueued
    reduce_partials<T, kPartialsBlock><<<1, kPartialsBlock, 0, a.stream>>>(a.scratch<T>(), grid, a.output<T>());
  }
}

//! The summation depth of reduce_partials over `count` partials: each thread's share of them,
//! its accumulators folded (2 levels), then the block tree.
inline double partials_pass_depth(std::size_t count) {
  return std::ceil(static_cast<double>(count) / kPartialsBlock) + 2 + harness::tree_levels(kPartialsBlock);
}

//! A rule of a stage's grid: blocks of its kernel for given arguments.
using GridRule = std::size_t (*)(const harness::ReduceArgs&);
//! A rule of a stage's thread: elements one thread folds before the block tree, for given arguments.
using PerThreadRule = double (*)(const harness::ReduceArgs&);

//! One of stages 1 to 8 with finish F, as the harness runs it: `card` (the partials form is named
//! "<name>_partials" and its finish appended to `change`), `grid(a)` blocks enqueued by `launch`,
//! whether it is deterministic, its workspace (one element per block for partials) and its
//! summation depth (`per_thread(a)` elements + log2(block) + the finish: one atomic per block one
//! after another, or the second pass's depth).
//! @tparam F the finish
//! @param[in] card the stage's name, label, change (the tree's) and source
//! @param[in] grid the blocks its kernel launches for given arguments
//! @param[in] per_thread the elements each thread folds before the block tree
//! @param[in] launch enqueues the kernel and the finish
template <Finish F>
harness::Stage<harness::Reduce> finish_stage(harness::StageCard card, GridRule grid, PerThreadRule per_thread,
                                             void (*launch)(const harness::ReduceArgs&)) {
  harness::Stage<harness::Reduce> s = harness::stage_of_card<harness::Reduce>(std::move(card));
  s.grid_for = grid;
  s.launch = launch;
  if constexpr (F == Finish::atomic) {
    s.change += "; each block atomicAdds its sum into the result (the article)";
    s.depth = [grid, per_thread](const harness::ReduceArgs& a) {
      return harness::reduce_depth(per_thread(a), a.block, static_cast<double>(grid(a)));
    };
  } else {
    s.name += "_partials";
    s.change += "; each block writes its sum to the workspace and a second one-block pass folds them (deterministic)";
    s.deterministic = true;
    s.workspace_bytes = [grid](const harness::ReduceArgs& a) { return grid(a) * harness::dtype_size(a.type); };
    s.depth = [grid, per_thread](const harness::ReduceArgs& a) {
      return harness::reduce_depth(per_thread(a), a.block, 0) + partials_pass_depth(grid(a));
    };
  }
  return s;
}

//! The grid of stages 1 to 7: one element per thread, ceil(n / block) blocks.
inline std::size_t one_element_per_thread_grid(const harness::ReduceArgs& a) {
  return harness::blocks_for(a.n, a.block);
}

//! Elements each thread of stages 1 to 7 folds before the tree: one.
inline double one_element_per_thread(const harness::ReduceArgs&) { return 1; }

}  // namespace ch07
