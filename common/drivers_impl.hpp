//! @file drivers_impl.hpp
//! @brief The bodies of stage_main and ladder_main. Included only by the .cpp file of each problem
//! (common/reduce/reduce_problem.cpp, common/scan/scan_problem.cpp, common/histogram/histogram_problem.cpp), which instantiates them once for that problem.
#pragma once
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <variant>
#include <vector>

#include "ceilings.hpp"
#include "cli.hpp"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "device_limits.hpp"
#include "drivers.hpp"
#include "errors.hpp"
#include "measure.hpp"
#include "program.hpp"
#include "report.hpp"
#include "roofline.hpp"

namespace harness {

namespace detail {

//! The flags of a program running `stages`: the common ones, limited to what the stages accept,
//! and the problem's own (P::add_flags).
template <class P>
void add_problem_flags(CLI::App& app, RunOptions& o, typename P::Config& config,
                       const std::vector<const Stage<P>*>& stages, bool ladder) {
  OptionSet which;
  // --help shows the block a stage program runs at by default (a ladder: each stage's own).
  if (!ladder && !stages.empty()) o.block = default_block_of(*stages.front());
  which.profile = !ladder;
  which.md = ladder;
  which.min_block = 1024;
  which.max_block = 32;
  which.types.clear();
  for (const Stage<P>* s : stages) {
    which.grid = which.grid || (s->grid_stride && !ladder);  // a ladder runs each stage at its own grid
    which.min_block = std::min(which.min_block, s->min_block);
    which.max_block = std::max(which.max_block, s->max_block);
    for (DType t : s->types)
      if (std::find(which.types.begin(), which.types.end(), dtype_name(t)) == which.types.end())
        which.types.push_back(dtype_name(t));
  }
  if (!ladder && stages.size() == 1) which.types_instead = stages.front()->instead;
  which.dists = P::dist_names();
  which.dist_help = P::dist_help();
  add_run_options(app, o, which);
  P::add_flags(app, config, stages);
}

//! Throws std::logic_error unless `program` has one form for every combination of its flags'
//! values: each form gives a value of every flag, and no two forms give the same values.
template <class P>
void check_forms(const StageProgram<P>& program) {
  std::size_t combinations = 1;
  for (const VariantFlag& f : program.flags) combinations *= f.names.size();
  const std::string& name = program.stage().name;
  if (program.forms.size() != combinations)
    throw std::logic_error(name + ": " + std::to_string(program.forms.size()) + " forms for " +
                           std::to_string(combinations) + " combinations of the variant flags");
  for (std::size_t i = 0; i < program.forms.size(); ++i) {
    const std::vector<std::string>& v = program.forms[i].values;
    bool valid = v.size() == program.flags.size();
    for (std::size_t k = 0; valid && k < v.size(); ++k) valid = std::count(program.flags[k].names.begin(), program.flags[k].names.end(), v[k]) == 1;
    for (std::size_t j = 0; valid && j < i; ++j) valid = program.forms[j].values != v;
    if (!valid) throw std::logic_error(name + ": form " + std::to_string(i) + " names no new combination of the variant flags");
  }
}

//! Adds each of `flags` that has a choice (two values or more) to `app`, bound to its entry of
//! `chosen`, which starts at every flag's default (its first value).
inline void add_form_flags(CLI::App& app, const std::vector<VariantFlag>& flags, std::vector<std::string>& chosen) {
  chosen.clear();
  for (const VariantFlag& f : flags) chosen.push_back(f.names.front());
  for (std::size_t k = 0; k < flags.size(); ++k)
    if (flags[k].names.size() > 1)
      app.add_option(flags[k].flag, chosen[k], flags[k].help)->check(CLI::IsMember(flags[k].names))->capture_default_str();
}

//! The stage of the form whose values are `chosen` (check_forms has made sure there is one).
template <class P>
const Stage<P>& form_chosen(const StageProgram<P>& program, const std::vector<std::string>& chosen) {
  for (const StageForm<P>& f : program.forms)
    if (f.values == chosen) return f.stage;
  throw std::logic_error(program.stage().name + ": no form for these flags");
}

//! Timing options from the command line.
inline TimingOptions timing_from(const RunOptions& o) {
  TimingOptions t;
  t.warmup = o.warmup;
  t.iters = o.iters;
  t.flush_l2 = !o.no_flush;
  t.max_seconds = o.max_seconds;
  return t;
}

//! Arguments of a launch described without buffers, for the checks before anything is allocated.
template <class P>
typename P::Args probe_args(DType type, const typename P::Config& config, const RunOptions& o) {
  typename P::Args a;
  a.type = type;
  a.n = o.n;
  a.block = o.block;
  a.grid = o.grid;
  P::apply(config, a);
  return a;
}

//! The inputs a run of the stage program or ladder holds: the exact and the timed input, or one
//! where the timed input's own check is exact.
template <class P>
bool two_inputs(DType type, const typename P::Config& config, const RunOptions& o) {
  return !(P::is_exact_dist(o.dist) || P::exact_on_any_data(type, config));
}

//! Refuses, before the device is queried, an n whose bytes overflow or whose inputs (and, for a
//! scan, the output read back for the check) do not fit in the host memory this machine has
//! (host_memory_available: TUTORIAL_DEVICE_LIMITS host=... lowers it). Returns the bytes the inputs
//! take on the device.
//! @throws UsageError for an overflow, UnsupportedError for host memory
template <class P>
std::size_t check_host_memory_for(DType type, const typename P::Config& config, const RunOptions& o) {
  const std::string n_flag = "--n " + o.n_text + " (" + dtype_name(type) + ")";
  const std::size_t input = checked_bytes(o.n, dtype_size(type), n_flag);
  const bool two = two_inputs<P>(type, config, o);
  const std::size_t read_back = P::output_count(probe_args<P>(type, config, o)) * dtype_size(type);  // <= input
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  if (input > (max - read_back) / (two ? 2 : 1))
    throw UsageError(n_flag + ": " + (two ? "two inputs" : "the input") +
                     " and the output are more bytes than a 64-bit size can count");
  const std::size_t inputs = input * (two ? 2 : 1);
  ensure_host_memory(inputs + read_back, std::string(two ? "the exact and the timed input, " : "the input, ") +
                                             std::to_string(o.n) + " " + dtype_name(type) +
                                             " each, and the output read back,");
  return inputs;
}

//! A session on exact data for the verdict, unless the timed input's own check is already exact.
template <class P>
std::optional<Session<P>> exact_session(DType type, const typename P::Config& config,
                                        const RunOptions& o, cudaStream_t stream) {
  if (!two_inputs<P>(type, config, o)) return std::nullopt;
  return Session<P>::generate(type, config, o.n, P::exact_dist(), o.seed, stream);
}

//! "PASS"/"FAIL"/"not checked" and the message of one check.
inline std::string check_line(const Verification& v) {
  const char* verdict = v.kind == CheckKind::unchecked ? "not checked" : (v.ok ? "PASS" : "FAIL");
  return std::string(verdict) + " [" + check_name(v.kind) + "] " + v.message;
}

//! The stage number in a stage's name ("reduce_kernel_6" -> "6", "reduce_kernel_9a" -> "9a": a
//! letter marks a step inside a stage), or "-".
inline std::string stage_number(const std::string& name) {
  std::smatch m;
  static const std::regex trailing("_([0-9]+[a-z]?)$");
  return std::regex_search(name, m, trailing) ? m[1].str() : "-";
}

//! `v` with `digits` digits after the point.
inline std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

//! The command line as one string, for the report.
inline std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

//! Writes `records` to the --csv and --json files that were asked for.
inline void write_records(const RunOptions& o, const std::vector<Record>& records) {
  if (!o.csv.empty()) {
    std::ostringstream os;
    write_csv(os, records);
    write_text_file(o.csv, os.str());
  }
  if (!o.json.empty()) write_text_file(o.json, to_json(records));
}


//! Today's date (UTC) as YYYY-MM-DD, for a report's command line.
inline std::string today() {
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  return date;
}

//! Empties the block and grid columns of the records of `stage` (a library baseline chooses its own).
inline void clear_grid_and_block(std::vector<Record>& records, const std::string& stage) {
  for (Record& r : records)
    if (r.find("stage") && std::get<std::string>(*r.find("stage")) == stage)
      for (auto& f : r.fields)
        if (f.first == "block" || f.first == "grid") f.second = std::string();
}

//! A ceiling's record with the columns of measurement_record (the checks' columns empty).
inline Record ceiling_record(Ceiling c, const CeilingResult& roof, std::size_t n, DType type, const Record& cfg,
                             const DeviceInfo& dev) {
  const double gbs = gigabytes_per_second(roof.bytes, roof.ms);
  Record r;
  r.add("stage", std::string(ceiling_name(c))).add("n", static_cast<long long>(n))
      .add("dtype", std::string(dtype_name(type)));
  for (const auto& f : cfg.fields) r.add(f.first, f.second);
  r.add("block", std::string()).add("grid", std::string()).add("iters", static_cast<long long>(roof.iters))
      .add("ms_median", roof.ms).add("ms_min", roof.min_ms).add("gb_per_s", gbs)
      .add("pct_peak_bw", 100.0 * gbs * 1e9 / dev.peak_bw_bytes_per_s).add("gop_per_s", 0.0)
      .add("verified", std::string()).add("check", std::string()).add("timed_check", std::string())
      .add("abs_err", std::string()).add("err_bound", std::string());
  return r;
}

//! "2^k" for a power of two, else the number: a size in a column header.
inline std::string size_label(std::size_t n) {
  if (n > 0 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((std::size_t{1} << k) < n) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(n);
}

//! The small-input form of a ladder (--sizes, --small): every stage, the baseline and the
//! bandwidth ceilings at each size, each checked (as the ladder checks them), timed with `t` (many
//! runs per sample) and counted (the launches one run enqueues, from a CUDA graph of it); two tables
//! over the sizes: microseconds per run with launches per run, and CUB's time / the stage's time.
//! @tparam BlockOf callable(const Stage<P>&) -> int, the block each stage runs at
template <class P, class BlockOf>
int size_ladder(const LadderSpec<P>& spec, RunOptions o, const typename P::Config& config, DType type,
                const std::vector<const Stage<P>*>& stages, BlockOf block_of, const DeviceInfo& dev,
                const std::vector<std::string>& skipped, const std::vector<std::size_t>& sizes,
                const TimingOptions& t, int argc, char** argv) {
  Stream stream;
  const Stage<P> base = P::baseline(type, config, stages);
  // One row per stage: a stage in two of the ladder's tables (stage 11 closes both of chapter 7's)
  // is timed once here.
  std::vector<const Stage<P>*> rows;
  for (const Stage<P>* s : stages)
    if (std::none_of(rows.begin(), rows.end(), [&](const Stage<P>* r) { return r->name == s->name; })) rows.push_back(s);
  rows.push_back(&base);
  const std::vector<Ceiling> ceilings = P::ceilings();
  struct Cell {
    double us = 0;      // median microseconds per run
    int launches = 0;   // what one run enqueues
    bool ok = true;     // both checks passed (ceilings: always)
  };
  std::vector<std::vector<Cell>> cells(rows.size() + ceilings.size(), std::vector<Cell>(sizes.size()));
  std::vector<Record> records;
  Record cfg;
  P::add_columns(config, cfg);
  bool all_ok = true;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    o.n = sizes[k];
    std::fprintf(stderr, "[%s] %s, n = %zu %s\n", spec.program.c_str(), dev.name.c_str(), o.n, dtype_name(type));
    std::optional<Session<P>> exact = exact_session<P>(type, config, o, stream.get());
    Session<P> timed = Session<P>::generate(type, config, o.n, o.dist, o.seed, stream.get());
    std::vector<Measurement> ms;
    for (const Stage<P>* s : rows) {
      const bool is_base = s == &base;
      const int block = is_base ? 256 : block_of(*s);
      std::fprintf(stderr, "  timing %s\n", s->name.c_str());
      Measurement m = measure_stage(*s, exact ? &*exact : nullptr, timed, block, 0, t, dev, is_base);
      const typename P::Args args = timed.args_for(*s, block, 0);
      const LaunchCount lc = count_launches([&](cudaStream_t) { run_stage(*s, args); }, timed.stream());
      ms.push_back(m);
      cells[ms.size() - 1][k] = {m.time.median_ms * 1e3, lc.launches(), m.ok()};
      all_ok = all_ok && m.ok();
      Record r = measurement_record(m, cfg);
      r.add("launches", static_cast<long long>(lc.launches())).add("kernels", static_cast<long long>(lc.kernels))
          .add("memsets", static_cast<long long>(lc.memsets)).add("copies", static_cast<long long>(lc.copies));
      records.push_back(std::move(r));
    }
    const double cub_ms = ms.back().time.median_ms;
    for (std::size_t i = 0; i < ceilings.size(); ++i) {
      std::fprintf(stderr, "  timing %s\n", ceiling_name(ceilings[i]));
      const CeilingResult roof = time_ceiling(ceilings[i], timed.input(), timed.input_bytes(), t, stream.get(), dev);
      cells[rows.size() + i][k] = {roof.ms * 1e3, roof.launches, true};
      Record r = ceiling_record(ceilings[i], roof, o.n, type, cfg, dev);
      r.add("launches", static_cast<long long>(roof.launches)).add("kernels", std::string())
          .add("memsets", std::string()).add("copies", std::string());
      records.push_back(std::move(r));
    }
    // Columns every row of this size shares: the timing, the ratio to CUB, the device.
    for (std::size_t i = records.size() - rows.size() - ceilings.size(); i < records.size(); ++i) {
      Record& r = records[i];
      const double row_ms = std::get<double>(*r.find("ms_median"));
      r.add("runs_per_sample", static_cast<long long>(std::max(1, t.runs_per_sample)))
          .add("timing", std::string(t.graph ? "graph" : (t.runs_per_sample > 1 ? "stream" : "single")))
          .add("us_median", row_ms * 1e3).add("vs_cub", row_ms > 0 ? cub_ms / row_ms : 0.0).add("dist", o.dist)
          .add("device", dev.name);
    }
  }
  clear_grid_and_block(records, base.name);

  std::vector<std::string> header{"#", "stage"};
  for (std::size_t n : sizes) header.push_back(size_label(n));
  std::vector<std::vector<std::string>> us_table, ratio_table;
  const std::size_t cub_row = rows.size() - 1;
  for (std::size_t r = 0; r < cells.size(); ++r) {
    const bool ceiling = r >= rows.size();
    const std::string name = ceiling ? ceiling_name(ceilings[r - rows.size()]) : "`" + rows[r]->name + "`";
    std::vector<std::string> us_row{ceiling || r == cub_row ? "-" : stage_number(rows[r]->name), name};
    std::vector<std::string> ratio_row = us_row;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      const Cell& c = cells[r][k];
      us_row.push_back(fixed(c.us, 2) + " (" + std::to_string(c.launches) + ")" + (c.ok ? "" : " **FAIL**"));
      ratio_row.push_back(c.us > 0 ? fixed(cells[cub_row][k].us / c.us, 2) : "");
    }
    us_table.push_back(std::move(us_row));
    ratio_table.push_back(std::move(ratio_row));
  }
  std::ostringstream md;
  const std::string date = today();
  md << "## " << spec.title << ": small inputs\n\n"
     << "- device: " << dev.summary() << "\n"
     << "- input: " << dtype_name(type) << ", " << P::describe(config) << ", dist " << o.dist << ", seed " << o.seed
     << ", at each size in the columns\n"
     << "- checks: every cell is checked on exact data (" << P::exact_dist_help()
     << ") and on the timed input, as the ladder checks them; a cell that failed says **FAIL**\n"
     << "- timing: " << timing_method(t) << "; median of up to " << t.iters << " samples after " << t.warmup
     << " warm-up\n"
     << "- launches: in brackets, what one run enqueues on the GPU (kernels, memsets and copies), counted from a "
        "CUDA graph of one run (cudaGraphGetNodes)\n"
     << "- command: `" << command_line(argc, argv) << "` (" << date << ")\n";
  for (const std::string& why : skipped) md << "- " << why << "\n";
  md << "\n### Microseconds per run (launches per run)\n\n" << markdown_table(header, us_table)
     << "\n### CUB's time / the row's time (above 1: faster than CUB)\n\n" << markdown_table(header, ratio_table)
     << "\n" << P::ceilings_help() << "\n";
  std::cout << md.str();
  if (!o.md.empty()) write_text_file(o.md, md.str());
  write_records(o, records);
  return all_ok ? 0 : kExitFailure;
}

}  // namespace detail

template <class P>
int stage_main(int argc, char** argv, const StageProgram<P>& program) {
  detail::check_forms(program);
  const Stage<P>& first = program.stage();
  CLI::App app{first.name + ": " + first.label + ". " + first.change + " (" + first.source + ")",
               first.name};
  RunOptions o;
  typename P::Config config;
  std::vector<const Stage<P>*> all;
  for (const StageForm<P>& f : program.forms) all.push_back(&f.stage);
  detail::add_problem_flags<P>(app, o, config, all, /*ladder=*/false);
  std::vector<std::string> chosen;  // each flag's value, its default until parsed
  detail::add_form_flags(app, program.flags, chosen);
  if (auto rc = parse_command_line(app, o, argc, argv)) return *rc;
  const Stage<P>& stage = detail::form_chosen(program, chosen);

  return run_program(stage.name, [&]() -> int {
    const DType type = parse_dtype(o.type);
    // Without --block: the stage's default block, lowered where this GPU's shared memory per block
    // cannot hold it (the limits need the GPU: without one, the static default, and the program
    // stops at query_device below with the no-GPU message).
    if (!o.block_given) {
      o.block = default_block_of(stage);
      if (gpu_available()) o.block = default_block_of(stage, detail::probe_args<P>(type, config, o), current_device_limits());
    }
    const std::size_t input_bytes = detail::check_host_memory_for<P>(type, config, o);
    const typename P::Args probe = detail::probe_args<P>(type, config, o);
    validate_config(stage, probe);
    for (const std::string* path : {&o.csv, &o.json})
      if (!path->empty()) check_writable(*path);

    const DeviceInfo dev = query_device();
    // What this GPU cannot run is refused here, before any allocation: the stage's architecture,
    // shared memory and other device rules, then the memory the inputs need.
    check_device_fit(stage, probe, current_device_limits());
    validate_shape(stage, probe);  // the grid limit (occupancy needs the device), before any input
    ensure_device_memory(input_bytes, std::string(detail::two_inputs<P>(type, config, o) ? "the exact and the timed input, "
                                                                                           : "the input, ") +
                                          std::to_string(o.n) + " " + dtype_name(type) + " each,");
    Stream stream;
    std::optional<Session<P>> exact = detail::exact_session<P>(type, config, o, stream.get());
    Session<P> timed = Session<P>::generate(type, config, o.n, o.dist, o.seed, stream.get());

    Measurement m;
    if (o.profile) {
      const typename P::Args args = timed.args_for(stage, o.block, o.grid);
      m.stage = stage.name;
      m.label = stage.label;
      m.n = o.n;
      m.type = type;
      m.block = o.block;
      m.grid = grid_of(stage, args);
      m.verdict = exact ? exact->run_and_check(stage, exact->args_for(stage, o.block, o.grid))
                        : timed.run_and_check(stage, args);  // the warm-up
      timed.poison_for(stage);
      CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      CUDA_CHECK(cudaProfilerStart());
      nvtxRangePushA(stage.name.c_str());
      run_stage(stage, args);
      CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      nvtxRangePop();
      CUDA_CHECK(cudaProfilerStop());
      m.timed = timed.check_output(stage, args);
    } else {
      m = measure_stage(stage, exact ? &*exact : nullptr, timed, o.block, o.grid,
                        detail::timing_from(o), dev);
    }

    std::printf("%s: %s\n", stage.name.c_str(), stage.label.c_str());
    std::printf("  changed:    %s\n", stage.change.c_str());
    std::printf("  device:     %s\n", dev.summary().c_str());
    std::printf("  config:     n = %zu %s (%.1f MiB), %s, block %d, grid %zu, dist %s, seed %llu\n",
                m.n, dtype_name(type), m.n * static_cast<double>(dtype_size(type)) / 1048576.0,
                P::describe(config).c_str(), m.block, m.grid, o.dist.c_str(),
                static_cast<unsigned long long>(o.seed));
    if (o.profile) {
      std::printf("  profile:    one launch inside a profiler range (no timing)\n");
    } else {
      const typename P::Args args = timed.args_for(stage, o.block, o.grid);
      const Roofline roof{dev.peak_fp32_flops_per_s, dev.peak_bw_bytes_per_s};
      const double ai = m.bytes > 0 ? P::operations(args) / m.bytes : 0;
      std::printf("  timing:     %d runs after %d warm-up, L2 %s between runs\n", m.time.iters,
                  o.warmup, o.no_flush ? "kept warm" : "flushed");
      std::printf("  time:       median %.4f ms, min %.4f ms\n", m.time.median_ms, m.time.min_ms);
      std::printf("  throughput: %.1f GB/s (%.1f%% of peak %.0f GB/s; %s), %.1f G%s/s\n", m.gb_per_s,
                  m.pct_peak_bw, dev.peak_bw_bytes_per_s / 1e9, P::bytes_help(), m.gop_per_s,
                  P::operation_name());
      std::printf("  roofline:   %.3f op/byte, ridge %.2f FLOP/byte, ceiling %.1f Gop/s\n", ai,
                  roof.ridge_point(), roof.ceiling(ai) / 1e9);
    }
    if (exact)
      std::printf("  check:      exact data (%s): %s\n", P::exact_dist_help(), detail::check_line(m.verdict).c_str());
    std::printf("  %s %s data: %s\n", exact ? "error:     " : "check:     ", o.dist.c_str(),
                detail::check_line(m.timed).c_str());
    std::printf("  verify:     %s (decided by the %s check)\n", m.ok() ? "PASS" : "FAIL",
                check_name(m.decided_by()));

    Record cfg;
    P::add_columns(config, cfg);
    Record r = measurement_record(m, cfg);
    r.add("dist", o.dist).add("device", dev.name).add("peak_bw_gb_per_s", dev.peak_bw_bytes_per_s / 1e9);
    detail::write_records(o, {r});
    return m.ok() ? 0 : kExitFailure;
  });
}

template <class P>
int ladder_main(int argc, char** argv, const LadderSpec<P>& spec) {
  CLI::App app{spec.title, spec.program};
  app.footer(P::ceilings_help());  // which bandwidth ceilings close the tables, and why
  RunOptions o;
  o.max_seconds = 10;
  typename P::Config config;
  // One table of `stages`, or the spec's tables.
  const std::vector<LadderTable<P>> tables =
      spec.tables.empty() ? std::vector<LadderTable<P>>{{"", "", "", spec.stages}} : spec.tables;
  std::vector<const Stage<P>*> all;
  for (const LadderTable<P>& t : tables)
    for (const Stage<P>& s : t.stages) all.push_back(&s);
  detail::add_problem_flags<P>(app, o, config, all, /*ladder=*/true);
  std::string only;
  app.add_option("--stages", only, "Run only these stages (comma-separated names)");
  // The small-input form: a table over sizes instead of one --n.
  std::string sizes_text;
  bool small = false;
  int runs_per_sample = 100;
  std::string sample_timing = "graph";
  app.add_option("--sizes", sizes_text,
                 "Instead of one --n, a table over these sizes of microseconds and launches per run (comma-separated; "
                 "A..B: A, 2A, 4A, ... up to B), e.g. 2^10..2^22");
  app.add_flag("--small", small, "The small-input table at 2^10, 2^12, ..., 2^22 (--sizes), where latency, not bandwidth, decides");
  app.add_option("--runs-per-sample", runs_per_sample,
                 "With --sizes or --small: runs timed together in one sample (its time divided by this)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--sample-timing", sample_timing,
                 "With --sizes or --small: graph (the runs of a sample captured once into a CUDA graph and replayed) or "
                 "stream (enqueued back to back)")
      ->check(CLI::IsMember({"graph", "stream"}))
      ->capture_default_str();
  if (auto rc = parse_command_line(app, o, argc, argv)) return *rc;
  std::vector<std::size_t> sizes;
  try {
    if (small && !sizes_text.empty()) throw UsageError("give --small or --sizes, not both");
    if ((small || !sizes_text.empty()) && app.count("--n")) throw UsageError("give --n or --sizes / --small, not both");
    if (!small && sizes_text.empty() && (app.count("--runs-per-sample") || app.count("--sample-timing")))
      throw UsageError("--runs-per-sample and --sample-timing belong to the small-input table: add --small or --sizes");
    if (small) sizes = {std::size_t{1} << 10, std::size_t{1} << 12, std::size_t{1} << 14, std::size_t{1} << 16,
                        std::size_t{1} << 18, std::size_t{1} << 20, std::size_t{1} << 22};
    if (!sizes_text.empty()) sizes = parse_size_list(sizes_text);
    for (std::size_t n : sizes)
      if (n == 0) throw UsageError("--sizes: every size must be at least 1");
  } catch (const UsageError& e) {
    std::cerr << spec.program << ": error: " << e.what() << "\n";
    return kExitUsage;
  }
  if (!sizes.empty()) {  // the largest decides what fits
    o.n = *std::max_element(sizes.begin(), sizes.end());
    o.n_text = std::to_string(o.n);
  }

  return run_program(spec.program, [&]() -> int {
    const DType type = parse_dtype(o.type);
    detail::check_host_memory_for<P>(type, config, o);  // sizes first: an overflow is no stage's fault
    std::vector<std::string> wanted;
    {
      std::stringstream ss(only);
      for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) wanted.push_back(item);
    }
    for (const auto& w : wanted)
      if (std::none_of(all.begin(), all.end(), [&](const Stage<P>* s) { return s->name == w; }))
        throw UsageError("--stages: unknown stage '" + w + "'");
    // Each stage runs at --block (or the nearest block size it accepts); without --block, at its
    // own default block (default_block_of: 256 for most stages).
    auto block_of = [&](const Stage<P>& s) {
      if (o.block_given) return std::clamp(o.block, s.min_block, s.max_block);
      if (!gpu_available()) return default_block_of(s);
      return default_block_of(s, detail::probe_args<P>(type, config, o), current_device_limits());
    };
    // Per table, the stages picked that support this type and these settings; empty tables go.
    struct Picked {
      const LadderTable<P>* table;
      std::vector<const Stage<P>*> stages;
      std::vector<Measurement> rows;
    };
    std::vector<Picked> picked;
    std::vector<const Stage<P>*> stages;  // every picked stage, for the baseline
    std::vector<std::string> refusals;    // why the chosen stages that were left out refused
    for (const LadderTable<P>& t : tables) {
      Picked p{&t, {}, {}};
      for (const Stage<P>& s : t.stages) {
        const bool chosen = wanted.empty() || std::count(wanted.begin(), wanted.end(), s.name);
        typename P::Args probe = detail::probe_args<P>(type, config, o);
        probe.block = block_of(s);
        probe.grid = 0;
        try {
          validate_config(s, probe);
          if (chosen) p.stages.push_back(&s);
        } catch (const UsageError& e) {  // e.g. a type or operator this stage does not offer
          if (chosen) refusals.push_back(e.what());
        }
      }
      stages.insert(stages.end(), p.stages.begin(), p.stages.end());
      if (!p.stages.empty()) picked.push_back(std::move(p));
    }
    if (stages.empty())  // say why, in the first stage's words
      throw UsageError("no stage supports this type and these settings" +
                       (refusals.empty() ? std::string() : " (" + refusals.front() + ")"));
    for (const std::string* path : {&o.csv, &o.json, &o.md})
      if (!path->empty()) check_writable(*path);

    const DeviceInfo dev = query_device();
    // A stage this GPU cannot run (architecture, shared memory, toolkit) is skipped with one line;
    // the others run.
    std::vector<std::string> skipped;
    {
      const DeviceLimits& limits = current_device_limits();
      stages.clear();
      for (Picked& p : picked) {
        std::vector<const Stage<P>*> kept;
        for (const Stage<P>* s : p.stages) {
          typename P::Args probe = detail::probe_args<P>(type, config, o);
          probe.block = block_of(*s);
          try {
            check_device_fit(*s, probe, limits);
            kept.push_back(s);
          } catch (const UnsupportedError& e) {
            std::fprintf(stderr, "  %s\n", skip_note(e.what()).c_str());
            skipped.push_back(skip_note(e.what()));
          }
        }
        p.stages = std::move(kept);
        stages.insert(stages.end(), p.stages.begin(), p.stages.end());
      }
      picked.erase(std::remove_if(picked.begin(), picked.end(), [](const Picked& p) { return p.stages.empty(); }),
                   picked.end());
      if (stages.empty()) throw UnsupportedError(std::string(kCannotRunHere) + ": no stage of this ladder fits it");
    }
    if (!sizes.empty()) {
      TimingOptions small_t = detail::timing_from(o);
      small_t.runs_per_sample = runs_per_sample;
      small_t.graph = sample_timing == "graph";
      return detail::size_ladder<P>(spec, o, config, type, stages, block_of, dev, skipped, sizes, small_t, argc, argv);
    }
    Stream stream;
    std::optional<Session<P>> exact = detail::exact_session<P>(type, config, o, stream.get());
    Session<P> timed = Session<P>::generate(type, config, o.n, o.dist, o.seed, stream.get());
    const TimingOptions t = detail::timing_from(o);
    std::fprintf(stderr, "[%s] %s, n = %zu %s, %s\n", spec.program.c_str(), dev.name.c_str(), o.n,
                 dtype_name(type), P::describe(config).c_str());

    // The baseline first, so that every stage can be read as a ratio to it.
    const Stage<P> base = P::baseline(type, config, stages);
    std::fprintf(stderr, "  timing %s\n", base.name.c_str());
    const Measurement cub = measure_stage(base, exact ? &*exact : nullptr, timed, 256, 0, t, dev, true);
    for (Picked& p : picked) {
      for (const Stage<P>* s : p.stages) {
        std::fprintf(stderr, "  timing %s\n", s->name.c_str());
        p.rows.push_back(measure_stage(*s, exact ? &*exact : nullptr, timed, block_of(*s), 0, t, dev));
      }
    }
    // The bandwidth ceilings on the same input (P::ceilings: a copy, a streaming read, or both).
    std::vector<std::pair<Ceiling, CeilingResult>> roofs;
    for (const Ceiling c : P::ceilings()) {
      std::fprintf(stderr, "  timing %s\n", ceiling_name(c));
      roofs.emplace_back(c, time_ceiling(c, timed.input(), timed.input_bytes(), t, stream.get(), dev));
    }

    Record cfg;
    P::add_columns(config, cfg);
    std::vector<Record> records;
    auto table_row = [&](const Measurement& m, const std::string& number, const std::string& change,
                         double step, double total, double vs_cub) -> std::vector<std::string> {
      return {number, "`" + m.stage + "`", change, detail::fixed(m.time.median_ms, 4),
              detail::fixed(m.gb_per_s, 1), detail::fixed(m.pct_peak_bw, 1),
              step > 0 ? detail::fixed(step, 2) + "x" : "", total > 0 ? detail::fixed(total, 2) + "x" : "",
              detail::fixed(vs_cub, 2), m.ok() ? "yes" : "**NO**",
              check_name(m.decided_by()),
              m.timed.kind == CheckKind::unchecked ? "not checked" : check_name(m.timed.kind)};
    };
    auto add_record = [&](const Measurement& m, double step, double total, double vs_cub, const std::string* key) {
      Record r = measurement_record(m, cfg);
      r.add("label", m.label).add("dist", o.dist).add("step_speedup", step).add("total_speedup", total)
          .add("vs_cub", vs_cub).add("device", dev.name);
      if (!spec.table_column.empty()) r.add(spec.table_column, key ? *key : std::string());
      records.push_back(std::move(r));
    };
    bool all_ok = cub.ok();
    std::vector<std::vector<std::vector<std::string>>> md_tables;
    for (const Picked& p : picked) {
      std::vector<std::vector<std::string>> table;
      const double first_ms = p.rows.front().time.median_ms;
      for (std::size_t i = 0; i < p.rows.size(); ++i) {
        const Measurement& m = p.rows[i];
        all_ok = all_ok && m.ok();
        const double step = i == 0 ? 1.0 : p.rows[i - 1].time.median_ms / m.time.median_ms;
        const double total = first_ms / m.time.median_ms;
        const double vs_cub = cub.time.median_ms / m.time.median_ms;
        // A table's forms may be named "<stage>_<key>" (reduce_kernel_3_partials): numbered as <stage>.
        std::string base_name = m.stage;
        const std::string suffix = "_" + p.table->key;
        if (!p.table->key.empty() && base_name.size() > suffix.size() &&
            base_name.compare(base_name.size() - suffix.size(), suffix.size(), suffix) == 0)
          base_name.resize(base_name.size() - suffix.size());
        table.push_back(table_row(m, detail::stage_number(base_name), p.stages[i]->label, step, total, vs_cub));
        add_record(m, step, total, vs_cub, &p.table->key);
      }
      table.push_back(table_row(cub, "-", "library baseline", 0, first_ms / cub.time.median_ms, 1.0));
      md_tables.push_back(std::move(table));
    }
    add_record(cub, 0, picked.front().rows.front().time.median_ms / cub.time.median_ms, 1.0, nullptr);
    for (const auto& [ceiling, roof] : roofs) {
      if (roof.ms <= 0) continue;  // an empty input: nothing was timed
      const double gbs = gigabytes_per_second(roof.bytes, roof.ms);
      const double pct = 100.0 * gbs * 1e9 / dev.peak_bw_bytes_per_s;
      for (auto& table : md_tables)
        table.push_back({"-", ceiling_name(ceiling), ceiling_help(ceiling), detail::fixed(roof.ms, 4),
                         detail::fixed(gbs, 1), detail::fixed(pct, 1), "", "", "", "-", "-", "-"});
      Record r = detail::ceiling_record(ceiling, roof, o.n, type, cfg, dev);
      r.add("label", std::string(ceiling_help(ceiling))).add("dist", o.dist)
          .add("step_speedup", 0.0).add("total_speedup", 0.0).add("vs_cub", cub.time.median_ms / roof.ms)
          .add("device", dev.name);
      if (!spec.table_column.empty()) r.add(spec.table_column, std::string());
      records.push_back(std::move(r));
    }
    detail::clear_grid_and_block(records, base.name);

    std::ostringstream md;
    const std::string date = detail::today();
    md << "## " << spec.title << "\n\n"
       << "- device: " << dev.summary() << "\n"
       << "- input: n = " << o.n << " " << dtype_name(type) << " (" << detail::fixed(timed.input_bytes() / 1e6, 1)
       << " MB), " << P::describe(config) << ", dist " << o.dist << ", seed " << o.seed << "\n"
       << "- checks: every row is checked on exact data (" << P::exact_dist_help()
       << ") and on the timed input; `check` names the check that decided `verified`\n"
       << "- timing: median of up to " << t.iters << " runs after " << t.warmup
       << " warm-up, CUDA events, L2 " << (t.flush_l2 ? "flushed" : "warm") << " between runs; "
       << (o.block_given ? "block " + std::to_string(o.block) + " (or the nearest the stage accepts)"
                         : std::string("each stage at its default block (256, or less where the stage's shared memory "
                                       "at 256 does not fit this GPU)"))
       << "\n"
       << "- command: `" << detail::command_line(argc, argv) << "` (" << date << ")\n";
    for (const std::string& why : skipped) md << "- " << why << "\n";
    const std::vector<std::string> header{"#", "stage", "what changed", "ms (median)", "GB/s", "% peak",
                                          "step", "total", "vs CUB", "verified", "check", "timed data"};
    for (std::size_t k = 0; k < picked.size(); ++k) {
      const LadderTable<P>& lt = *picked[k].table;
      md << "\n";
      if (!lt.title.empty()) md << "### " << lt.title << "\n\n";
      if (!lt.note.empty()) md << lt.note << "\n\n";
      md << markdown_table(header, md_tables[k]);
    }
    md << "\nGB/s = " << P::bytes_help() << " / median time (1e9 B/s); `vs CUB` = CUB's time / the stage's time;"
       << " `timed data`: the timed input's own check (exact, or its error against the stage's depth bound, or"
       << " not checked where that bound is looser than the answer).";
    if (picked.size() > 1)
      md << " Each table's `step` compares a row with the row above it, `total` with the table's first row;"
         << " the baseline and the " << (roofs.size() > 1 ? "ceilings were" : "ceiling was")
         << " measured once and close every table.";
    md << "\n\n" << P::ceilings_help() << "\n";
    std::cout << md.str();
    if (!o.md.empty()) write_text_file(o.md, md.str());
    detail::write_records(o, records);
    for (const Picked& p : picked)
      for (const auto& m : p.rows)
        if (!m.ok())
          std::cerr << m.stage << ": verification FAILED: "
                    << (m.verdict.ok ? m.timed.message : m.verdict.message) << "\n";
    return all_ok ? 0 : kExitFailure;
  });
}

}  // namespace harness
