//! @file reduce_stage_4_block_reduce.cuh
//! @brief Stage 4 (chapter 8, section 8.6): the complete block reduction. Coarsen, fold each warp by
//! shuffles, one shared-memory round of one value per warp, one barrier, and warp 0 folds the warp
//! values by shuffles again.
//!
//! Changed against stage 3: the order is turned around. Every warp shuffles its own 32 values first
//! (no shared memory, no barrier), so only Block / 32 values (8 at Block = 256) go through shared
//! memory, published by a single barrier. Only lane 0 of each warp writes its slot: the other lanes
//! hold partial folds, and 32 writers to Block / 32 slots would race (the chapter's exercise 2).
//! Cost per block: exactly 1 barrier for every block size; shared memory Block / 32 accumulators.
//! What the profiler shows against stage 3: barriers per block fall to one; shared-memory
//! instructions fall to one store per warp and one load per block; the time does not change
//! (the grid-stride loop's loads bound stages 2 to 4 alike).
//!
//! Determinism: the fold order is fixed by the code (grid-stride order, then the shuffle tree, then
//! the second pass over the partials in index order), so the same input, block and grid give the
//! same bits on every run.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "reduce_ops.cuh"
#include "reduce_stage_3_warp_shuffle.cuh"

namespace ch08 {

//! The complete block reduction of section 8.6: warp_fold in every warp, lane 0 of each warp
//! stores its warp's value, one barrier, warp 0 folds the Block / 32 values by warp_fold.
//! Uses a static shared array of Block / 32 accumulators; call it at most once per kernel (a second
//! call would need a barrier before it overwrites the slots).
//! @tparam A accumulator type
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam Op Sum, Max or Min
//! @tparam Sync PlainBarrier or CountingBarrier
//! @param[in] v this thread's value; every thread of the block must call
//! @param[in] op the operator
//! @param[in,out] sync barrier policy (exactly one barrier() is called)
//! @return in thread 0, the block's fold (other threads: unspecified)
//! Source: chapter 8, section 8.6, "The Complete Block Reduction".
template <class A, int Block, class Op, class Sync>
__device__ __forceinline__ A block_fold(A v, Op op, Sync& sync) {
  static_assert(Block >= 32 && Block <= 1024 && Block % 32 == 0, "whole warps, at most 32 of them");
  constexpr unsigned kWarps = Block / 32;
  __shared__ A warp_values[kWarps];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  v = warp_fold(v, op);
  if (lane == 0) warp_values[warp] = v;
  sync.barrier();  // the only barrier
  if (warp == 0) {
    v = (lane < kWarps) ? warp_values[lane] : Op::template identity<A>();
    v = warp_fold(v, op);
  }
  return v;
}

//! Stage 4: grid-stride fold, block_fold, one partial per block.
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
//! ceil(n / Block)). Barriers per block: 1.
//! Source: chapter 8, section 8.6.
template <class T, class Op, int Block, class Sync>
__global__ void reduce_stage_4(const T* __restrict__ in, std::size_t n,
                               accumulator_t<Op, T>* __restrict__ partials, Op op, Sync sync) {
  using Acc = accumulator_t<Op, T>;
  const Acc v = block_fold<Acc, Block>(grid_stride_fold(in, n, op), op, sync);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
  sync.done();
}

}  // namespace ch08
