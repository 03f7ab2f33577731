#include "timing.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "cuda_raii.hpp"

namespace harness {

TimingStats summarize_times(std::vector<double> ms) {
  TimingStats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const std::size_t m = ms.size();
  s.median_ms = (m % 2) ? ms[m / 2] : 0.5 * (ms[m / 2 - 1] + ms[m / 2]);
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  s.mean_ms = std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(m);
  s.iters = static_cast<int>(m);
  return s;
}

TimingStats time_on_gpu(const std::function<void(cudaStream_t)>& op, const TimingOptions& options,
                        cudaStream_t stream, std::size_t l2_bytes) {
  const int runs = std::max(1, options.runs_per_sample);
  DeviceBuffer flush;
  if (options.flush_l2 && l2_bytes > 0 && runs == 1 && !options.graph) flush = DeviceBuffer(2 * l2_bytes);
  Graph graph;
  if (options.graph) graph = Graph(op, runs, stream);
  Event start, stop;
  // One sample: `runs` runs between two events (replayed from the graph, or enqueued one by one), divided by runs.
  auto one_run = [&]() -> double {
    if (flush.bytes() > 0) flush.fill_bytes(static_cast<unsigned char>(0x5A), stream);
    start.record(stream);
    if (options.graph) {
      graph.launch(stream);
    } else {
      for (int r = 0; r < runs; ++r) op(stream);
    }
    stop.record(stream);
    stop.synchronize();
    return stop.elapsed_ms_since(start) / runs;
  };

  // The first warm-up run also estimates the time of one run, so that with max_seconds a slow
  // stage (a single-thread or atomic-bound reduction of 2^30 elements takes seconds) runs fewer
  // warm-ups (at most a quarter of the budget) and fewer timed repetitions (at least one).
  int iters = std::max(1, options.iters);
  int warmup = options.warmup;
  if (options.max_seconds > 0) {
    // A sample takes `runs` runs: the budget counts samples, not single runs.
    const double estimate_ms = std::max(one_run() * runs, 1e-6);
    const double budget_ms = options.max_seconds * 1e3;
    warmup = std::clamp(static_cast<int>(std::floor(0.25 * budget_ms / estimate_ms)), 0, warmup - 1);
    iters = std::clamp(static_cast<int>(std::floor(budget_ms / estimate_ms)), 1, iters);
  }
  for (int i = 0; i < warmup; ++i) one_run();
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(iters));
  for (int i = 0; i < iters; ++i) times.push_back(one_run());
  return summarize_times(std::move(times));
}

std::string timing_method(const TimingOptions& options) {
  const int runs = std::max(1, options.runs_per_sample);
  const std::string n = std::to_string(runs);
  if (options.graph)
    return "one CUDA graph of " + n + " runs replayed between two events per sample, divided by " + n + " (L2 warm)";
  if (runs > 1)
    return n + " runs enqueued back to back between two events per sample, divided by " + n + " (L2 warm)";
  return std::string("one run between two events per sample (L2 ") + (options.flush_l2 ? "flushed" : "warm") +
         " between runs)";
}

LaunchCount count_launches(const std::function<void(cudaStream_t)>& op, cudaStream_t stream) {
  const Graph graph(op, 1, stream, /*instantiate=*/false);
  std::size_t count = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph.get(), nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  if (count > 0) CUDA_CHECK(cudaGraphGetNodes(graph.get(), nodes.data(), &count));
  LaunchCount c;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    CUDA_CHECK(cudaGraphNodeGetType(node, &type));
    switch (type) {
      case cudaGraphNodeTypeKernel: ++c.kernels; break;
      case cudaGraphNodeTypeMemset: ++c.memsets; break;
      case cudaGraphNodeTypeMemcpy: ++c.copies; break;
      default: ++c.other; break;
    }
  }
  return c;
}

}  // namespace harness
