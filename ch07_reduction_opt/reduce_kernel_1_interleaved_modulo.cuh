//! @file reduce_kernel_1_interleaved_modulo.cuh
//! @brief Stage 1 (article section 3): a tree in shared memory, interleaved addressing chosen
//! with a modulo test; one atomicAdd per block.
//!
//! Changed against stage 0: each block first sums its blockDim.x elements in shared memory, in
//! log2(blockDim.x) levels separated by __syncthreads(); only thread 0 touches the global result.
//! Atomics drop from n to n / blockDim.x.
//! What the profiler shows: `tid % (2*s) == 0` leaves most lanes of every warp idle. nvcc predicates
//! the test instead of branching, so the idle lanes show up as predicated-off threads, not as
//! divergent branches. Stages 1 to 7 all take about the same time: see the chapter README on the
//! same-address atomicAdd that bounds them all.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Block-wise tree sum with interleaved addressing: at level s, threads whose index is a multiple
//! of 2s add sdata[tid + s] into sdata[tid]; thread 0 adds the block's sum to `*result`.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements
//! @param[in] n number of elements; threads past n load the identity 0
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 3.
template <class T, int Block>
__global__ void reduce_kernel_1(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  sdata[tid] = (i < n) ? data[i] : T(0);
  __syncthreads();

  for (unsigned s = 1; s < Block; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(result, sdata[0]);
}

// ---- How stage 1 is launched -----------------------------------------------------------------

//! Launches stage 1 on a.stream: zeroes the one-element result (every block adds into it with
//! atomicAdd), then ceil(n / Block) blocks of Block threads, one element per thread.
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts
inline void launch_reduce_kernel_1(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_1<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 1 as the harness runs it: the program `reduce_kernel_1`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_1_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_kernel_1";
  s.label = "shared-memory tree, modulo branch";
  s.change = "each block sums its elements in a shared-memory tree (tid % 2s == 0 picks the active threads); one atomicAdd per block";
  s.source = "article section 3";
  s.depth = [](const harness::ReduceArgs& a) { return harness::reduce_depth(1, a.block, static_cast<double>(harness::blocks_for(a.n, a.block))); };
  s.launch = launch_reduce_kernel_1;
  return s;
}

}  // namespace ch07
