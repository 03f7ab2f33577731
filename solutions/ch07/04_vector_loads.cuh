//! @file 04_vector_loads.cuh
//! @brief Exercise ch07/04: 16-byte loads with a scalar head and tail (SOLUTION).
//!
//! Goal: read the input 16 bytes per load (float4 / double2 / int4), kUnroll loads in flight per
//! thread with kUnroll accumulators, and read the elements before the first 16-byte boundary (the
//! head) and after the last whole vector (the tail) as scalars, so that every element is read once
//! for any n and any input address aligned to sizeof(T).
//! Builds on: stage 9b (ch07_reduction_opt/reduce_kernel_9b_loads_in_flight.cuh); its Vec16,
//! kUnroll, stage 7's block_sum_shuffle and stage 8's coarsened_grid are included, not part of the
//! exercise (the one-barrier block sum of stage 9 is exercise ch07/05). The
//! misalignment arithmetic is given, so that a wrong answer is never a misaligned-address crash.
//! Build and check: scripts/exercise.sh ch07/04
//!   (or: cmake --build build --target exercise_ch07_04 && ctest --test-dir build -L exercise -R ch07_04)
//! A right answer: the check passes for every size, block size and type, for the grids 1, 3 and
//! 1000, and for inputs starting 0 to 3 floats past a 16-byte boundary. Speed is the point too: the
//! test prints the exercise's GB/s next to stage 9b's on 2^26 floats (a report, not pass/fail); with
//! the kUnroll loads in flight it matches stage 9b, with one load per trip it is clearly slower.
//!
//! Why this works: `head` elements (0 to kPerVec - 1) lie before the first 16-byte boundary, so
//! data + head is aligned for V; nvec whole vectors follow, and fewer than kPerVec elements remain
//! after them. Threads 0..head-1 read the head, the vectors go round the grid (kUnroll at a time,
//! then one at a time for the remainder), and threads 0..kPerVec-2 read the tail: the three ranges
//! partition [0, n). The kUnroll loads of a trip are independent, so they are all in flight before
//! the first add needs one: kUnroll x 16 bytes per thread in flight instead of 16 (Little's law).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"
#include "reduce_grids.cuh"
#include "vector_loads.cuh"
#include "warp_sum.cuh"

namespace ex07 {

using ch07::kUnroll;
using ch07::Vec16;

//! This thread's share of data[0..n) with 16-byte loads and a scalar head and tail.
template <class T>
__device__ __forceinline__ T thread_sum_vector_loads(const T* __restrict__ data, std::size_t n) {
  using V = typename Vec16<T>::type;
  constexpr std::size_t kPerVec = sizeof(V) / sizeof(T);
  const std::size_t tid = harness::global_thread_id();
  const std::size_t stride = harness::grid_threads();

  // Given: where the aligned vectors start and how many there are.
  const auto misalign = reinterpret_cast<std::uintptr_t>(data) % sizeof(V);
  std::size_t head = misalign == 0 ? 0 : (sizeof(V) - misalign) / sizeof(T);
  if (head > n) head = n;
  const std::size_t nvec = (n - head) / kPerVec;
  const V* __restrict__ vdata = reinterpret_cast<const V*>(data + head);

  T acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = T(0);

  // The head: elements data[0..head), one per thread.
  if (tid < head) acc[0] += data[tid];

  // The vectors: kUnroll independent loads per trip, then the remainder one at a time.
  std::size_t i = tid;
  for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
    V v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = vdata[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc[u] += Vec16<T>::sum(v[u]);
  }
  for (; i < nvec; i += stride) acc[0] += Vec16<T>::sum(vdata[i]);

  // The tail: the fewer than kPerVec elements after the last whole vector.
  const std::size_t tail = head + nvec * kPerVec;
  if (tail + tid < n) acc[0] += data[tail + tid];

  T sum = acc[0];
#pragma unroll
  for (int u = 1; u < kUnroll; ++u) sum += acc[u];
  return sum;
}

//! Stage 9b's kernel: the vectorised sum, stage 7's shuffle block sum, one atomicAdd per block.
template <class T, int Block>
__global__ void __launch_bounds__(Block) ex04_kernel(const T* __restrict__ data, std::size_t n, T* result) {
  __shared__ T sdata[Block];
  T sum = thread_sum_vector_loads(data, n);
  sdata[threadIdx.x] = sum;
  __syncthreads();
  sum = ch07::block_sum_shuffle<T, Block>(sdata, threadIdx.x, sum);
  if (threadIdx.x == 0) atomicAdd(result, sum);
}

//! Zeroes the result, then ch07::coarsened_grid(a) blocks of ex04_kernel.
inline void launch_ex04(const harness::ReduceArgs& a) {
  const std::size_t grid = ch07::coarsened_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      ex04_kernel<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! The exercise as the harness runs it.
inline harness::Stage<harness::Reduce> ex04_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "ch07_04_vector_loads";
  s.label = "exercise: 16-byte loads, scalar head and tail";
  s.change = "16-byte loads, kUnroll in flight per thread; scalar head and tail for any n and alignment";
  s.source = "exercises/ch07/04_vector_loads.cuh";
  s.grid_stride = true;
  s.grid_for = ch07::coarsened_grid;
  s.depth = [](const harness::ReduceArgs& a) { return ch07::coarsened_depth(a, ch07::vectorized_sum_depth(kUnroll)); };
  s.launch = launch_ex04;
  return s;
}

}  // namespace ex07
