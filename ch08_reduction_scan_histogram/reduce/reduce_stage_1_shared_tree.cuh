//! @file reduce_stage_1_shared_tree.cuh
//! @brief Stage 1 (chapter 8, section 8.3): every block loads one element per thread into shared
//! memory and halves the live values level by level, with a barrier before each level.
//!
//! Changed against stage 0: the whole grid works. Thread i loads element i (the identity past the
//! end), and each block folds its Block values in log2(Block) levels; thread 0 writes the block's
//! partial. A second kernel folds the partials (reduce_second_pass.cuh).
//! Cost per block: log2(Block) barriers (8 at Block = 256, 9 at 512), Block - 1 operations through
//! shared memory, and after the first level at least half of the threads idle.
//! What the profiler shows against stage 0: DRAM throughput jumps from near zero; shared load/store
//! instructions and log2(Block) barriers per block (8 at Block = 256) appear; the grid has ceil(n / Block) blocks, so the partials array is n / Block elements long.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "block_folds.cuh"
#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_ops.cuh"
#include "reduce_second_pass.cuh"

namespace ch08 {

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

// ---- How stage 1 is launched -----------------------------------------------------------------

//! Launches stage 1 on a.stream, in two passes: ceil(n / Block) blocks, one element per thread; each block writes its partial to
//! the workspace. Then reduce_second_pass, one block of kSecondPassBlock threads, folds the partials
//! into the result. No atomics, so the result is the same on every run.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            workspace of partials_bytes(a, grid) bytes
inline void launch_reduce_stage_1(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    Acc* partials = a.scratch<Acc>();
    reduce_stage_1<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, op, PlainBarrier{});
    CUDA_CHECK_LAUNCH();
    reduce_second_pass<Acc, Op, kSecondPassBlock>
        <<<1, kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<Acc>(), op);
  });
}

//! Stage 1 as the harness runs it: the program `reduce_stage_1`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_1_stage() {
  return two_pass_stage(
      {"reduce_stage_1", "shared-memory tree",
       "every block loads one element per thread and halves them in shared memory, one barrier per level; one "
       "partial per block",
       "chapter 8, section 8.3"},
      [](const harness::ReduceArgs& a) { return harness::blocks_for(a.n, a.block); },
      [](const harness::ReduceArgs&, std::size_t) { return 1.0; }, launch_reduce_stage_1);
}

}  // namespace ch08
