//! @file block_folds.cuh
//! @brief How chapter 8's reduction stages fold a block: the shared-memory tree (stage 1's
//! shared_tree), the warp's five shuffles (stage 3's warp_fold; one REDUX instruction for 32-bit
//! integers on sm_80 and newer, warp_reduce) and the complete block reduction with one barrier
//! (stage 4's block_fold), for any operator of reduce_ops.cuh.
#pragma once
#include <cuda_runtime.h>

#include <type_traits>

#include "barrier_policy.cuh"
#include "reduce_ops.cuh"

namespace ch08 {

//! The shared-memory tree of section 8.3: s[0..Block) -> s[0]. Before each level a barrier makes
//! the previous level's writes visible; at the level with stride s, threads t < s fold s[t + s]
//! into s[t]. log2(Block) levels, log2(Block) barriers.
//! @tparam A accumulator type
//! @tparam Block values in `s` and threads in the block: a power of two, 32..1024
//! @param[in,out] s Block values in shared memory, each written by its own thread (not yet
//!                published: the first level's barrier publishes them)
//! @param[in] tid threadIdx.x; every thread of the block must call
//! @param[in] op the operator
//! @param[in,out] sync barrier policy
//! @return in thread 0, the block's value (other threads: unspecified)
template <class A, int Block, class Op, class Sync>
__device__ __forceinline__ A shared_tree(A* s, unsigned tid, Op op, Sync& sync) {
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0,
                "the halving tree needs a power-of-two block");
#pragma unroll
  for (unsigned stride = Block / 2; stride > 0; stride >>= 1) {
    sync.barrier();
    if (tid < stride) s[tid] = op(s[tid], s[tid + stride]);
  }
  return s[0];
}

//! Full-warp mask for the *_sync warp intrinsics.
inline constexpr unsigned kFullWarp = 0xffffffffu;

//! Folds the 32 lanes of a warp into lane 0 with five __shfl_down_sync steps.
//! Lanes whose source lane + offset is past 31 get their own value back; for sum their results are
//! garbage and unused, for max/min they are harmless (op(x, x) == x).
//! @tparam A accumulator type (int, long long, float or double: all have shuffles)
//! @tparam Op Sum, Max or Min
//! @param[in] v this lane's value; all 32 lanes of the warp must call (full mask)
//! @param[in] op the operator
//! @return in lane 0, the warp's fold (other lanes: partial folds)
//! Source: chapter 8, section 8.5, "Stage 3: Warp Shuffles".
template <class A, class Op>
__device__ __forceinline__ A warp_fold(A v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = op(v, __shfl_down_sync(kFullWarp, v, offset));
  return v;
}

//! A warp's fold with the hardware's own warp reduction where it has one. On sm_80 and newer an int
//! max or min over the warp is one REDUX instruction (the __reduce_max_sync and __reduce_min_sync
//! intrinsics), where warp_fold takes five SHFL and five operations, each waiting on the one before.
//! Every other accumulator (float, double, and the long long of an int sum) and older GPUs take
//! warp_fold's shuffles. Integer max and min are exact, so the value is warp_fold's whatever the
//! order inside the instruction.
//! @tparam A accumulator type
//! @tparam Op Sum, Max or Min
//! @param[in] v this lane's value; all 32 lanes of the warp must call (full mask)
//! @param[in] op the operator
//! @return in lane 0 (with REDUX: in every lane), the warp's fold
//! Source: CUDA C++ Programming Guide, "Warp Reduce Functions" (compute capability 8.x and newer);
//! CUB's WarpReduce takes the same instruction for these types.
template <class A, class Op>
__device__ __forceinline__ A warp_reduce(A v, Op op) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<A, int>) {
    if constexpr (std::is_same_v<Op, Max>) return __reduce_max_sync(kFullWarp, v);
    if constexpr (std::is_same_v<Op, Min>) return __reduce_min_sync(kFullWarp, v);
  }
#endif
  return warp_fold(v, op);
}

//! The complete block reduction of section 8.6: a warp fold in every warp (warp_reduce: five
//! shuffles, or one REDUX for 32-bit integers on sm_80 and newer), lane 0 of each warp
//! stores its warp's value, one barrier, warp 0 folds the Block / 32 values by warp_reduce.
//! Uses a static shared array of Block / 32 accumulators; call it at most once per kernel unless a
//! barrier separates the calls (a second call overwrites the slots: stage 7's last block calls it
//! twice, with the ticket's barrier between, last_block_fold.cuh).
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
  v = warp_reduce(v, op);
  if (lane == 0) warp_values[warp] = v;
  sync.barrier();  // the only barrier
  if (warp == 0) {
    v = (lane < kWarps) ? warp_values[lane] : Op::template identity<A>();
    v = warp_reduce(v, op);
  }
  return v;
}

}  // namespace ch08
