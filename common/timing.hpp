//! @file timing.hpp
//! @brief Timing GPU work with CUDA events: warm-up, repetitions, median and min, optional L2 flush.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace harness {

//! How to time an operation.
struct TimingOptions {
  int warmup = 5;            //!< untimed runs first (module load, clocks, caches)
  int iters = 50;            //!< timed repetitions (fewer if max_seconds caps them)
  bool flush_l2 = true;      //!< overwrite an L2-sized buffer before every timed run (not timed)
  double max_seconds = 0;    //!< if > 0, cap repetitions so they take about this long (>= 1 kept; warm-ups too)
};

//! Statistics over the timed repetitions, in milliseconds.
struct TimingStats {
  double median_ms = 0;  //!< median of the repetitions
  double min_ms = 0;     //!< fastest repetition
  double max_ms = 0;     //!< slowest repetition
  double mean_ms = 0;    //!< arithmetic mean
  int iters = 0;         //!< repetitions actually timed
};

//! Median, min, max and mean of a list of times (ms). An empty list gives all zeros.
TimingStats summarize_times(std::vector<double> ms);

//! Times `op(stream)` with a pair of CUDA events around each repetition.
//! @param[in] op the work to time; it must enqueue everything on the stream it is given
//! @param[in] options warm-up, repetitions, L2 flush, time cap
//! @param[in] stream stream to run on
//! @param[in] l2_bytes size of the L2 cache; the flush writes twice this many bytes
//! @throws CudaError if any CUDA call fails
TimingStats time_on_gpu(const std::function<void(cudaStream_t)>& op, const TimingOptions& options,
                        cudaStream_t stream, std::size_t l2_bytes);

}  // namespace harness
