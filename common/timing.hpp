//! @file timing.hpp
//! @brief Timing GPU work with CUDA events: warm-up, repetitions, median and min, optional L2 flush.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace harness {

//! How to time an operation.
struct TimingOptions {
  int warmup = 5;            //!< untimed runs first (module load, clocks, caches)
  int iters = 50;            //!< timed repetitions (fewer if max_seconds caps them)
  bool flush_l2 = true;      //!< overwrite an L2-sized buffer before every timed run (not timed)
  double max_seconds = 0;    //!< if > 0, cap repetitions so they take about this long (>= 1 kept; warm-ups too)
  //! Runs between one pair of events; each sample is their time divided by this. Above 1 the runs
  //! follow each other with no L2 flush between them (flush_l2 is ignored: the input stays warm).
  //! For runs of a few microseconds, which one pair of events (about 0.5 us resolution) and the
  //! launch of one run cannot time alone.
  int runs_per_sample = 1;
  //! Capture runs_per_sample runs into one CUDA graph and replay it for each sample (the CPU's
  //! launch calls are then outside the timed interval); false: enqueue them on the stream.
  bool graph = false;
};

//! How the runs of `options` are timed, in words for a table's header, e.g. "one CUDA graph of
//! 100 runs replayed per sample, divided by 100 (L2 warm)".
std::string timing_method(const TimingOptions& options);

//! What one run enqueues, counted from a CUDA graph of it (captured, never run).
struct LaunchCount {
  int kernels = 0;  //!< kernel nodes
  int memsets = 0;  //!< memset nodes (cudaMemsetAsync)
  int copies = 0;   //!< memcpy nodes (cudaMemcpyAsync)
  int other = 0;    //!< any other node (events, host functions, child graphs ...)
  //! Everything the GPU is asked to do one after another: kernels, memsets and copies.
  int launches() const { return kernels + memsets + copies; }
};

//! Captures one call of `op(stream)` into a CUDA graph (stream capture in relaxed mode, so the
//! occupancy and attribute queries a launch makes are allowed) and counts the graph's nodes by
//! type (cudaGraphGetNodes, cudaGraphNodeGetType). Nothing runs on the GPU.
//! @param[in] op the work of one run, all enqueued on the stream it is given
//! @param[in] stream a stream that is not the legacy default stream
//! @throws CudaError if capture fails (e.g. op synchronises inside)
LaunchCount count_launches(const std::function<void(cudaStream_t)>& op, cudaStream_t stream);

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
