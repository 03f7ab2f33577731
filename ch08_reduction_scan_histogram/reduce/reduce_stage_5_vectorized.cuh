//! @file reduce_stage_5_vectorized.cuh
//! @brief Stage 5 (past the chapter's sections; what makes section 8.6's "over 90% of peak" true on
//! today's GPUs): more bytes in flight per thread. 16-byte loads, four of them issued before any is used,
//! into four accumulators; then stage 4's complete block reduction.
//!
//! Changed against stage 4: the block reduction is the same (block_fold, one barrier); the loop that
//! feeds it is not. Stages 2 to 4 read one 4-byte element per loop trip into one accumulator, and the
//! next trip's fold needs that load: about one load in flight per thread. By Little's law, the bytes
//! in flight the GPU needs to stream at full speed are bandwidth x latency: at the peak bandwidth and
//! the DRAM latency that chapter 7 derives from its stage 8's counters
//! (ch07_reduction_opt/stages_9_11.md), more than 4 bytes times the resident threads (this
//! folder's README.md has the figures). Stages 2 to 4 do stop near half
//! the peak whatever their tree, their warps waiting on global loads (long scoreboard,
//! docs/results/H200/profile/ch08_profile_claims.md). Stage 5 loads 16 bytes per instruction
//! (float4 / double2 / int4) and issues kVectorLoads of
//! them into registers before folding any, each into its own accumulator: 64 bytes in flight per
//! thread, where stage 4 has one 4-byte load per loop trip. The fold of one vector's lanes happens in registers, in a fixed order.
//!
//! Any n and any element-aligned address: the elements before the first 16-byte boundary (the head)
//! and after the last whole vector (the tail) are read as scalars by the first threads of the grid;
//! every element is read exactly once by exactly one thread.
//!
//! Determinism: the fold order is fixed by n, the input's alignment, the block and the grid (grid-
//! stride order, the vector's lanes, the four accumulators, then stage 4's shuffle tree and the
//! second pass in index order): the same bits on every run.
//! What the profiler shows against stage 4: DRAM throughput (% of peak) rises towards the copy's at
//! 2^24 floats (docs/results/H200/profile/ch08_profile_claims.md; chapter 7's stage 9 against its
//! stage 8 in docs/results/H200/profile/ch07_profile_claims.md);
//! global load instructions per byte fall 4x (LDG.E.128 in chapter 7's SASS check of the same loop,
//! not of this kernel); barriers stay at one per block.
//! Source: chapter 7's stage 9 (reduce_kernel_9_vectorized.cuh), with chapter 8's operators and its
//! two-pass finish; the technique as in CUB's vectorised BlockLoad.
//! Uses stage 4's block_fold (block_folds.cuh) and stage 2's grid rule (grid_stride.cuh).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "barrier_policy.cuh"
#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_ops.cuh"
#include "reduce_second_pass.cuh"
#include "vec16.cuh"
#include "block_folds.cuh"
#include "grid_stride.cuh"

namespace ch08 {

//! Independent 16-byte loads each thread issues per loop trip, each into its own accumulator.
inline constexpr int kVectorLoads = 4;

//! The lanes of a 16-byte vector folded with `op` in accumulator type A (long long for an int sum:
//! exact): (x op y) op (z op w) for float4 and int4, x op y for double2.
template <class A, class V, class Op>
__device__ __forceinline__ A fold_lanes(const V& v, Op op) {
  if constexpr (sizeof(V) == 4 * sizeof(decltype(V::x))) return op(op(A(v.x), A(v.y)), op(A(v.z), A(v.w)));
  else return op(A(v.x), A(v.y));
}

//! This thread's fold of in[0..n) with 16-byte loads, kVectorLoads in flight: the vectors in
//! grid-stride order kVectorLoads at a time (then one at a time for the rest), then the scalar head
//! (the elements before the first 16-byte boundary) and the scalar tail (fewer than one vector).
//! Every element is folded exactly once by exactly one thread of the grid.
//!
//! The first trip's loads go out first. At small n a thread makes one trip or none, and what it
//! does before its first load is on the run's critical path: so the first trip is written out, each
//! of its kVectorLoads loads guarded by its own index test, and comes before the head and tail,
//! which only the first threads have. (Written as a plain loop with the head first, the first
//! 16-byte load came after the head's load and the trip test in 64-bit arithmetic; the chapter's
//! README.md, "The first trip first", counts the instructions and times both.)
//! Loads use __ldg, the read-only path (LDG.E.128.CONSTANT): stages 7 to 9 hold a fence and
//! atomics, after which nvcc no longer takes that path on its own for a `const __restrict__` input.
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @param[in] in n input elements, aligned to sizeof(T) (any 16-byte misalignment is handled), not
//!            written while the kernel runs
//! @param[in] n number of elements (any value; a thread with nothing to read returns the identity)
//! @param[in] op the operator
//! @return the thread's partial, of type accumulator_t<Op, T>
//! Source: chapter 7, stage 9 (thread_sum_vectorized), for any operator.
template <class T, class Op>
__device__ __forceinline__ accumulator_t<Op, T> grid_stride_fold_vec16(const T* __restrict__ in,
                                                                       std::size_t n, Op op) {
  using Acc = accumulator_t<Op, T>;
  using V = typename harness::Vec16<T>::type;
  const std::size_t tid = harness::global_thread_id();
  const std::size_t stride = harness::grid_threads();

  const harness::Vec16Split<T> split = harness::vec16_split(in, n);
  const std::size_t nvec = split.count;
  const V* __restrict__ vin = split.vectors;

  // The first trip: vectors tid, tid + stride, ..., each loaded if it exists.
  V v[kVectorLoads];
#pragma unroll
  for (int u = 0; u < kVectorLoads; ++u)
    if (tid + u * stride < nvec) v[u] = __ldg(vin + tid + u * stride);  // kVectorLoads loads in flight
  Acc acc[kVectorLoads];
#pragma unroll
  for (int u = 0; u < kVectorLoads; ++u)
    acc[u] = tid + u * stride < nvec ? fold_lanes<Acc>(v[u], op) : Op::template identity<Acc>();

  // The other trips: whole trips while they last, then one vector at a time.
  std::size_t i = tid + kVectorLoads * stride;
  for (; i + (kVectorLoads - 1) * stride < nvec; i += kVectorLoads * stride) {
#pragma unroll
    for (int u = 0; u < kVectorLoads; ++u) v[u] = __ldg(vin + i + u * stride);
#pragma unroll
    for (int u = 0; u < kVectorLoads; ++u) acc[u] = op(acc[u], fold_lanes<Acc>(v[u], op));
  }
  for (; i < nvec; i += stride) acc[0] = op(acc[0], fold_lanes<Acc>(__ldg(vin + i), op));

  // The scalars before the first vector and after the last (fewer than one vector each).
  if (tid < split.head) acc[0] = op(acc[0], static_cast<Acc>(__ldg(in + tid)));
  if (split.tail + tid < n) acc[0] = op(acc[0], static_cast<Acc>(__ldg(in + split.tail + tid)));

  static_assert(kVectorLoads == 4, "the line below folds exactly four accumulators");
  return op(op(acc[0], acc[1]), op(acc[2], acc[3]));
}

//! Stage 5: the vectorised grid-stride fold, stage 4's block_fold, one partial per block.
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam Sync PlainBarrier or CountingBarrier
//! @param[in] in n input elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x accumulators
//! @param[in] op the operator
//! @param[in] sync barrier policy
//! Launch: any number of blocks (default: as many as are resident at once, capped at
//! ceil(n / Block)). Barriers per block: 1.
//! Source: chapter 7's stage 9 with section 8.6's block reduction.
template <class T, class Op, int Block, class Sync>
__global__ void __launch_bounds__(Block)
    reduce_stage_5(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* __restrict__ partials,
                   Op op, Sync sync) {
  using Acc = accumulator_t<Op, T>;
  const Acc v = block_fold<Acc, Block>(grid_stride_fold_vec16(in, n, op), op, sync);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
  sync.done();
}

// ---- How stage 5 is launched -----------------------------------------------------------------

//! Stage 5's grid: one full wave of its kernel (see resident_grid_for).
inline std::size_t reduce_stage_5_grid(const harness::ReduceArgs& a) {
  return resident_grid_for(a, [](auto t, auto op, auto block) {
    return reinterpret_cast<const void*>(&reduce_stage_5<decltype(t), decltype(op), decltype(block)::value, PlainBarrier>);
  });
}

//! Launches stage 5 on a.stream, in two passes: reduce_stage_5_grid(a) blocks, each thread folding
//! about n / (grid x Block) elements with 16-byte loads, four in flight; each block writes its
//! partial to the workspace. Then reduce_second_pass, one block of kSecondPassBlock threads, folds
//! the partials into the result. No atomics, so the result is the same on every run.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            the input aligned to sizeof(T); workspace of partials_bytes(a, grid) bytes
inline void launch_reduce_stage_5(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_5_grid(a);
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    Acc* partials = a.scratch<Acc>();
    reduce_stage_5<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, op, PlainBarrier{});
    CUDA_CHECK_LAUNCH();
    reduce_second_pass<Acc, Op, kSecondPassBlock>
        <<<1, kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<Acc>(), op);
  });
}

//! What one thread of stage 5 goes through on `grid` blocks before the block tree: at most
//! ceil(n / (grid x Block)) elements, plus the lanes' and accumulators' folds, the head and the tail.
inline double reduce_stage_5_per_thread(const harness::ReduceArgs& a, std::size_t grid) {
  return grid_stride_per_thread(a, grid) + 2 * kVectorLoads + 4;
}

//! Stage 5 as the harness runs it: the program `reduce_stage_5`, the ladder, the tests and the
//! multi-GPU sum (each GPU's shard).
inline harness::Stage<harness::Reduce> reduce_stage_5_stage() {
  return grid_stride_stage(
      {"reduce_stage_5", "16-byte loads, 4 in flight",
       "16-byte loads, four issued per thread before any is used, into four accumulators (64 bytes in flight "
       "per thread); stage 4's one-barrier block reduction",
       "chapter 8, section 8.6, fed as chapter 7's stage 9 (16-byte loads, four in flight)"},
      reduce_stage_5_grid, launch_reduce_stage_5, reduce_stage_5_per_thread);
}

}  // namespace ch08
