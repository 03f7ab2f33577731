//! @file reduce_kernel_9_vectorized.cuh
//! @brief Stage 9 (past the article): 16-byte vector loads and several independent accumulators
//! per thread, then a block reduction with one barrier.
//!
//! Changed against stage 8: stage 8 issues one 4-byte load per loop trip and adds it into a single
//! register, so each thread has one load in flight and the next trip waits for it. With several
//! hundred ns of DRAM latency and terabytes per second of bandwidth, that leaves too few bytes in
//! flight (Little's law: bytes in flight = bandwidth x latency).
//! Stage 9 loads 16 bytes per instruction (float4 / double2 / int4), issues kUnroll such loads
//! before using any of them, and keeps kUnroll independent accumulators, so every thread has
//! kUnroll x 16 bytes in flight. A scalar head and tail handle any n and any element-aligned input
//! address. The block reduction becomes warp shuffles, one shared-memory round and one barrier.
//! What the compiler makes of it (test cpu.sass_claims_ch07, SASS for sm_90, float, block 256):
//! 5 LDG.E.128 (16 bytes each: four in the unrolled loop, one in the loop over the remaining whole
//! vectors), 1 BAR.SYNC, no spills.
//! What the profiler shows: DRAM throughput rises towards the copy's; barriers per block fall to one.
//! Reuses stage 7's warp_shuffle_sum and stage 8's grid rule coarsened_grid (their headers are included).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"
#include "reduce_kernel_7_warp_shuffle.cuh"
#include "reduce_kernel_8_coarsened.cuh"

namespace ch07 {

//! The 16-byte vector type used to load T: float4, double2 or int4.
template <class T>
struct Vec16;
//! float: four lanes
template <>
struct Vec16<float> {
  using type = float4;  //!< vector type
  //! Sum of the lanes, in a fixed order.
  __device__ static float sum(const float4& v) { return (v.x + v.y) + (v.z + v.w); }
};
//! double: two lanes
template <>
struct Vec16<double> {
  using type = double2;  //!< vector type
  //! Sum of the lanes.
  __device__ static double sum(const double2& v) { return v.x + v.y; }
};
//! int: four lanes
template <>
struct Vec16<int> {
  using type = int4;  //!< vector type
  //! Sum of the lanes, in a fixed order.
  __device__ static int sum(const int4& v) { return (v.x + v.y) + (v.z + v.w); }
};

//! Independent 16-byte loads each thread issues per loop trip (and accumulators it keeps).
inline constexpr int kUnroll = 4;

//! This thread's share of a grid-stride sum over `data[0..n)` with 16-byte loads: the elements
//! before the first 16-byte boundary (head) and after the last whole vector (tail) are read as
//! scalars by the first threads of the grid; the vectors in between go round the grid kUnroll at a
//! time. Every element is read exactly once by exactly one thread, for any n and any address
//! aligned to sizeof(T).
//! @tparam T float, double or int
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements
//! @return this thread's partial sum (order fixed by the grid, so reproducible)
template <class T>
__device__ __forceinline__ T thread_sum_vectorized(const T* __restrict__ data, std::size_t n) {
  using V = typename Vec16<T>::type;
  constexpr std::size_t kPerVec = sizeof(V) / sizeof(T);
  const std::size_t tid = harness::global_thread_id();
  const std::size_t stride = harness::grid_threads();

  const auto misalign = reinterpret_cast<std::uintptr_t>(data) % sizeof(V);
  std::size_t head = misalign == 0 ? 0 : (sizeof(V) - misalign) / sizeof(T);
  if (head > n) head = n;
  const std::size_t nvec = (n - head) / kPerVec;
  const V* __restrict__ vdata = reinterpret_cast<const V*>(data + head);

  T acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = T(0);
  if (tid < head) acc[0] += data[tid];

  std::size_t i = tid;
  for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
    V v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = vdata[i + u * stride];  // kUnroll loads in flight
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc[u] += Vec16<T>::sum(v[u]);
  }
  for (; i < nvec; i += stride) acc[0] += Vec16<T>::sum(vdata[i]);

  const std::size_t tail = head + nvec * kPerVec;  // fewer than kPerVec elements remain
  if (tail + tid < n) acc[0] += data[tail + tid];

  T sum = acc[0];
#pragma unroll
  for (int u = 1; u < kUnroll; ++u) sum += acc[u];
  return sum;
}

//! Block sum with warp shuffles and a single barrier: each warp reduces by shuffles, lane 0 of each
//! warp writes one value to shared memory, one __syncthreads(), then warp 0 reduces those values.
//! @tparam T element type
//! @tparam Block threads per block (power of two, 32..1024); every thread must call
//! @param[in] sum this thread's partial
//! @return in thread 0, the block's sum
template <class T, int Block>
__device__ __forceinline__ T block_sum_one_barrier(T sum) {
  constexpr int kWarps = Block / 32;
  __shared__ T warp_sums[kWarps];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  sum = warp_shuffle_sum(sum);
  if constexpr (kWarps == 1) {
    return sum;
  } else {
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) sum = warp_shuffle_sum(lane < kWarps ? warp_sums[lane] : T(0));
    return sum;
  }
}

//! Stage 9: vectorised, unrolled grid-stride accumulation, a one-barrier block sum, and one
//! atomicAdd per block (the article's finish of stages 1-8).
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements
//! @param[in,out] result one element, zeroed before the launch; receives the sum
//! Launch: any number of blocks (default as stage 8: ceil(n / (Block * 32))).
//! Source: this tutorial; the technique as in CUB's BlockLoad with vectorised loads.
template <class T, int Block>
__global__ void __launch_bounds__(Block) reduce_kernel_9(const T* __restrict__ data, std::size_t n, T* result) {
  const T sum = block_sum_one_barrier<T, Block>(thread_sum_vectorized(data, n));
  if (threadIdx.x == 0) atomicAdd(result, sum);
}

// ---- How stage 9 is launched -----------------------------------------------------------------

//! Launches stage 9 on a.stream: zeroes the one-element result (every block adds into it with
//! atomicAdd), then stage 8's grid, coarsened_grid(a) blocks of Block threads.
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or any;
//!            the input aligned to sizeof(T) (any 16-byte misalignment is handled)
inline void launch_reduce_kernel_9(const harness::ReduceArgs& a) {
  const std::size_t grid = coarsened_grid(a);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_9<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! Stage 9 as the harness runs it: the program `reduce_kernel_9`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_9_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_kernel_9";
  s.label = "vectorised loads, 4 accumulators";
  s.change = "16-byte loads, four in flight per thread with four accumulators; warp shuffles and one barrier per block";
  s.source = "this tutorial (past the article)";
  s.grid_stride = true;
  s.grid_for = coarsened_grid;
  s.depth = [](const harness::ReduceArgs& a) { return coarsened_depth(a, 2 * kUnroll + 4); };
  s.launch = launch_reduce_kernel_9;
  return s;
}

}  // namespace ch07
