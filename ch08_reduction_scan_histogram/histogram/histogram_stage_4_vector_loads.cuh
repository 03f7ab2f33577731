//! @file histogram_stage_4_vector_loads.cuh
//! @brief Histogram stage 4: 16-byte loads. Each thread reads 16 bytes at a time (sixteen 8-bit
//! samples, or four ints or floats) and keeps four such loads in flight before counting them.
//!
//! Changed against stage 3: the input is read as uint4 vectors in a grid-stride loop over vectors;
//! each round first issues kVectorsInFlight loads, then counts their samples into stage 2's
//! per-warp sub-histograms (WarpHistograms, included from histogram_stage_2_per_warp.cuh). The few
//! samples before the first 16-byte boundary and after the last whole vector are counted one by one
//! by the first threads of the grid. Grid: resident blocks, as stage 3.
//! What the profiler should show against stage 3: global load instructions fall 16-fold for 8-bit
//! samples (4-fold for int and float) and each moves 16 bytes (LDG.E.128); bytes in flight per SM
//! rise, so "Long Scoreboard" stalls fall; shared atomics are unchanged (one per sample) and are
//! now clearly the limiter on random and on one-bin data.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "histogram_stage_2_per_warp.cuh"  // WarpHistograms, per_warp_smem
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

//! Stage 4: 16-byte loads, kVectorsInFlight per round, into per-warp sub-histograms.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (histogram_bins.cuh)
//! @param[in] in n samples (aligned to sizeof(T); any 16-byte alignment)
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in,out] out map.count() 64-bit counters, zeroed before the launch
//! Launch: any grid (default: resident blocks); dynamic shared memory as stage 2. Barriers: 2.
template <class T, class Map>
__global__ void histogram_stage_4(const T* __restrict__ in, std::size_t n, Map map,
                                  harness::Count* __restrict__ out) {
  extern __shared__ unsigned smem[];
  const WarpHistograms hist(smem, map.count());
  hist.zero();
  __syncthreads();
  auto count = [&](T x) {
    const int bin = harness::bin_of(map, x);
    if (bin >= 0) hist.add(bin);
  };
  for_each_vector(in, n, [&](const uint4& v) { for_each_in_vector<T>(v, count); }, count);
  __syncthreads();
  hist.fold(out);
}

//! Calls `f(kernel, T{}, map, smem_bytes)` with stage 4's kernel at the arguments' type and range.
template <class F>
void with_stage_4_kernel(const harness::HistogramArgs& a, F&& f) {
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) { f(histogram_stage_4<T, decltype(map)>, t, map, per_warp_smem(a)); });
  });
}

//! Samples one 16-byte vector holds for the arguments' sample type.
inline std::size_t samples_per_vector(const harness::HistogramArgs& a) { return 16 / harness::dtype_size(a.type); }

//! Grid of stage 4: resident blocks of its kernel with its shared memory.
inline std::size_t histogram_stage_4_grid(const harness::HistogramArgs& a) {
  return harness::resident_grid(a, samples_per_vector(a), [](const auto& args, auto&& f) { with_stage_4_kernel(args, f); });
}

//! Zeroes the histogram and launches stage 4.
inline void launch_histogram_stage_4(const harness::HistogramArgs& a) {
  const std::size_t grid = histogram_stage_4_grid(a);
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  with_stage_4_kernel(a, [&](auto kernel, auto t, auto map, std::size_t smem) {
    using T = decltype(t);
    harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
    kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, a.output<harness::Count>());
  });
}

//! Stage 4 as the harness sees it.
inline harness::Stage<harness::Histogram> histogram_stage_4_stage() {
  harness::Stage<harness::Histogram> s = histogram_stage_2_stage();
  s.name = "histogram_stage_4";
  s.label = "16-byte loads";
  s.change = "each thread loads 16 bytes at a time (16 uint8 or 4 int/float samples), four loads in flight per round";
  s.source = "beyond the chapter: vectorised loads (CUDA C++ Best Practices Guide, coalesced access)";
  s.grid_for = histogram_stage_4_grid;
  s.launch = launch_histogram_stage_4;
  return s;
}

}  // namespace ch08
