//! @file reduce_kernel_0_atomic.cuh
//! @brief Stage 0 (article section 2): every thread adds its element straight into the result
//! with atomicAdd.
//!
//! What it teaches: atomics make the sum correct, but every addition targets one address, so the
//! hardware serialises them: n atomic operations on a single word, whatever the grid.
//! What the compiler makes of it depends on T (test cpu.sass_claims_ch07, SASS for sm_90): for
//! float and double every lane issues its own REDG (one atomic per element); for int nvcc
//! aggregates the warp first: REDUX.SUM adds the 32 lanes' values and one elected lane (VOTEU.ANY,
//! a predicated REDG) sends one atomic per warp.
//! What the profiler shows: global atomic (RED) operations and DRAM all but idle (its % of peak:
//! docs/results/H200/profile/ch07_profile_claims.md). For float each lane's RED is its own request
//! to the L2, and one L2 slice, the one that holds the result's address, counts every request the
//! SMs send (the profile claims, docs/results/H100/profile/ch07_profile_claims.md, and the L2's
//! request counts, docs/results/H100/profile/l2_atomic_requests.txt).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Adds every element of `data` to `*result` with one atomicAdd per element.
//! @tparam T float, double or int (needs atomicAdd on T; double needs sm_60 or later)
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//!
//! Launch: ceil(n / blockDim.x) blocks of any block size; one thread per element.
//! Source: article section 2, "Naive Reduction via Atomic Operations".
template <class T>
__global__ void reduce_kernel_0(const T* __restrict__ data, std::size_t n, T* result) {
  const std::size_t i = harness::global_thread_id();
  if (i >= n) return;
  atomicAdd(result, data[i]);
}

// ---- How stage 0 is launched -----------------------------------------------------------------

//! Launches stage 0 on a.stream: zeroes the one-element result (every block adds into it with
//! atomicAdd), then ceil(n / Block) blocks of Block threads, one element per thread.
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts
inline void launch_reduce_kernel_0(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_0<T><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 0 as the harness runs it: the program `reduce_kernel_0`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_0_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_kernel_0";
  s.label = "one atomicAdd per element";
  s.change = "the naive start: every thread adds its element to the result with atomicAdd";
  s.source = "article section 2";
  s.depth = [](const harness::ReduceArgs& a) { return static_cast<double>(a.n); };
  s.launch = launch_reduce_kernel_0;
  return s;
}

}  // namespace ch07
