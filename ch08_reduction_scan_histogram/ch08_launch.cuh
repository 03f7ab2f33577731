//! @file ch08_launch.cuh
//! @brief How chapter 8's reduction stages are launched: run-time type, operator and block size to
//! template arguments; the default grid of the coarsened stages; and the two passes (the stage's
//! kernel writes one partial per block into the workspace, reduce_second_pass folds them into the
//! result). Shared by the five stage files, the barrier counter and the atomic contrast program.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "dtype.hpp"
#include "kernel_support.cuh"
#include "reduce_impl.hpp"
#include "reduce_ops.cuh"
#include "reduce_second_pass.cuh"

namespace ch08 {

//! Output type of every chapter-8 stage: int64 for an int sum (accumulated exactly in long long),
//! the input type otherwise. Equal to accumulator_t of the operator.
harness::DType stage_output_type(harness::DType in, harness::Op op);

//! Blocks of `block` threads that are resident on the current device at once when running
//! `kernel` (SM count x cudaOccupancyMaxActiveBlocksPerMultiprocessor, cached per kernel and
//! device), capped at ceil(n / block) so that no block is launched without work; 0 for n = 0.
//! This is the default grid of the grid-stride stages 2, 3 and 4: one full wave of blocks, each
//! thread folding about n / (grid * block) elements.
//! @param[in] kernel address of the __global__ function
//! @param[in] block threads per block
//! @param[in] n number of input elements
//! @throws CudaError if the device cannot be queried
std::size_t resident_grid(const void* kernel, int block, std::size_t n);

//! Calls `f(T{}, Op{}, std::integral_constant<int, Block>{})` for the input type, operator and block
//! size of `a` (float/double/int x Sum/Max/Min x 32..1024).
//! @throws UsageError for an input type or block size outside those lists
template <class F>
void dispatch(harness::DType type, harness::Op op, int block, F&& f) {
  harness::with_input_type(type, [&](auto t) {
    with_op(op, [&](auto o) { harness::with_block_size(block, [&](auto b) { f(t, o, b); }); });
  });
}

//! Completes `meta` (name, label, change, source, grid rule) into a two-pass stage over float,
//! double and int with sum, max and min:
//! - out_type: stage_output_type; deterministic: true;
//! - workspace_bytes: one output element per block of the first pass;
//! - launch: `first_pass(T{}, Op{}, block_constant, args, grid, partials)` enqueues the stage's kernel
//!   writing `grid` partials of accumulator_t<Op, T> to `partials` (= args.workspace); then one
//!   block of reduce_second_pass folds them into args.out.
//! @param[in] meta the stage's description; meta.grid_for, if set, chooses the grid (else
//!            ceil(n / block), one element per thread)
//! @param[in] first_pass generic callable enqueuing the first pass on args.stream
template <class FirstPass>
harness::ReduceImpl make_two_pass_stage(harness::ReduceImpl meta, FirstPass first_pass) {
  meta.types = {harness::DType::f32, harness::DType::f64, harness::DType::i32};
  meta.ops = {harness::Op::sum, harness::Op::max, harness::Op::min};
  meta.min_block = 32;
  meta.max_block = 1024;
  meta.deterministic = true;
  meta.out_type = stage_output_type;
  auto rule = meta.grid_for;
  auto grid_of = [rule](const harness::ReduceArgs& a) {
    return rule ? rule(a) : harness::blocks_for(a.n, a.block);
  };
  meta.workspace_bytes = [grid_of](const harness::ReduceArgs& a) {
    return grid_of(a) * harness::dtype_size(stage_output_type(a.type, a.op));
  };
  meta.launch = [grid_of, first_pass](const harness::ReduceArgs& a) {
    const std::size_t grid = grid_of(a);
    dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
      using T = decltype(t);
      using Op = decltype(op);
      using Acc = accumulator_t<Op, T>;
      Acc* partials = static_cast<Acc*>(a.workspace);
      first_pass(t, op, block, a, grid, partials);
      CUDA_CHECK_LAUNCH();
      reduce_second_pass<Acc, Op, kSecondPassBlock>
          <<<1, kSecondPassBlock, 0, a.stream>>>(partials, grid, static_cast<Acc*>(a.out), op);
    });
  };
  return meta;
}

//! A grid rule for the grid-stride stages: args.grid when given, else resident_grid of the kernel
//! that `kernel_of(T{}, Op{}, block_constant)` returns (its address, as const void*).
template <class KernelOf>
auto resident_grid_rule(KernelOf kernel_of) {
  return [kernel_of](const harness::ReduceArgs& a) -> std::size_t {
    if (a.grid != 0) return a.grid;
    if (a.n == 0) return 0;
    std::size_t grid = 0;
    dispatch(a.type, a.op, a.block,
             [&](auto t, auto op, auto block) { grid = resident_grid(kernel_of(t, op, block), a.block, a.n); });
    return grid;
  };
}

//! The input pointer of `a` as T.
template <class T>
const T* input_as(const harness::ReduceArgs& a) {
  return static_cast<const T*>(a.in);
}

}  // namespace ch08
