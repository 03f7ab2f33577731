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
  DeviceBuffer flush;
  if (options.flush_l2 && l2_bytes > 0) flush = DeviceBuffer(2 * l2_bytes);
  Event start, stop;
  auto one_run = [&]() -> double {
    if (flush.bytes() > 0) flush.fill_bytes(static_cast<unsigned char>(0x5A), stream);
    start.record(stream);
    op(stream);
    stop.record(stream);
    stop.synchronize();
    return stop.elapsed_ms_since(start);
  };

  // The first warm-up run also estimates the time of one run, so that with max_seconds a slow
  // stage (a single-thread or atomic-bound reduction of 2^30 elements takes seconds) runs fewer
  // warm-ups (at most a quarter of the budget) and fewer timed repetitions (at least one).
  int iters = std::max(1, options.iters);
  int warmup = options.warmup;
  if (options.max_seconds > 0) {
    const double estimate_ms = std::max(one_run(), 1e-6);
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

}  // namespace harness
