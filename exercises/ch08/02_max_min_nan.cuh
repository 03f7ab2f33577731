//! @file 02_max_min_nan.cuh
//! @brief Exercise ch08/02: max and min reductions with the right identity and the repository's
//! NaN rule (exercise: fill in the TODO(student) parts).
//!
//! Goal: write the two operators the chapter's stage 4 folds with when asked for max or min:
//! their identity (the value every thread starts from, and what a thread with no element, or a
//! warp-0 lane past the number of warps, contributes) and the operation itself, following the
//! repository's rule (ch08_reduction_scan_histogram/reduce/reduce_ops.cuh): NaN propagates (if
//! either operand is NaN the result is NaN, whatever the order), -0.0 and +0.0 compare equal.
//! Builds on: stage 4 (reduce_stage_4_block_reduce.cuh), run unchanged with your operators in
//! place of ch08::Max and ch08::Min; the kernels, the grid and the second pass are the chapter's.
//! Build and check: scripts/exercise.sh ch08/02
//!   (or: cmake --build build --target exercise_ch08_02 && ctest --test-dir build -L exercise -R ch08_02)
//! A right answer: the check passes for max and min on every size, block size and type, and on the
//! hand-built inputs: all values negative (max) or positive (min), all -inf / +inf, INT_MIN /
//! INT_MAX everywhere, and a NaN at the first, a middle or the last element (the answer is NaN).
//!
//! Stuck? The solved file, with why it works: solutions/ch08/02_max_min_nan.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "barrier_policy.cuh"
#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_ops.cuh"
#include "reduce_stage_4_block_reduce.cuh"

namespace ex08 {

//! Maximum with NaN propagation, for float, double and int (the interface of ch08::Max).
struct Max {
  static constexpr harness::Op op = harness::Op::max;  //!< the run-time operator it implements
  //! Accumulator (and output) type for input type T: T itself.
  template <class T>
  using accumulator = T;
  //! The identity: max(identity, x) == x for every x.
  template <class A>
  static constexpr CH08_HD A identity() {
    // TODO(student): the identity of max: max(identity, x) == x for every x of type A. Hints:
    // exercises/README.md, exercise ch08/02. As written it is 0, which wins over every negative
    // value.
    return A(0);
  }
  //! NaN if a or b is NaN, else the larger of a and b.
  template <class A>
  constexpr CH08_HD A operator()(A a, A b) const {
    // TODO(student): max under the repository's NaN rule. Hints: exercises/README.md, exercise
    // ch08/02. As written a NaN in `a` is lost (a > NaN is false, so b comes back), and whether a
    // NaN survives the reduction depends on where the tree puts it.
    return a > b ? a : b;
  }
};

//! Minimum with NaN propagation, for float, double and int (the interface of ch08::Min).
struct Min {
  static constexpr harness::Op op = harness::Op::min;  //!< the run-time operator it implements
  //! Accumulator (and output) type for input type T: T itself.
  template <class T>
  using accumulator = T;
  //! The identity: min(identity, x) == x for every x.
  template <class A>
  static constexpr CH08_HD A identity() {
    // TODO(student): the identity of min: min(identity, x) == x for every x. Hints:
    // exercises/README.md, exercise ch08/02. As written it is 0, which wins over every positive
    // value.
    return A(0);
  }
  //! NaN if a or b is NaN, else the smaller of a and b.
  template <class A>
  constexpr CH08_HD A operator()(A a, A b) const {
    // TODO(student): min under the repository's NaN rule. Hints: exercises/README.md, exercise
    // ch08/02. As written a NaN in `a` is lost.
    return a < b ? a : b;
  }
};

//! Calls f(T{}, Op{}, integral_constant<int, Block>{}) with this exercise's Max or Min.
template <class F>
void ex02_dispatch(const harness::ReduceArgs& a, F&& f) {
  harness::with_input_type(a.type, [&](auto t) {
    harness::with_block_size(a.block, [&](auto b) {
      if (a.op == harness::Op::min) f(t, Min{}, b);
      else f(t, Max{}, b);
    });
  });
}

//! Stage 4's grid for its kernel with these operators: one full wave (or --grid).
inline std::size_t ex02_grid(const harness::ReduceArgs& a) {
  if (a.grid != 0) return a.grid;
  std::size_t grid = 0;
  ex02_dispatch(a, [&](auto t, auto op, auto block) {
    const void* k = reinterpret_cast<const void*>(
        &ch08::reduce_stage_4<decltype(t), decltype(op), decltype(block)::value, ch08::PlainBarrier>);
    grid = harness::occupancy_grid(k, a.block, a.n, 1);
  });
  return grid;
}

//! Stage 4's two passes with this exercise's operators.
inline void launch_ex02(const harness::ReduceArgs& a) {
  const std::size_t grid = ex02_grid(a);
  ex02_dispatch(a, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    constexpr int B = decltype(block)::value;
    T* partials = a.scratch<T>();
    ch08::reduce_stage_4<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, op, ch08::PlainBarrier{});
    CUDA_CHECK_LAUNCH();
    ch08::reduce_second_pass<T, Op, ch08::kSecondPassBlock>
        <<<1, ch08::kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<T>(), op);
  });
}

//! The exercise as the harness runs it: max and min only.
inline harness::Stage<harness::Reduce> ex02_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "ch08_02_max_min_nan";
  s.label = "exercise: max / min with identity and NaN rule";
  s.change = "stage 4 folding with the reader's Max and Min";
  s.source = "exercises/ch08/02_max_min_nan.cuh";
  s.caps.ops = {harness::Op::max, harness::Op::min};
  s.caps.out_type = [](harness::DType in, harness::Op) { return in; };
  s.deterministic = true;
  s.grid_stride = true;
  s.grid_for = ex02_grid;
  s.workspace_bytes = [](const harness::ReduceArgs& a) { return ex02_grid(a) * harness::dtype_size(a.type); };
  s.launch = launch_ex02;
  return s;
}

}  // namespace ex08
