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

  double estimate_ms = 0;
  for (int i = 0; i < options.warmup; ++i) estimate_ms = one_run();

  int iters = std::max(1, options.iters);
  if (options.max_seconds > 0) {
    if (options.warmup == 0) estimate_ms = one_run();
    const double fit = options.max_seconds * 1e3 / std::max(estimate_ms, 1e-6);
    iters = std::clamp(static_cast<int>(std::floor(fit)), std::min(5, iters), iters);
  }
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(iters));
  for (int i = 0; i < iters; ++i) times.push_back(one_run());
  return summarize_times(std::move(times));
}

}  // namespace harness
