//! @file measure.hpp
//! @brief Timing one stage on one input and turning the time into GB/s, GFLOP/s and % of peak.
#pragma once
#include <cstddef>
#include <string>

#include "device_info.hpp"
#include "reduce_impl.hpp"
#include "reduce_session.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace harness {

//! One stage measured on one input.
struct Measurement {
  std::string stage;        //!< ReduceImpl::name
  std::string label;        //!< ReduceImpl::label
  std::size_t n = 0;        //!< elements
  DType type = DType::f32;  //!< element type
  Op op = Op::sum;          //!< operator
  int block = 0;            //!< threads per block
  std::size_t grid = 0;     //!< blocks launched by the stage's main kernel
  TimingStats time;         //!< event timings, ms
  double gb_per_s = 0;      //!< input bytes / median time, in GB/s (1e9 B/s)
  double gflop_per_s = 0;   //!< n operations / median time, in GFLOP/s
  double pct_peak_bw = 0;   //!< gb_per_s as % of the device's peak DRAM bandwidth
  Verification check;       //!< verification of the first (poisoned) run; the last run is checked too
};

//! Effective bandwidth in GB/s (1e9 bytes/s) of moving `bytes` in `ms` milliseconds.
inline double gigabytes_per_second(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

//! Verifies `impl` on the session's input (poisoned output and workspace), then times it.
//! The result of the last timed run is verified again; a failure of either marks it failed.
Measurement measure_stage(const ReduceImpl& impl, ReduceSession& session, int block,
                          std::size_t grid, const TimingOptions& timing, const DeviceInfo& dev);

//! The common columns of a measurement as a record (stage, n, dtype, op, block, grid, iters,
//! ms_median, ms_min, gb_per_s, gflop_per_s, pct_peak_bw, verified, abs_err, bound).
Record measurement_record(const Measurement& m);

}  // namespace harness
