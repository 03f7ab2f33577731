//! @file cub_histogram.hpp
//! @brief The CUB baseline every histogram ladder is measured against.
#pragma once
#include "histogram_problem.hpp"

namespace harness {

//! cub::DeviceHistogram::HistogramEven over uint8, int and float samples, `bins` even bins over
//! [lower, upper), as a stage.
//! - Bins: CUB's formula is the one in histogram_bins.cuh (the same bits, including float samples
//!   just below upper that round to bin == bins, which CUB counts nowhere), so CUB's output is
//!   checked exactly against the same reference as the stages.
//! - Levels: int for uint8 and int samples, float for float samples. For int samples CUB computes
//!   `sample - lower` in int, so it refuses (UsageError) ranges with upper - lower >= 2^31.
//! - Counters: CUB counts in the counter type of the output. For n < 2^32 it counts in 32-bit
//!   counters (CUB's cheapest: 32-bit shared-memory atomics) in the workspace, and one small kernel
//!   then widens the `bins` counts into the 64-bit output; for larger n it counts straight into the
//!   64-bit output. Workspace: CUB's temporary storage, after bins x 4 bytes (rounded up to 256) when n < 2^32.
//! - Bins past what CUB privatises in shared memory make CUB keep per-block histograms in global
//!   memory (its own choice, inside the timing).
Stage<Histogram> cub_histogram_stage();

}  // namespace harness
