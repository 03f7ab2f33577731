//! @file reduce_stage_1_shared_tree.cuh
//! @brief Stage 1 (chapter 8, section 8.3): every block loads one element per thread into shared
//! memory and halves the live values level by level, with a barrier before each level.
//!
//! Changed against stage 0: the whole grid works. Thread i loads element i (the identity past the
//! end), and each block folds its Block values in log2(Block) levels; thread 0 writes the block's
//! partial. A second kernel folds the partials (reduce_second_pass.cuh).
//! Cost per block: log2(Block) barriers (8 at Block = 256, 9 at 512), Block - 1 operations through
//! shared memory, and after the first level at least half of the threads idle.
//! What the profiler shows against stage 0: DRAM throughput jumps from near zero (0% -> 20% of peak
//! on the H200 at 2^24 floats); shared load/store instructions and 8 barriers per block (Block =
//! 256) appear; the grid has ceil(n / Block) blocks, so the partials array is n / Block elements long.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "kernel_support.cuh"
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

//! Stage 1: one element per thread, the shared-memory tree, one partial per block.
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam Sync PlainBarrier or CountingBarrier
//! @param[in] in n input elements
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x accumulators: partials[b] is block b's fold
//! @param[in] op the operator
//! @param[in] sync barrier policy
//! Launch: ceil(n / Block) blocks of Block threads (at most 2^31 - 1 blocks).
//! Shared memory: Block * sizeof(accumulator) bytes (8 KiB at Block = 1024 with long long).
//! Source: chapter 8, section 8.3, "Stage 1: Tree Reduction in Shared Memory".
template <class T, class Op, int Block, class Sync>
__global__ void reduce_stage_1(const T* __restrict__ in, std::size_t n,
                               accumulator_t<Op, T>* __restrict__ partials, Op op, Sync sync) {
  using Acc = accumulator_t<Op, T>;
  __shared__ Acc s[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  s[tid] = (i < n) ? static_cast<Acc>(in[i]) : Op::template identity<Acc>();
  const Acc block_value = shared_tree<Acc, Block>(s, tid, op, sync);
  if (tid == 0) partials[blockIdx.x] = block_value;
  sync.done();
}

}  // namespace ch08
