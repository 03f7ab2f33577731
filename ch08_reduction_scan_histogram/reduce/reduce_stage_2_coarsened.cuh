//! @file reduce_stage_2_coarsened.cuh
//! @brief Stage 2 (chapter 8, section 8.4): thread coarsening. Each thread first folds many elements
//! in a register with a grid-stride loop, then the block runs stage 1's shared-memory tree once.
//!
//! Changed against stage 1: the grid no longer has one thread per element. It has as many blocks as
//! the GPU holds at once (SM count x resident blocks per SM, from the occupancy calculator; never
//! more than ceil(n / Block)), and each thread strides through the input by the whole grid, so a
//! warp's 32 loads stay contiguous. The tree, its log2(Block) barriers and the partial's store are
//! paid once per block of many elements instead of once per Block elements, and the second pass
//! folds about a thousand partials instead of n / Block.
//! What the profiler shows against stage 1: far fewer blocks (one wave instead of n / Block);
//! shared-memory instructions fall by the same factor; DRAM throughput rises; warps wait on global
//! loads ("Long Scoreboard" stalls), not on the tree.
//! Uses stage 1's shared_tree (block_folds.cuh) for the block; the grid-stride loop and its grid
//! rule are in grid_stride.cuh (stages 3 to 5 use them too).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_ops.cuh"
#include "reduce_second_pass.cuh"
#include "block_folds.cuh"
#include "grid_stride.cuh"

namespace ch08 {

//! Stage 2: grid-stride fold per thread, then stage 1's tree, one partial per block.
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam Sync PlainBarrier or CountingBarrier
//! @param[in] in n input elements
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x accumulators
//! @param[in] op the operator
//! @param[in] sync barrier policy
//! Launch: any number of blocks (default: as many as are resident at once, capped at
//! ceil(n / Block)). Barriers per block: log2(Block), as stage 1.
//! Source: chapter 8, section 8.4, "Stage 2: Thread Coarsening".
template <class T, class Op, int Block, class Sync>
__global__ void reduce_stage_2(const T* __restrict__ in, std::size_t n,
                               accumulator_t<Op, T>* __restrict__ partials, Op op, Sync sync) {
  using Acc = accumulator_t<Op, T>;
  __shared__ Acc s[Block];
  const unsigned tid = threadIdx.x;
  s[tid] = grid_stride_fold(in, n, op);
  const Acc block_value = shared_tree<Acc, Block>(s, tid, op, sync);
  if (tid == 0) partials[blockIdx.x] = block_value;
  sync.done();
}

// ---- How stage 2 is launched -----------------------------------------------------------------

//! Stage 2's grid: one full wave of its kernel (see resident_grid_for).
inline std::size_t reduce_stage_2_grid(const harness::ReduceArgs& a) {
  return resident_grid_for(a, [](auto t, auto op, auto block) {
    return reinterpret_cast<const void*>(&reduce_stage_2<decltype(t), decltype(op), decltype(block)::value, PlainBarrier>);
  });
}

//! Launches stage 2 on a.stream, in two passes: reduce_stage_2_grid(a) blocks, each thread folding about n / (grid x Block) elements in a grid-stride loop; each block writes its partial to
//! the workspace. Then reduce_second_pass, one block of kSecondPassBlock threads, folds the partials
//! into the result. No atomics, so the result is the same on every run.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            workspace of partials_bytes(a, grid) bytes
inline void launch_reduce_stage_2(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_2_grid(a);
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    Acc* partials = a.scratch<Acc>();
    reduce_stage_2<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, op, PlainBarrier{});
    CUDA_CHECK_LAUNCH();
    reduce_second_pass<Acc, Op, kSecondPassBlock>
        <<<1, kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<Acc>(), op);
  });
}

//! Stage 2 as the harness runs it: the program `reduce_stage_2`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_2_stage() {
  return grid_stride_stage(
      {"reduce_stage_2", "thread coarsening",
       "each thread first folds many elements in a grid-stride loop; one tree per block of many elements",
       "chapter 8, section 8.4"},
      reduce_stage_2_grid, launch_reduce_stage_2);
}

}  // namespace ch08
