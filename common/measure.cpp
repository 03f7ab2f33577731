#include "measure.hpp"

namespace harness {

Record measurement_record(const Measurement& m, const Record& config) {
  Record r;
  r.add("stage", m.stage).add("n", static_cast<long long>(m.n)).add("dtype", std::string(dtype_name(m.type)));
  for (const auto& f : config.fields) r.add(f.first, f.second);
  r.add("block", static_cast<long long>(m.block))
      .add("grid", static_cast<long long>(m.grid))
      .add("iters", static_cast<long long>(m.time.iters))
      .add("ms_median", m.time.median_ms)
      .add("ms_min", m.time.min_ms)
      .add("gb_per_s", m.gb_per_s)
      .add("pct_peak_bw", m.pct_peak_bw)
      .add("gop_per_s", m.gop_per_s)
      .add("verified", m.ok())
      .add("check", std::string(check_name(m.decided_by())))
      .add("timed_check", std::string(check_name(m.timed.kind)))
      .add("abs_err", m.timed.abs_err)
      .add("err_bound", m.timed.bound);
  return r;
}

}  // namespace harness
