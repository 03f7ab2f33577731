//! @file broken_histogram.cuh
//! @brief A deliberately broken histogram for the self-test: it loses one sample. The histogram
//! check must report it as failed (exit 1, first_bad = the first non-empty bin); if it ever passes,
//! the check cannot fail and proves nothing.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "kernel_support.cuh"
#include "stage.hpp"

namespace harness {

//! A correct histogram: one global atomicAdd per counted sample (grid-stride).
template <class T, class Map>
__global__ void broken_histogram_count(const T* __restrict__ in, std::size_t n, Map map,
                                       Count* __restrict__ out) {
  for (std::size_t i = global_thread_id(); i < n; i += grid_threads()) {
    const int bin = bin_of(map, in[i]);
    if (bin >= 0) atomicAdd(&out[bin], Count{1});
  }
}

//! The planted bug: one thread takes one sample away from the first non-empty bin, whatever the
//! data (so the bug shows on every input that has a counted sample).
//! @tparam C the counter type (Count); a template so that the header can be included anywhere
template <class C>
__global__ void broken_histogram_lose_one(C* out, int bins) {
  for (int b = 0; b < bins; ++b)
    if (out[b] != 0) {
      out[b] -= 1;
      return;
    }
}

//! The broken histogram as a stage (uint8, int and float samples; any block size).
inline Stage<Histogram> broken_histogram_stage() {
  Stage<Histogram> s;
  s.name = "histogram_broken";
  s.label = "broken: one sample lost";
  s.change = "a correct histogram that then loses one sample (self-test: the check must fail)";
  s.source = "self-test";
  s.types = {DType::u8, DType::i32, DType::f32};
  s.deterministic = true;
  s.caps.max_bins = 1 << 20;
  s.grid_for = [](const HistogramArgs& a) { return std::min<std::size_t>(blocks_for(a.n, a.block), 1024); };
  s.launch = [](const HistogramArgs& a) {
    const std::size_t grid = std::min<std::size_t>(blocks_for(a.n, a.block), 1024);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(Count), a.stream));
    with_sample_type(a.type, [&](auto t) {
      using T = decltype(t);
      with_bin_map<T>(a, [&](auto map) {
        broken_histogram_count<T><<<grid, a.block, 0, a.stream>>>(a.input<T>(), a.n, map, a.output<Count>());
      });
    });
    broken_histogram_lose_one<<<1, 1, 0, a.stream>>>(a.output<Count>(), a.bins);
  };
  return s;
}

}  // namespace harness
