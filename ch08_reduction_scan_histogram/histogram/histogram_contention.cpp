// The program histogram_contention: how each histogram stage and CUB slow down as more samples
// fall in one bin. For each hot share p (the share of samples in the hottest bin, the rest uniform
// over the other bins; p = 1/bins is uniform data, p = 1 is one-bin data) it generates the input
// (--dist hot), then checks and times every stage, CUB and the streaming-read ceiling on it with the
// harness (poisoned output, every bin compared with the CPU's, CUDA events after warm-up, median,
// L2 flushed), and prints GB/s per stage and share. --csv writes one row per (share, stage);
// scripts/maintainers/plot_contention.py draws it. Each stage runs at its own default block unless --block is
// given; a stage this GPU cannot run at these settings (its shared memory, its architecture) is
// skipped with one line saying why, and the others run.
//
//   histogram_contention --n 2^28 --shares 1/256,0.1,0.5,0.9,1 --csv contention.csv
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "ch08_histogram_stages.hpp"
#include "cli.hpp"
#include "cub_histogram.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "histogram_reference.hpp"
#include "measure.hpp"
#include "program.hpp"
#include "run_stage.hpp"

namespace {

// "1/256" or "0.25" as a share in [0, 1].
double parse_share(const std::string& text) {
  const std::string what = "--shares";
  const auto slash = text.find('/');
  const double value = slash == std::string::npos
                           ? harness::parse_decimal(text, what)
                           : harness::parse_decimal(text.substr(0, slash), what) /
                                 harness::parse_decimal(text.substr(slash + 1), what);
  if (!(value >= 0 && value <= 1)) throw harness::UsageError("--shares: '" + text + "' is not in [0, 1]");
  return value;
}

// What the command line asked for.
struct Contention {
  harness::RunOptions o;
  harness::Histogram::Config config;
  std::string shares_text = "1/256,1/64,1/16,0.1,0.25,0.5,0.75,0.9,0.99,1";
  std::string stages_text;
  bool block_given = false;

  // --block (or the nearest block size the stage accepts), else the stage's own default block on
  // this GPU (256, or less where the stage's shared memory at 256 does not fit it).
  int block_of(const harness::Stage<harness::Histogram>& s) const {
    if (block_given) return std::clamp(o.block, s.min_block, s.max_block);
    harness::HistogramArgs a;
    a.type = harness::parse_dtype(o.type);
    harness::Histogram::apply(config, a);
    return harness::default_block_of(s, a, harness::current_device_limits());
  }
};

// The program's flags, bound to `c`.
void add_flags(CLI::App& app, Contention& c) {
  harness::RunOptions& o = c.o;
  app.add_option("--n", o.n_text, "Samples (e.g. 2^28; at least 1)")->capture_default_str();
  app.add_option("--shares", c.shares_text, "Hot shares, comma-separated (0.5 or 1/256)")->capture_default_str();
  app.add_option("--type", o.type, "Sample type: uint8, int or float")
      ->check(CLI::IsMember({"uint8", "int", "float"}))
      ->capture_default_str();
  app.add_option("--stages", c.stages_text, "Stages to run, comma-separated names (default: all)");
  app.add_option("--block", o.block,
                 "Threads per block (each stage runs at the nearest it accepts; default: each stage's own "
                 "default block on this GPU)")
      ->check(CLI::IsMember({32, 64, 128, 256, 512, 1024}));
  app.add_option("--bins", c.config.bins, "Number of bins")->check(CLI::Range(1, 1 << 20))->capture_default_str();
  app.add_option("--lower", c.config.lower, "Lowest counted value")->capture_default_str();
  app.add_option("--upper", c.config.upper, "First value past the range")->capture_default_str();
  app.add_option("--seed", o.seed, "Input seed")->capture_default_str();
  app.add_option("--iters", o.iters, "Timed runs per stage and share")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed runs first")->check(CLI::Range(0, 10000))->capture_default_str();
  app.add_option("--max-seconds", o.max_seconds, "Cap on each stage's timed runs, seconds (0: none)")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  app.add_option("--csv", o.csv, "Write one row per (share, stage) here");
}

// The stages --stages names (all where it is empty) that take these bins, then CUB; refuses an
// unknown name, no stage, n = 0, a bin range the type cannot hold, an input the host cannot hold
// and an unwritable --csv.
std::vector<harness::Stage<harness::Histogram>> pick_stages(const Contention& c, harness::DType type) {
  using namespace harness;
  const std::vector<std::string> wanted = harness::split_list(c.stages_text, "--stages");
  std::vector<Stage<Histogram>> all = ch08::all_histogram_stages(), stages;
  for (const std::string& w : wanted)
    if (std::none_of(all.begin(), all.end(), [&](const Stage<Histogram>& s) { return s.name == w; }))
      throw UsageError("--stages: unknown stage '" + w + "'");
  for (auto& s : all)
    if (s.caps.max_bins >= c.config.bins && (wanted.empty() || std::count(wanted.begin(), wanted.end(), s.name)))
      stages.push_back(std::move(s));
  if (stages.empty())
    throw UsageError("--stages: no stage matches '" + c.stages_text + "' at " + std::to_string(c.config.bins) + " bins");
  if (c.o.n == 0) throw UsageError("--n must be at least 1");
  validate_bin_range(type, c.config.bins, c.config.lower, c.config.upper);
  // The input of one share at a time, on the host while it is made, then on the device.
  const std::size_t input_bytes = checked_bytes(c.o.n, dtype_size(type), "--n " + c.o.n_text + " (" + c.o.type + ")");
  ensure_host_memory(input_bytes, "the input, " + std::to_string(c.o.n) + " " + dtype_name(type) + " samples,");
  stages.push_back(cub_histogram_stage());
  if (!c.o.csv.empty()) check_writable(c.o.csv);
  return stages;
}

// `stages` less those this GPU cannot run at these settings, each with one line on stderr, before
// any input is made.
std::vector<harness::Stage<harness::Histogram>> drop_unfit(const Contention& c, harness::DType type,
                                                          std::vector<harness::Stage<harness::Histogram>> stages) {
  using namespace harness;
  const DeviceLimits& limits = current_device_limits();
  std::vector<Stage<Histogram>> kept;
  for (auto& s : stages) {
    HistogramArgs probe;
    probe.type = type;
    probe.n = c.o.n;
    probe.block = c.block_of(s);
    Histogram::apply(c.config, probe);
    try {
      check_device_fit(s, probe, limits);
      kept.push_back(std::move(s));
    } catch (const UnsupportedError& e) {
      std::fprintf(stderr, "  %s\n", skip_note(e.what()).c_str());
    }
  }
  return kept;
}

// What the table's rows and the CSV hold for one share.
struct ShareResult {
  std::vector<std::string> row;         // GB/s per stage, then the read ceiling's
  std::vector<harness::Record> records;  // one per stage, then the read ceiling's
  bool ok = true;                        // every stage passed
};

// Every stage and the streaming-read ceiling on the input of hot share `share`.
ShareResult time_share(const Contention& c, harness::DType type, const std::vector<harness::Stage<harness::Histogram>>& stages,
                       double share, const std::string& name, const harness::TimingOptions& timing,
                       const harness::DeviceInfo& dev, cudaStream_t stream) {
  using namespace harness;
  Histogram::Config hc = c.config;
  hc.hot_share = share;
  Session<Histogram> session = Session<Histogram>::generate(type, hc, c.o.n, "hot", c.o.seed, stream);
  ShareResult res;
  res.row.push_back(name);
  for (const auto& s : stages) {
    const Measurement m = measure_stage<Histogram>(s, nullptr, session, c.block_of(s), 0, timing, dev);
    res.ok = res.ok && m.ok();
    char cell[64];
    std::snprintf(cell, sizeof cell, "%.0f%s", m.gb_per_s, m.ok() ? "" : " FAIL");
    res.row.push_back(cell);
    if (!m.ok()) std::fprintf(stderr, "%s at share %s: %s\n", s.name.c_str(), name.c_str(), m.verdict.message.c_str());
    Record cols;
    Histogram::add_columns(hc, cols);
    Record r = measurement_record(m, cols);
    r.add("hot_share", share).add("label", s.label).add("is_cub", s.name == "cub::DeviceHistogram");
    res.records.push_back(std::move(r));
  }
  const CeilingResult roof = time_ceiling(Ceiling::read, session.input(), session.input_bytes(), timing, stream, dev);
  const double gbps = gigabytes_per_second(roof.bytes, roof.ms);
  char cell[32];
  std::snprintf(cell, sizeof cell, "%.0f", gbps);
  res.row.push_back(cell);
  Record r;
  r.add("stage", std::string("read ceiling")).add("n", static_cast<long long>(c.o.n))
      .add("dtype", std::string(dtype_name(type))).add("ms_median", roof.ms).add("gb_per_s", gbps)
      .add("verified", true).add("hot_share", share).add("label", std::string("streaming read")).add("is_cub", false);
  res.records.push_back(std::move(r));
  return res;
}

// The run after parsing: the shares, the stages, the device, one input per share, the table, the CSV.
int run(const Contention& c) {
  using namespace harness;
  const DType type = parse_dtype(c.o.type);
  std::vector<double> shares;
  const std::vector<std::string> share_names = harness::split_list(c.shares_text, "--shares");
  if (share_names.empty()) throw UsageError("--shares: no share given");
  for (const auto& s : share_names) shares.push_back(parse_share(s));
  std::vector<Stage<Histogram>> stages = pick_stages(c, type);
  const DeviceInfo dev = query_device();
  stages = drop_unfit(c, type, std::move(stages));
  std::string blocks = c.block_given ? "block " + std::to_string(c.o.block) + " (or the nearest a stage accepts)"
                                     : "each stage at its default block";
  if (!c.block_given)
    for (const auto& s : stages)
      if (c.block_of(s) != 256) blocks += ", " + s.name + " " + std::to_string(c.block_of(s));
  std::printf("%s\nhistogram contention: n = %zu %s samples, %s, %s\n", dev.summary().c_str(), c.o.n,
              dtype_name(type), Histogram::describe(c.config).c_str(), blocks.c_str());
  TimingOptions timing;
  timing.iters = c.o.iters;
  timing.warmup = c.o.warmup;
  timing.max_seconds = c.o.max_seconds;
  Stream stream;
  std::vector<Record> records;
  std::vector<std::string> header{"hot share"};
  for (const auto& s : stages) header.push_back(s.name);
  header.push_back("read ceiling");
  std::vector<std::vector<std::string>> table;
  bool all_ok = true;
  for (std::size_t k = 0; k < shares.size(); ++k) {
    ShareResult res = time_share(c, type, stages, shares[k], share_names[k], timing, dev, stream.get());
    all_ok = all_ok && res.ok;
    for (Record& r : res.records) records.push_back(std::move(r));
    table.push_back(res.row);
    std::printf("share %s done\n", share_names[k].c_str());
  }
  std::printf("\nGB/s (samples read, 1e9 bytes/s), median of up to %d runs, L2 flushed; every run checked bin by bin:\n\n%s\n",
              c.o.iters, markdown_table(header, table).c_str());
  if (!c.o.csv.empty()) {
    std::ostringstream os;
    write_csv(os, records);
    write_text_file(c.o.csv, os.str());
  }
  std::printf("checks: %s\n", all_ok ? "every run passed" : "FAILED (see above)");
  return all_ok ? 0 : kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Every histogram stage and CUB against the share of samples in the hottest bin",
               "histogram_contention"};
  Contention c;
  c.o.n_text = "2^28";
  c.o.iters = 20;
  c.o.warmup = 3;
  c.o.max_seconds = 2;
  c.o.type = "uint8";
  add_flags(app, c);
  if (auto rc = harness::parse_command_line(app, c.o, argc, argv)) return *rc;
  c.block_given = app.count("--block") > 0;
  return harness::run_program("histogram_contention", [&]() -> int { return run(c); });
}
