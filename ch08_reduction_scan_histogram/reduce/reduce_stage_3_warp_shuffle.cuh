//! @file reduce_stage_3_warp_shuffle.cuh
//! @brief Stage 3 (chapter 8, section 8.5): the last five levels of the tree move from shared memory
//! into registers: warp 0 finishes with __shfl_down_sync, all 32 of its lanes taking part.
//!
//! Changed against stage 2: the shared-memory tree stops when 32 values remain (the level with
//! stride 32 leaves them in warp 0's registers), and warp 0 folds those 32 values in five shuffle
//! steps (offsets 16, 8, 4, 2, 1). The shuffles need no barrier and no shared memory: the lanes of
//! one warp exchange registers directly. Every lane executes every shuffle with the full mask, even
//! the lanes whose results are thrown away, because a shuffle whose source lane did not execute it
//! is undefined.
//! Cost per block: log2(Block) - 5 barriers (3 at Block = 256, 4 at 512, 0 at 32).
//! What the profiler shows against stage 2: five fewer barriers per block; fewer shared load/store
//! instructions; SHFL instructions appear.
//! Uses stage 2's grid_stride_fold and grid rule (grid_stride.cuh); warp_fold is in block_folds.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "cuda_check.hpp"
#include "reduce_ops.cuh"
#include "reduce_second_pass.cuh"
#include "block_folds.cuh"
#include "grid_stride.cuh"

namespace ch08 {

//! Stage 3: grid-stride fold, a shared-memory tree down to 32 values, then warp 0 shuffles.
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
//! ceil(n / Block)). Barriers per block: log2(Block) - 5.
//! Source: chapter 8, sections 8.4 and 8.5.
template <class T, class Op, int Block, class Sync>
__global__ void reduce_stage_3(const T* __restrict__ in, std::size_t n,
                               accumulator_t<Op, T>* __restrict__ partials, Op op, Sync sync) {
  using Acc = accumulator_t<Op, T>;
  const unsigned tid = threadIdx.x;
  Acc v = grid_stride_fold(in, n, op);
  if constexpr (Block > 32) {
    __shared__ Acc s[Block];
    s[tid] = v;
    // Each level's active threads keep their value in a register as well, so after the level with
    // stride 32 warp 0 holds the 32 remaining values and no final barrier is needed.
#pragma unroll
    for (unsigned stride = Block / 2; stride >= 32; stride >>= 1) {
      sync.barrier();
      if (tid < stride) {
        v = op(v, s[tid + stride]);
        s[tid] = v;
      }
    }
  }
  if (tid < 32) {  // the whole of warp 0: every lane takes part in every shuffle
    v = warp_fold(v, op);
    if (tid == 0) partials[blockIdx.x] = v;
  }
  sync.done();
}

// ---- How stage 3 is launched -----------------------------------------------------------------

//! Stage 3's grid: one full wave of its kernel (see resident_grid_for).
inline std::size_t reduce_stage_3_grid(const harness::ReduceArgs& a) {
  return resident_grid_for(a, [](auto t, auto op, auto block) {
    return reinterpret_cast<const void*>(&reduce_stage_3<decltype(t), decltype(op), decltype(block)::value, PlainBarrier>);
  });
}

//! Launches stage 3 on a.stream, in two passes: reduce_stage_3_grid(a) blocks, each thread folding about n / (grid x Block) elements in a grid-stride loop; each block writes its partial to
//! the workspace. Then reduce_second_pass, one block of kSecondPassBlock threads, folds the partials
//! into the result. No atomics, so the result is the same on every run.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            workspace of partials_bytes(a, grid) bytes
inline void launch_reduce_stage_3(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_3_grid(a);
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    Acc* partials = a.scratch<Acc>();
    reduce_stage_3<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, op, PlainBarrier{});
    CUDA_CHECK_LAUNCH();
    reduce_second_pass<Acc, Op, kSecondPassBlock>
        <<<1, kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<Acc>(), op);
  });
}

//! Stage 3 as the harness runs it: the program `reduce_stage_3`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_3_stage() {
  return grid_stride_stage(
      {"reduce_stage_3", "warp shuffles",
       "the tree stops at 32 values and warp 0 finishes with __shfl_down_sync, all lanes taking part: 5 fewer "
       "barriers",
       "chapter 8, section 8.5"},
      reduce_stage_3_grid, launch_reduce_stage_3);
}

}  // namespace ch08
