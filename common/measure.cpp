#include "measure.hpp"

namespace harness {

Measurement measure_stage(const ReduceImpl& impl, ReduceSession& session, int block,
                          std::size_t grid, const TimingOptions& timing, const DeviceInfo& dev) {
  Measurement m;
  m.stage = impl.name;
  m.label = impl.label;
  m.n = session.n();
  m.type = session.type();
  m.op = session.op();
  m.block = block;
  const ReduceArgs args = session.args_for(impl, block, grid);
  m.grid = session.n() == 0 ? 0 : grid_for(impl, args);
  m.check = session.run_and_verify(impl, args);
  m.time = time_on_gpu([&](cudaStream_t) { run_reduce(impl, args); }, timing, session.stream(),
                       dev.l2_bytes);
  const Verification last = session.verify_output(impl, args);
  if (m.check.ok && !last.ok) {
    m.check = last;
    m.check.message = "last timed run: " + last.message;
  }
  const double bytes = static_cast<double>(session.input_bytes());
  m.gb_per_s = gigabytes_per_second(bytes, m.time.median_ms);
  m.gflop_per_s = m.time.median_ms > 0 ? static_cast<double>(m.n) / (m.time.median_ms * 1e-3) / 1e9 : 0;
  m.pct_peak_bw = 100.0 * m.gb_per_s * 1e9 / dev.peak_bw_bytes_per_s;
  return m;
}

Record measurement_record(const Measurement& m) {
  Record r;
  r.add("stage", m.stage)
      .add("n", static_cast<long long>(m.n))
      .add("dtype", std::string(dtype_name(m.type)))
      .add("op", std::string(op_name(m.op)))
      .add("block", static_cast<long long>(m.block))
      .add("grid", static_cast<long long>(m.grid))
      .add("iters", static_cast<long long>(m.time.iters))
      .add("ms_median", m.time.median_ms)
      .add("ms_min", m.time.min_ms)
      .add("gb_per_s", m.gb_per_s)
      .add("gflop_per_s", m.gflop_per_s)
      .add("pct_peak_bw", m.pct_peak_bw)
      .add("verified", m.check.ok)
      .add("abs_err", m.check.abs_err)
      .add("bound", m.check.bound);
  return r;
}

}  // namespace harness
