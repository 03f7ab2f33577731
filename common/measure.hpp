//! @file measure.hpp
//! @brief Checking and timing one stage of any problem, and turning the time into GB/s and % of
//! the peak DRAM bandwidth.
#pragma once
#include <cstddef>
#include <string>

#include "device_info.hpp"
#include "report.hpp"
#include "session.hpp"
#include "timing.hpp"

namespace harness {

//! Effective bandwidth in GB/s (1e9 bytes/s) of moving `bytes` in `ms` milliseconds.
inline double gigabytes_per_second(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

//! One stage checked and timed.
struct Measurement {
  std::string stage;        //!< Stage::name
  std::string label;        //!< Stage::label
  std::size_t n = 0;        //!< input elements
  DType type = DType::f32;  //!< input element type
  int block = 0;            //!< threads per block (0 for a library baseline, which chooses its own)
  std::size_t grid = 0;     //!< blocks of the stage's main kernel (0 for a library baseline)
  TimingStats time;         //!< event timings of the timed input, ms
  double bytes = 0;         //!< bytes one run must move (P::bytes_moved)
  double gb_per_s = 0;      //!< bytes / median time, GB/s (1e9 B/s)
  double pct_peak_bw = 0;   //!< gb_per_s as % of the device's peak DRAM bandwidth
  double gop_per_s = 0;     //!< P::operations / median time, in 1e9 operations/s
  //! The verdict: on data whose exact answer is known (CheckKind::exact), poisoned output; the
  //! last timed run is checked too, and a failure of either fails it.
  Verification verdict;
  //! The timed input's own check: exact where its answer is known, else its error against the
  //! depth bound (bound) or, where that bound cannot tell right from wrong, not checked.
  Verification timed;
  //! Both checks passed (an unchecked timed input does not fail a stage; the verdict decides).
  bool ok() const { return verdict.ok && timed.ok; }
  //! The check that decided ok(): the verdict's, unless the verdict passed and the timed input's
  //! check failed.
  CheckKind decided_by() const { return !verdict.ok || timed.ok ? verdict.kind : timed.kind; }
};

//! Checks `stage` on `exact` (if given) and on `timed`, then times it on `timed`.
//! @param[in] stage the stage
//! @param[in,out] timed the session whose input is timed (and checked)
//! @param[in] block threads per block
//! @param[in] grid blocks (0: the stage's default)
//! @param[in] timing warm-up, repetitions, L2 flush, time cap
//! @param[in] dev the device (its L2 size and peak bandwidth)
//! @param[in] exact a session on exact data for the verdict, or nullptr when `timed` itself is
//!            exact data (then its check is the verdict)
//! @param[in] baseline a library baseline: block and grid are not reported
template <class P>
Measurement measure_stage(const Stage<P>& stage, Session<P>* exact, Session<P>& timed, int block,
                          std::size_t grid, const TimingOptions& timing, const DeviceInfo& dev,
                          bool baseline = false) {
  Measurement m;
  m.stage = stage.name;
  m.label = stage.label;
  m.n = timed.n();
  m.type = timed.type();
  const typename P::Args args = timed.args_for(stage, block, grid);
  if (!baseline) {
    m.block = block;
    m.grid = grid_of(stage, args);
  }
  m.timed = timed.run_and_check(stage, args);
  m.verdict = exact ? exact->run_and_check(stage, exact->args_for(stage, block, grid)) : m.timed;
  m.time = time_on_gpu([&](cudaStream_t) { run_stage(stage, args); }, timing, timed.stream(), dev.l2_bytes);
  const Verification last = timed.check_output(stage, args);
  if (!last.ok && m.verdict.ok) {
    m.verdict = last;
    m.verdict.message = "last timed run: " + last.message;
  }
  m.bytes = P::bytes_moved(args);
  m.gb_per_s = gigabytes_per_second(m.bytes, m.time.median_ms);
  m.pct_peak_bw = 100.0 * m.gb_per_s * 1e9 / dev.peak_bw_bytes_per_s;
  m.gop_per_s = m.time.median_ms > 0 ? P::operations(args) / (m.time.median_ms * 1e-3) / 1e9 : 0;
  return m;
}

//! The columns every measurement has, as a record: stage, n, dtype, then `config` (the problem's
//! own columns), block, grid, iters, ms_median, ms_min, gb_per_s, pct_peak_bw, gop_per_s,
//! verified, check (which check decided the verdict), timed_check (exact, bound or unchecked),
//! abs_err and err_bound (of the timed input).
Record measurement_record(const Measurement& m, const Record& config);

}  // namespace harness
