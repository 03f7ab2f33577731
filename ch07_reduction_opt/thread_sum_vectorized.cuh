//! @file thread_sum_vectorized.cuh
//! @brief A thread's share of a grid-stride sum with 16-byte loads, Unroll of them in flight, and a
//! scalar head and tail: the accumulation of stages 9a (Unroll = 1), 9b to 11 (Unroll = kUnroll) and
//! 12 and 13 (Unroll = kUnroll, the first trip first).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "kernel_support.cuh"
#include "vector_loads.cuh"

namespace ch07 {

//! This thread's share of a grid-stride sum over `data[0..n)` with 16-byte loads: the elements
//! before the first 16-byte boundary (head) and after the last whole vector (tail) are read as
//! scalars by the first threads of the grid; the vectors in between go round the grid Unroll at a
//! time: Unroll loads issued before any is used, into Unroll independent accumulators. Every element
//! is read exactly once by exactly one thread, for any n and any address aligned to sizeof(T).
//! @tparam Unroll 16-byte loads in flight per thread per loop trip, and accumulators: 1 (stage 9a:
//!         each trip's add waits for its one load) or kUnroll (stages 9b to 13)
//! @tparam FirstTripFirst false (stages 9a to 11): the head, then the loop. true (stages 12 and 13):
//!         the first trip's Unroll loads go out before anything else, each behind its own index
//!         test, and the head is read last (the same elements; the head joins accumulator 0 last,
//!         so a float sum's bits may differ from the plain loop's, each run the same). At small n a
//!         thread makes one trip or none, so what it does before its first load is on the run's
//!         critical path (chapter 8's reduction page, "The first trip first").
//! @tparam T float, double or int
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements
//! @return this thread's partial sum (order fixed by the grid, so reproducible)
template <int Unroll = kUnroll, bool FirstTripFirst = false, class T>
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

  static_assert(Unroll >= 1, "at least one load per loop trip");
  T acc[Unroll];
  std::size_t i = tid;
  if constexpr (FirstTripFirst) {
    // Stages 12 and 13: the first trip's loads go out before anything else the thread does, each
    // where its vector exists (at small n a thread makes one trip or none: chapter 8's
    // grid_stride_fold_vec16 and its page measure it); the head and tail come last.
    V v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (tid + u * stride < nvec) v[u] = vdata[tid + u * stride];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) acc[u] = tid + u * stride < nvec ? Vec16<T>::sum(v[u]) : T(0);
    i = tid + Unroll * stride;
  } else {
#pragma unroll
    for (int u = 0; u < Unroll; ++u) acc[u] = T(0);
    if (tid < head) acc[0] += data[tid];
  }

  for (; i + (Unroll - 1) * stride < nvec; i += Unroll * stride) {
    V v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) v[u] = vdata[i + u * stride];  // Unroll loads in flight
#pragma unroll
    for (int u = 0; u < Unroll; ++u) acc[u] += Vec16<T>::sum(v[u]);
  }
  // The fewer than Unroll vectors left to this thread, one at a time (with Unroll = 1 the loop above
  // took them all; nvcc would otherwise keep this loop, never run, in stage 9a's code).
  if constexpr (Unroll > 1)
    for (; i < nvec; i += stride) acc[0] += Vec16<T>::sum(vdata[i]);

  if constexpr (FirstTripFirst)
    if (tid < head) acc[0] += data[tid];
  const std::size_t tail = head + nvec * kPerVec;  // fewer than kPerVec elements remain
  if (tail + tid < n) acc[0] += data[tail + tid];

  T sum = acc[0];
#pragma unroll
  for (int u = 1; u < Unroll; ++u) sum += acc[u];
  return sum;
}

}  // namespace ch07
