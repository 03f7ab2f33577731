//! @file histogram_vector_loads.cuh
//! @brief How the histogram stages 4 to 7 read their samples: 16-byte vectors, kVectorsInFlight
//! loads in flight per thread, a scalar head and tail (for_each_vector), and the samples of one
//! vector in memory order (for_each_in_vector).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "kernel_support.cuh"
#include "stage.hpp"

namespace ch08 {

//! Vectors each thread loads before counting any of them (memory-level parallelism).
inline constexpr int kVectorsInFlight = 4;

//! Samples in one 16-byte vector: 16 for unsigned char, 4 for int and float.
template <class T>
inline constexpr int kSamplesPerVector = static_cast<int>(16 / sizeof(T));

//! Calls `f(sample)` for the kSamplesPerVector<T> samples of one 16-byte vector, in memory order.
template <class T, class F>
__device__ __forceinline__ void for_each_in_vector(const uint4& v, F&& f) {
  const unsigned words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    if constexpr (std::is_same_v<T, unsigned char>) {
#pragma unroll
      for (int k = 0; k < 4; ++k) f(static_cast<unsigned char>(words[j] >> (8 * k)));
    } else if constexpr (std::is_same_v<T, float>) {
      f(__uint_as_float(words[j]));
    } else {
      f(static_cast<int>(words[j]));
    }
  }
}

//! The grid-stride loop over 16-byte vectors every stage from 4 on uses.
//! Splits [in, in + n) into a head (samples before the first 16-byte boundary), whole vectors and
//! a tail; each thread calls `on_vector(v)` for vectors i, i + G, i + 2G, ... (i its global index,
//! G the grid's threads), loading kVectorsInFlight of them before handing any over, and the first
//! threads of the grid call `on_sample(x)` for the head and tail samples (fewer than 2 x 16).
//! Indices are size_t: nothing wraps for n past 2^32. Never reads past in[n - 1].
//! @tparam T sample type; `in` must be aligned to sizeof(T)
template <class T, class OnVector, class OnSample>
__device__ __forceinline__ void for_each_vector(const T* __restrict__ in, std::size_t n,
                                                OnVector&& on_vector, OnSample&& on_sample) {
  constexpr std::size_t S = kSamplesPerVector<T>;
  const auto address = reinterpret_cast<std::uintptr_t>(in);
  const std::size_t to_boundary = ((16 - address % 16) % 16) / sizeof(T);
  const std::size_t head = to_boundary < n ? to_boundary : n;
  const std::size_t vectors = (n - head) / S;
  const uint4* __restrict__ vin = reinterpret_cast<const uint4*>(in + head);
  const std::size_t stride = harness::grid_threads();
  const std::size_t id = harness::global_thread_id();

  std::size_t i = id;
  for (; i + (kVectorsInFlight - 1) * stride < vectors; i += kVectorsInFlight * stride) {
    uint4 v[kVectorsInFlight];
#pragma unroll
    for (int k = 0; k < kVectorsInFlight; ++k) v[k] = __ldg(vin + i + k * stride);
#pragma unroll
    for (int k = 0; k < kVectorsInFlight; ++k) on_vector(v[k]);
  }
  for (; i < vectors; i += stride) on_vector(__ldg(vin + i));

  const std::size_t tail_begin = head + vectors * S;
  if (id < head) on_sample(in[id]);
  if (id < n - tail_begin) on_sample(in[tail_begin + id]);
}

//! Samples one 16-byte vector holds for the arguments' sample type.
inline std::size_t samples_per_vector(const harness::HistogramArgs& a) { return 16 / harness::dtype_size(a.type); }

}  // namespace ch08
