#include "stage_driver.hpp"

#include <cuda_profiler_api.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <nvtx3/nvToolsExt.h>
#include <sstream>

#include "cli.hpp"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "measure.hpp"
#include "roofline.hpp"

namespace harness {

namespace {

void print_measurement(const Measurement& m, const ReduceImpl& impl, const DeviceInfo& dev,
                       const RunOptions& o, bool profiled) {
  const double elem = static_cast<double>(dtype_size(m.type));
  const Roofline roof{dev.peak_fp32_flops_per_s, dev.peak_bw_bytes_per_s};
  const double ai = reduction_intensity(elem);
  std::printf("%s: %s\n", impl.name.c_str(), impl.label.c_str());
  std::printf("  changed:    %s\n", impl.change.c_str());
  std::printf("  device:     %s\n", dev.summary().c_str());
  std::printf("  config:     n = %zu %s (%.1f MiB), op %s, block %d, grid %zu, dist %s, seed %llu\n",
              m.n, dtype_name(m.type), m.n * elem / 1048576.0, op_name(m.op), m.block, m.grid,
              o.dist.c_str(), static_cast<unsigned long long>(o.seed));
  if (profiled) {
    std::printf("  profile:    one launch inside a profiler range (no timing)\n");
  } else {
    std::printf("  timing:     %d runs after %d warm-up, L2 %s between runs\n", m.time.iters,
                o.warmup, o.no_flush ? "kept warm" : "flushed");
    std::printf("  time:       median %.4f ms, min %.4f ms\n", m.time.median_ms, m.time.min_ms);
    std::printf("  throughput: %.1f GB/s (%.1f%% of peak %.0f GB/s), %.1f GFLOP/s\n", m.gb_per_s,
                m.pct_peak_bw, dev.peak_bw_bytes_per_s / 1e9, m.gflop_per_s);
    std::printf("  roofline:   %.3f FLOP/byte, ridge %.2f FLOP/byte, ceiling %.1f GFLOP/s\n", ai,
                roof.ridge_point(), roof.ceiling(ai) / 1e9);
  }
  std::printf("  verify:     %s (%s)\n", m.check.ok ? "PASS" : "FAIL", m.check.message.c_str());
}

}  // namespace

int stage_main(int argc, char** argv, const StageProgram& program) {
  const ReduceImpl& first = program.variants.front();
  CLI::App app{first.name + ": " + first.label + ". " + first.change + " (" + first.source + ")",
               first.name};
  RunOptions o;
  OptionSet which;
  which.op = first.ops.size() > 1;
  which.grid = true;  // stages without a grid-stride loop refuse it in validate_config, saying why
  add_run_options(app, o, which);
  std::string variant = program.variant_names.empty() ? "" : program.variant_names.front();
  if (program.variants.size() > 1)
    app.add_option(program.variant_flag, variant, program.variant_help)
        ->check(CLI::IsMember(program.variant_names))
        ->capture_default_str();
  if (auto rc = parse_command_line(app, o, argc, argv)) return *rc;

  std::size_t pick = 0;
  for (std::size_t i = 0; i < program.variant_names.size(); ++i)
    if (program.variant_names[i] == variant) pick = i;
  const ReduceImpl& impl = program.variants[pick];

  try {
    const DType type = parse_dtype(o.type);
    const Op op = parse_op(o.op);
    const Dist dist = parse_dist(o.dist);
    validate_config(impl, type, op, o.block, o.grid);
    for (const std::string* path : {&o.csv, &o.json})
      if (!path->empty()) check_writable(*path);

    const DeviceInfo dev = query_device();
    validate_shape(impl, type, op, o.n, o.block, o.grid);  // the grid limit, before the input exists
    Stream stream;
    ReduceSession session = ReduceSession::generate(type, op, o.n, dist, o.seed, stream.get());

    Measurement m;
    if (o.profile) {
      const ReduceArgs args = session.args_for(impl, o.block, o.grid);
      m.stage = impl.name;
      m.label = impl.label;
      m.n = o.n;
      m.type = type;
      m.op = op;
      m.block = o.block;
      m.grid = o.n == 0 ? 0 : grid_for(impl, args);
      const Verification warm = session.run_and_verify(impl, args);  // the warm-up
      session.poison();
      CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      CUDA_CHECK(cudaProfilerStart());
      nvtxRangePushA(impl.name.c_str());
      run_reduce(impl, args);
      CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      nvtxRangePop();
      CUDA_CHECK(cudaProfilerStop());
      m.check = session.verify_output(impl, args);
      if (!warm.ok) m.check = warm;
    } else {
      TimingOptions t;
      t.warmup = o.warmup;
      t.iters = o.iters;
      t.flush_l2 = !o.no_flush;
      t.max_seconds = o.max_seconds;
      m = measure_stage(impl, session, o.block, o.grid, t, dev);
    }
    print_measurement(m, impl, dev, o, o.profile);
    if (!o.csv.empty() || !o.json.empty()) {
      Record r = measurement_record(m);
      r.add("device", dev.name).add("peak_bw_gb_per_s", dev.peak_bw_bytes_per_s / 1e9);
      if (!o.csv.empty()) {
        std::ostringstream os;
        write_csv(os, {r});
        write_text_file(o.csv, os.str());
      }
      if (!o.json.empty()) write_text_file(o.json, to_json({r}));
    }
    return m.check.ok ? 0 : kExitFailure;
  } catch (const NoGpuError& e) {
    std::cout << impl.name << ": " << e.what()
              << ". Nothing was run: this program needs an NVIDIA GPU (exit code " << kExitNoGpu
              << ").\n";
    return kExitNoGpu;
  } catch (const UsageError& e) {
    std::string msg = e.what();  // validate() already names the stage
    if (msg.rfind(impl.name + ": ", 0) == 0) msg.erase(0, impl.name.size() + 2);
    std::cerr << impl.name << ": error: " << msg << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << impl.name << ": failed: " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace harness
