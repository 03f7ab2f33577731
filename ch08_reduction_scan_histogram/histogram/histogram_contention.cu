// The program histogram_contention: how each histogram stage and CUB slow down as more samples
// fall in one bin. For each hot share p (the share of samples in the hottest bin, the rest uniform
// over the other bins; p = 1/bins is uniform data, p = 1 is one-bin data) it generates the input,
// times every stage, CUB and the streaming-read ceiling on it (CUDA events, warm-up, median, L2
// flushed), checks every stage's last result against the CPU reference, and prints GB/s per stage
// and share. --csv writes one row per (share, stage); scripts/plot_contention.py draws it.
//
//   histogram_contention --n 2^28 --shares 1/256,0.1,0.5,0.9,1 --csv contention.csv
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "cub_histogram.hpp"
#include "cuda_raii.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "histogram_inputs.hpp"
#include "histogram_reference.hpp"
#include "histogram_sample_type.hpp"
#include "histogram_stage_0_global_atomics.cuh"
#include "histogram_stage_1_privatised.cuh"
#include "histogram_stage_2_per_warp.cuh"
#include "histogram_stage_3_coarsened.cuh"
#include "histogram_stage_4_vector_loads.cuh"
#include "histogram_stage_5_thread_counters.cuh"
#include "histogram_stage_6_vector_runs.cuh"
#include "report.hpp"
#include "streaming_read.hpp"
#include "timing.hpp"

namespace {

using harness::Count;
using harness::Histogram;
using harness::HistogramArgs;
using harness::Stage;

// "1/256" or "0.25" as a share in [0, 1].
double parse_share(const std::string& text) {
  double value = 0;
  const auto slash = text.find('/');
  try {
    std::size_t used = 0;
    if (slash == std::string::npos) {
      value = std::stod(text, &used);
      if (used != text.size()) throw std::invalid_argument(text);
    } else {
      const double num = std::stod(text.substr(0, slash));
      const double den = std::stod(text.substr(slash + 1));
      value = num / den;
    }
  } catch (const std::exception&) {
    throw harness::UsageError("--shares: cannot read '" + text + "' as a share (0.5 or 1/256)");
  }
  if (!(value >= 0 && value <= 1)) throw harness::UsageError("--shares: '" + text + "' is not in [0, 1]");
  return value;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, sep);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

// Every stage of the ladder, in order, then CUB.
std::vector<Stage<Histogram>> all_stages() {
  return {ch08::histogram_stage_0_stage(),      ch08::histogram_stage_1_stage(true),
          ch08::histogram_stage_2_stage(),      ch08::histogram_stage_3_stage(),
          ch08::histogram_stage_4_stage(),      ch08::histogram_stage_5_stage(),
          ch08::histogram_stage_6_stage(),      harness::cub_histogram_stage()};
}

struct Options {
  std::string n_text = "2^28";
  std::string shares_text = "1/256,1/64,1/16,0.1,0.25,0.5,0.75,0.9,0.99,1";
  std::string type_text = "uint8";
  std::string stages_text;  // empty: all
  int block = 256;
  int bins = 256;
  double lower = 0;
  double upper = 256;
  std::uint64_t seed = 1;
  int iters = 20;
  int warmup = 3;
  double max_seconds = 2.0;
  std::string csv;
};

int run(const Options& o) {
  const std::size_t n = harness::parse_size(o.n_text);
  const harness::DType type = harness::parse_dtype(o.type_text);
  harness::with_sample_type(type, [](auto) { return 0; });  // refuses double and int64
  std::vector<double> shares;
  std::vector<std::string> share_names = split(o.shares_text, ',');
  for (const auto& s : share_names) shares.push_back(parse_share(s));
  std::vector<Stage<Histogram>> stages;
  const auto wanted = split(o.stages_text, ',');
  for (auto& s : all_stages())
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), s.name) != wanted.end())
      stages.push_back(std::move(s));
  if (stages.empty()) throw harness::UsageError("--stages: no stage matches '" + o.stages_text + "'");
  if (!o.csv.empty()) harness::check_writable(o.csv);

  std::string why;
  if (!harness::gpu_available(&why)) throw harness::NoGpuError(why);
  const harness::DeviceInfo dev = harness::query_device(0);
  std::printf("%s\nhistogram contention: n = %zu %s samples, %d bins over [%g, %g), block %d\n",
              dev.summary().c_str(), n, harness::dtype_name(type), o.bins, o.lower, o.upper, o.block);

  harness::TimingOptions timing;
  timing.iters = o.iters;
  timing.warmup = o.warmup;
  timing.max_seconds = o.max_seconds;
  const harness::Stream stream;
  const std::size_t bytes = n * harness::dtype_size(type);
  harness::DeviceBuffer d_in(bytes);
  harness::DeviceBuffer d_out(static_cast<std::size_t>(o.bins) * sizeof(Count));
  harness::DeviceBuffer d_sink(sizeof(unsigned));
  std::vector<Count> got(static_cast<std::size_t>(o.bins));

  std::vector<harness::Record> records;
  std::vector<std::string> header{"hot share"};
  for (const auto& s : stages) header.push_back(s.name == "cub::DeviceHistogram" ? "CUB" : s.name.substr(std::string("histogram_").size()));
  header.push_back("read ceiling");
  std::vector<std::vector<std::string>> table;
  bool all_ok = true;

  for (std::size_t k = 0; k < shares.size(); ++k) {
    harness::HistInputSpec spec;
    spec.dist = harness::HistDist::hot;
    spec.seed = o.seed;
    spec.bins = o.bins;
    spec.lower = o.lower;
    spec.upper = o.upper;
    spec.hot_share = shares[k];
    harness::HistogramReference ref;
    harness::with_sample_type(type, [&](auto t) {
      using T = decltype(t);
      const std::vector<T> host = harness::make_histogram_input<T>(n, spec);
      CUDA_CHECK(cudaMemcpy(d_in.data(), host.data(), bytes, cudaMemcpyHostToDevice));
      ref = harness::reference_histogram(host.data(), n, o.bins, o.lower, o.upper);
    });
    std::vector<std::string> row{share_names[k]};
    for (const auto& s : stages) {
      HistogramArgs a;
      a.type = type;
      a.in = d_in.data();
      a.n = n;
      a.out = d_out.data();
      a.block = std::min(o.block, s.max_block);
      a.bins = o.bins;
      a.lower = o.lower;
      a.upper = o.upper;
      if (o.bins > s.caps.max_bins) {
        row.push_back("-");
        continue;
      }
      const std::size_t ws = s.workspace_bytes ? s.workspace_bytes(a) : 0;
      harness::DeviceBuffer d_ws(ws);
      a.workspace = d_ws.data();
      a.workspace_size = ws;
      d_out.fill_bytes(0xFF, stream.get());  // poison: a stage that writes nothing fails the check
      const harness::TimingStats t = harness::time_on_gpu(
          [&](cudaStream_t st) {
            HistogramArgs run_args = a;
            run_args.stream = st;
            s.launch(run_args);
            CUDA_CHECK_LAUNCH();
          },
          timing, stream.get(), dev.l2_bytes);
      stream.synchronize();
      CUDA_CHECK(cudaMemcpy(got.data(), d_out.data(), got.size() * sizeof(Count), cudaMemcpyDeviceToHost));
      const harness::Verification v = harness::check_histogram(got, ref);
      all_ok = all_ok && v.ok;
      const double gbps = static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.0f%s", gbps, v.ok ? "" : " FAIL");
      row.push_back(cell);
      if (!v.ok) std::fprintf(stderr, "%s at share %s: %s\n", s.name.c_str(), share_names[k].c_str(), v.message.c_str());
      harness::Record r;
      r.add("hot_share", shares[k]).add("stage", s.name).add("label", s.label)
          .add("type", std::string(harness::dtype_name(type))).add("n", static_cast<long long>(n))
          .add("bins", static_cast<long long>(o.bins)).add("block", static_cast<long long>(a.block))
          .add("median_ms", t.median_ms).add("min_ms", t.min_ms).add("iters", static_cast<long long>(t.iters))
          .add("gbps", gbps).add("pct_peak", 100.0 * gbps * 1e9 / dev.peak_bw_bytes_per_s)
          .add("verified", v.ok).add("is_cub", s.name == "cub::DeviceHistogram");
      records.push_back(std::move(r));
    }
    // The ceiling: the same bytes, read once.
    const harness::TimingStats t = harness::time_on_gpu(
        [&](cudaStream_t st) { harness::streaming_read(d_in.data(), bytes, d_sink.as<unsigned>(), 0x9E3779B9u, st); },
        timing, stream.get(), dev.l2_bytes);
    const double gbps = static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
    char cell[32];
    std::snprintf(cell, sizeof cell, "%.0f", gbps);
    row.push_back(cell);
    harness::Record r;
    r.add("hot_share", shares[k]).add("stage", std::string("read ceiling")).add("label", std::string("streaming read"))
        .add("type", std::string(harness::dtype_name(type))).add("n", static_cast<long long>(n))
        .add("bins", static_cast<long long>(o.bins)).add("block", 256LL)
        .add("median_ms", t.median_ms).add("min_ms", t.min_ms).add("iters", static_cast<long long>(t.iters))
        .add("gbps", gbps).add("pct_peak", 100.0 * gbps * 1e9 / dev.peak_bw_bytes_per_s)
        .add("verified", true).add("is_cub", false);
    records.push_back(std::move(r));
    table.push_back(row);
    std::printf("share %s done\n", share_names[k].c_str());
  }

  std::printf("\nGB/s (samples read, 1e9 bytes/s), median of up to %d runs, L2 flushed:\n\n%s\n", o.iters,
              harness::markdown_table(header, table).c_str());
  if (!o.csv.empty()) {
    std::ofstream f(o.csv);
    harness::write_csv(f, records);
    std::printf("wrote %s\n", o.csv.c_str());
  }
  std::printf("checks: %s\n", all_ok ? "every run passed" : "FAILED (see above)");
  return all_ok ? 0 : harness::kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Histogram stages and CUB against the share of samples in one hot bin"};
  app.add_option("--n", o.n_text, "samples (e.g. 2^28)")->capture_default_str();
  app.add_option("--shares", o.shares_text, "hot shares, comma-separated (0.5 or 1/256)")->capture_default_str();
  app.add_option("--type", o.type_text, "sample type: uint8, int or float")->capture_default_str();
  app.add_option("--stages", o.stages_text, "stages to run, comma-separated names (default: all)");
  app.add_option("--block", o.block, "threads per block (stages 5-6 take at most 256)")->capture_default_str();
  app.add_option("--bins", o.bins, "number of bins")->capture_default_str();
  app.add_option("--lower", o.lower, "lowest counted value")->capture_default_str();
  app.add_option("--upper", o.upper, "first value past the range")->capture_default_str();
  app.add_option("--seed", o.seed, "input seed")->capture_default_str();
  app.add_option("--iters", o.iters, "timed runs per stage and share")->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed runs first")->capture_default_str();
  app.add_option("--max-seconds", o.max_seconds, "cap on each stage's timed runs, seconds")->capture_default_str();
  app.add_option("--csv", o.csv, "write one row per (share, stage) here");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : harness::kExitUsage;
  }
  try {
    return run(o);
  } catch (const harness::UsageError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return harness::kExitUsage;
  } catch (const harness::NoGpuError& e) {
    std::fprintf(stderr, "no GPU: %s\n", e.what());
    return harness::kExitNoGpu;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return harness::kExitFailure;
  }
}
