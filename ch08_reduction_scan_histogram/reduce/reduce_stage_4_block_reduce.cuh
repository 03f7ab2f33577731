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
//! (the grid-stride loop's loads bound stages 2 to 4 alike: long scoreboard tops their stalls,
//! docs/results/H200/profile/ch08_profile_claims.md).
//!
//! Determinism: the fold order is fixed by the code (grid-stride order, then the shuffle tree, then
//! the second pass over the partials in index order), so the same input, block and grid give the
//! same bits on every run. At the end of this file, the contrast: the same first pass finished by
//! an atomicAdd per block (reduce_stage_4_atomic, for atomic_vs_deterministic), which is not.
//! A warp's fold is stage 3's five shuffles, except for 32-bit integer max and min on sm_80 and newer:
//! there the hardware reduces a warp in one REDUX instruction (warp_reduce), as CUB's WarpReduce does.
//! Uses stage 3's warp_fold through warp_reduce (block_folds.cuh, where block_fold is too) and stage
//! 2's grid_stride_fold and grid rule (grid_stride.cuh).
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

// ---- How stage 4 is launched -----------------------------------------------------------------

//! Stage 4's grid: one full wave of its kernel (see resident_grid_for).
inline std::size_t reduce_stage_4_grid(const harness::ReduceArgs& a) {
  return resident_grid_for(a, [](auto t, auto op, auto block) {
    return reinterpret_cast<const void*>(&reduce_stage_4<decltype(t), decltype(op), decltype(block)::value, PlainBarrier>);
  });
}

//! Launches stage 4 on a.stream, in two passes: reduce_stage_4_grid(a) blocks, each thread folding about n / (grid x Block) elements in a grid-stride loop; each block writes its partial to
//! the workspace. Then reduce_second_pass, one block of kSecondPassBlock threads, folds the partials
//! into the result. No atomics, so the result is the same on every run.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            workspace of partials_bytes(a, grid) bytes
inline void launch_reduce_stage_4(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_4_grid(a);
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    Acc* partials = a.scratch<Acc>();
    reduce_stage_4<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, op, PlainBarrier{});
    CUDA_CHECK_LAUNCH();
    reduce_second_pass<Acc, Op, kSecondPassBlock>
        <<<1, kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<Acc>(), op);
  });
}

//! Stage 4 as the harness runs it: the program `reduce_stage_4`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_4_stage() {
  return grid_stride_stage(
      {"reduce_stage_4", "complete block reduction",
       "every warp shuffles first, one value per warp through shared memory, one barrier per block",
       "chapter 8, section 8.6"},
      reduce_stage_4_grid, launch_reduce_stage_4);
}

// ---- Stage 4 with an atomic finish: the contrast of section 8.6's "Determinism" ----------------
// The program atomic_vs_deterministic sums one input many times with stage 4 and with this variant
// and counts the distinct results. Same grid, same block, same block partials: only the finish
// differs, an atomicAdd per block into the result instead of the second pass.

//! Adds `v` to the float `*p` atomically (the accumulator of a float sum).
__device__ __forceinline__ void atomic_accumulate(float* p, float v) { atomicAdd(p, v); }
//! Adds `v` to the double `*p` atomically (the accumulator of a double sum).
__device__ __forceinline__ void atomic_accumulate(double* p, double v) { atomicAdd(p, v); }
//! Adds `v` to the long long `*p` atomically (the exact accumulator of an int sum), through the
//! unsigned 64-bit atomicAdd: two's complement addition gives the same bits for signed and
//! unsigned words.
__device__ __forceinline__ void atomic_accumulate(long long* p, long long v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}

//! Stage 4's first pass (grid-stride fold, block_fold) with the second pass replaced by one
//! atomicAdd per block into the result. The block partials are the same on every run; the order
//! in which the blocks' atomics land is not, and floating-point addition is not associative, so
//! a float or double sum can differ in its last bits from run to run (an int sum cannot).
//! @tparam T input type: float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] in n input elements
//! @param[in] n number of elements (> 0)
//! @param[in,out] out one accumulator, zeroed before the launch; receives the sum
//! Source: chapter 8, section 8.6 ("Determinism").
template <class T, int Block>
__global__ void reduce_stage_4_atomic(const T* __restrict__ in, std::size_t n, accumulator_t<Sum, T>* out) {
  using Acc = accumulator_t<Sum, T>;
  PlainBarrier sync;
  const Acc v = block_fold<Acc, Block>(grid_stride_fold(in, n, Sum{}), Sum{}, sync);
  if (threadIdx.x == 0) atomic_accumulate(out, v);
}

//! Launches the atomic-finish variant on a.stream: zeroes the result, then reduce_stage_4_grid(a)
//! blocks of reduce_stage_4_atomic. Sum only.
//! @param[in] a n > 0; type float/double/int; op sum; block a power of two from 32 to 1024
inline void launch_reduce_stage_4_atomic(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_4_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    harness::with_block_size(a.block, [&](auto block) {
      using T = decltype(t);
      using Acc = accumulator_t<Sum, T>;
      constexpr int B = decltype(block)::value;
      CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(Acc), a.stream));
      reduce_stage_4_atomic<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<Acc>());
      CUDA_CHECK_LAUNCH();
    });
  });
}

//! The atomic-finish variant as the harness runs it (atomic_vs_deterministic; not in the ladder):
//! stage 4's description with sum only, no workspace, not deterministic, and the depth of the
//! partials added one after another.
inline harness::Stage<harness::Reduce> reduce_stage_4_atomic_stage() {
  harness::Stage<harness::Reduce> s = reduce_stage_4_stage();
  s.name = "reduce_stage_4_atomic";
  s.label = "stage 4, atomic finish";
  s.change = "each block adds its partial to the result with atomicAdd instead of the second pass";
  s.source = "chapter 8, section 8.6 (Determinism)";
  s.caps.ops = {harness::Op::sum};
  s.deterministic = false;
  s.workspace_bytes = nullptr;
  s.depth = [](const harness::ReduceArgs& a) {
    const std::size_t grid = reduce_stage_4_grid(a);
    return harness::reduce_depth(static_cast<double>(harness::blocks_for(a.n, a.block)) / grid + 1, a.block,
                                 static_cast<double>(grid));
  };
  s.launch = launch_reduce_stage_4_atomic;
  return s;
}

}  // namespace ch08
