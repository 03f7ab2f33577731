//! @file 06_last_block_finish.cuh
//! @brief Exercise ch07/06: one launch, deterministic: the last block to finish sums the partials (exercise: fill in the TODO(student) parts).
//!
//! Goal: no float atomics. Each block writes its partial to partials[blockIdx.x] and takes a ticket
//! from a counter in the workspace (zeroed by the launch) in a way that publishes the partial. The
//! block that draws the last ticket sums partials[0..gridDim.x) in a fixed order and writes the
//! result. One kernel, the same bits on every run.
//! Builds on: stage 11 (ch07_reduction_opt/reduce_kernel_11_single_pass.cuh); stage 9's
//! thread_sum_vectorized and block_sum_one_barrier and stage 8's coarsened_grid are included.
//! Build and check: scripts/exercise.sh ch07/06
//!   (or: cmake --build build --target exercise_ch07_06 && ctest --test-dir build -L exercise -R ch07_06)
//! A right answer: the check passes for every size, block size and type and for the grids 1, 3 and
//! 1000, and 10 runs on 2^24 random floats give one bit pattern.
//! Never wait for the other blocks (no `while (*retired < gridDim.x) {}`): blocks that have not
//! started may need the SM the waiting block holds, so a spin can deadlock. With the ticket nobody
//! waits: a wrong ticket test leaves the result unwritten, and the check reports the poisoned
//! value (NaN, or -1 for int) at once instead of hanging.
//!
//! Stuck? The solved file, with why it works: solutions/ch07/06_last_block_finish.cuh.
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"
#include "block_sum_one_barrier.cuh"
#include "reduce_grids.cuh"
#include "thread_sum_vectorized.cuh"

namespace ex07 {

//! Bytes at the start of the workspace that hold the ticket counter (16 keeps the partials aligned).
inline constexpr std::size_t kEx06TicketBytes = 16;

//! Stage 11's kernel on stage 8's grid.
//! @param[out] partials gridDim.x elements of scratch
//! @param[in,out] retired the ticket counter, zeroed before the launch
//! @param[out] result written by the last block only
template <class T, int Block>
__global__ void __launch_bounds__(Block)
    ex06_kernel(const T* __restrict__ data, std::size_t n, T* partials, unsigned* retired, T* result) {
  __shared__ bool is_last_block;
  const T sum = ch07::block_sum_one_barrier<T, Block>(ch07::thread_sum_vectorized(data, n));
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    // TODO(student): take a ticket from *retired and tell whether this block drew the last one, so
    // that the last block sees every partial. Hints: exercises/README.md, exercise ch07/06. As
    // written no block is last, nobody writes the result and the check reports the poisoned value.
    (void)retired;
    is_last_block = false;
  }
  __syncthreads();
  if (!is_last_block) return;

  T acc = T(0);
  // TODO(student): the last block folds partials[0..gridDim.x) in a fixed order. Hints:
  // exercises/README.md, exercise ch07/06. As written the last block writes 0.
  __syncthreads();  // block_sum_one_barrier's shared memory is reused
  acc = ch07::block_sum_one_barrier<T, Block>(acc);
  if (threadIdx.x == 0) *result = acc;
}

//! Zeroes the ticket counter, then one launch of ex06_kernel on ch07::coarsened_grid(a) blocks.
inline void launch_ex06(const harness::ReduceArgs& a) {
  const std::size_t grid = ch07::coarsened_grid(a);
  unsigned* retired = a.scratch<unsigned>();
  CUDA_CHECK(cudaMemsetAsync(retired, 0, sizeof(unsigned), a.stream));
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* partials = reinterpret_cast<T*>(a.scratch<unsigned char>() + kEx06TicketBytes);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      ex06_kernel<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, retired, a.output<T>());
    });
  });
}

//! The exercise as the harness runs it.
inline harness::Stage<harness::Reduce> ex06_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "ch07_06_last_block_finish";
  s.label = "exercise: last block finishes";
  s.change = "partials + an acquire-release ticket counter; the last block sums them: one launch, deterministic";
  s.source = "exercises/ch07/06_last_block_finish.cuh";
  s.grid_stride = true;
  s.deterministic = true;
  s.grid_for = ch07::coarsened_grid;
  s.workspace_bytes = [](const harness::ReduceArgs& a) {
    return kEx06TicketBytes + ch07::coarsened_grid(a) * harness::dtype_size(a.type);
  };
  s.depth = [](const harness::ReduceArgs& a) {
    const double grid = static_cast<double>(ch07::coarsened_grid(a));
    return ch07::coarsened_depth(a, 2 * ch07::kUnroll + 4) + (grid + a.block - 1) / a.block +
           harness::tree_levels(a.block);
  };
  s.launch = launch_ex06;
  return s;
}

}  // namespace ex07
