//! @file broken_histogram.cuh
//! @brief Deliberately broken histograms for the self-test: one takes a count away after a correct
//! run, the others never read some samples (lost_elements.hpp). The histogram check must report
//! each as failed (exit 1), at every n and seed; if one ever passes, the check cannot fail and
//! proves nothing.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "kernel_support.cuh"
#include "lost_elements.hpp"
#include "stage.hpp"

namespace harness {

//! A correct histogram -- one global atomicAdd per counted sample (grid-stride) -- that reads
//! only the samples `keep` reads (all of them for a correct run).
template <class T, class Map>
__global__ void broken_histogram_count(const T* __restrict__ in, std::size_t n, Map map, LostElements keep,
                                       Count* __restrict__ out) {
  for (std::size_t i = global_thread_id(); i < n; i += grid_threads()) {
    if (!keep.reads(i)) continue;
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

//! The command-line names of histogram_broken's bugs: lose-one, then lost_names().
inline std::vector<std::string> histogram_bug_names() {
  std::vector<std::string> names{"lose-one"};
  for (const std::string& n : lost_names()) names.push_back(n);
  return names;
}

//! The broken histogram's grid: one block per a.block samples, at most 1024.
inline std::size_t broken_histogram_grid(const HistogramArgs& a) {
  return std::min<std::size_t>(blocks_for(a.n, a.block), 1024);
}

//! Enqueues the broken histogram: with `LostOneCount` a correct one that then takes one count away,
//! else one that never reads the samples `L` names (see broken_histogram_stage).
template <bool LostOneCount, Lost L>
void launch_broken_histogram(const HistogramArgs& a) {
  const std::size_t grid = broken_histogram_grid(a);
  LostElements keep;
  keep.end = a.n;  // reads every sample
  if (!LostOneCount) keep = lost_elements(L, a.n, static_cast<std::size_t>(a.block));
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(Count), a.stream));
  with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    with_bin_map<T>(a, [&](auto map) {
      broken_histogram_count<T><<<grid, a.block, 0, a.stream>>>(a.input<T>(), a.n, map, keep, a.output<Count>());
    });
  });
  if (LostOneCount) broken_histogram_lose_one<<<1, 1, 0, a.stream>>>(a.output<Count>(), a.bins);
}

//! A broken histogram as a stage (uint8, int and float samples; any block size): with
//! `lost_one_count` a correct histogram that then takes one count away, else one that never reads
//! the samples `lost` names (blocks of a.block samples).
inline Stage<Histogram> broken_histogram_stage(bool lost_one_count, Lost lost = Lost::first) {
  Stage<Histogram> s;
  s.name = "histogram_broken";
  s.label = lost_one_count ? std::string("broken: one count lost") : "broken: " + lost_label(lost, "sample");
  s.change = "a deliberately wrong histogram (self-test: the check must fail)";
  s.source = "self-test";
  s.types = {DType::u8, DType::i32, DType::f32};
  s.deterministic = true;
  s.caps.max_bins = 1 << 20;
  s.grid_for = broken_histogram_grid;
  if (lost_one_count) s.launch = launch_broken_histogram<true, Lost::first>;
  else s.launch = with_lost(lost, [](auto bug) { return &launch_broken_histogram<false, decltype(bug)::value>; });
  return s;
}

//! Every broken histogram, in the order of histogram_bug_names().
inline std::vector<Stage<Histogram>> broken_histogram_stages() {
  return {broken_histogram_stage(true), broken_histogram_stage(false, Lost::first),
          broken_histogram_stage(false, Lost::last), broken_histogram_stage(false, Lost::last_three),
          broken_histogram_stage(false, Lost::block_firsts)};
}

}  // namespace harness
