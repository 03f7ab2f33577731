//! @file reduce_stage_0_single_thread.cuh
//! @brief Stage 0 (chapter 8, section 8.2): one thread reads every element and folds it into one
//! register. The reference the later stages are checked against on the device.
//!
//! What it shows: a reduction with no communication at all: one thread, n dependent operations,
//! and one load in flight at a time. It is correct for every operator and size, and it is the
//! slowest possible use of the GPU: one of the GPU's hundreds of thousands of thread slots works.
//! What the profiler shows: one block, one active warp with one active lane; DRAM throughput near
//! zero; "No Eligible" warp-stall cycles dominated by long-scoreboard (memory) stalls; 0 barriers.
//!
//! The launch takes a block of any supported size (32..1024) so that the block-size sweeps and the
//! command line apply to every stage alike, but only thread 0 of block 0 does anything; the others
//! return at once. Its one partial goes through the same second pass as the other stages.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "cuda_check.hpp"
#include "reduce_ops.cuh"
#include "reduce_second_pass.cuh"

namespace ch08 {

//! Stage 0: thread 0 of block 0 folds in[0..n) with `op` in index order and writes the result to
//! partials[0].
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min (reduce_ops.cuh)
//! @tparam Sync PlainBarrier (timed) or CountingBarrier (instrumented; stage 0 counts 0 barriers)
//! @param[in] in n input elements (device memory)
//! @param[in] n number of elements; any value (n = 0 writes the identity)
//! @param[out] partials one accumulator_t<Op, T>
//! @param[in] op the operator
//! @param[in] sync barrier policy
//! Launch: one block of any size; one thread works. Time: O(n), serial.
//! Source: chapter 8, section 8.2, "Stage 0: One Thread Does It All".
template <class T, class Op, class Sync>
__global__ void reduce_stage_0(const T* __restrict__ in, std::size_t n,
                               accumulator_t<Op, T>* __restrict__ partials, Op op, Sync sync) {
  using Acc = accumulator_t<Op, T>;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    Acc acc = Op::template identity<Acc>();
    // Unrolling lets the thread issue several loads before it needs them; the operations still run
    // one after another in index order.
#pragma unroll 8
    for (std::size_t i = 0; i < n; ++i) acc = op(acc, static_cast<Acc>(in[i]));
    partials[0] = acc;
  }
  sync.done();
}

// ---- How stage 0 is launched -----------------------------------------------------------------

//! Launches stage 0 on a.stream, in two passes: one block in which thread 0 folds every element; each block writes its partial to
//! the workspace. Then reduce_second_pass, one block of kSecondPassBlock threads, folds the partials
//! into the result. No atomics, so the result is the same on every run.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            workspace of partials_bytes(a, grid) bytes
inline void launch_reduce_stage_0(const harness::ReduceArgs& a) {
  const std::size_t grid = std::size_t{1};
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    Acc* partials = a.scratch<Acc>();
    reduce_stage_0<T><<<1, B, 0, a.stream>>>(a.input<T>(), a.n, partials, op, PlainBarrier{});
    CUDA_CHECK_LAUNCH();
    reduce_second_pass<Acc, Op, kSecondPassBlock>
        <<<1, kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<Acc>(), op);
  });
}

//! Stage 0 as the harness runs it: the program `reduce_stage_0`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_0_stage() {
  return two_pass_stage(
      {"reduce_stage_0", "one thread does it all",
       "the serial reference: thread 0 of one block folds every element in index order",
       "chapter 8, section 8.2"},
      [](const harness::ReduceArgs&) { return std::size_t{1}; },
      [](const harness::ReduceArgs& a, std::size_t) { return static_cast<double>(a.n); }, launch_reduce_stage_0);
}

}  // namespace ch08
