//! @file drivers_impl.hpp
//! @brief How stage_main and ladder_main (drivers.hpp) do their work, in named steps: parse the
//! flags, pick the stage or stages, refuse what the arguments or this GPU cannot run, time, report.
//! A template body, not a header to use: only each problem's .cpp file (common/reduce/reduce_problem.cpp,
//! common/scan/scan_problem.cpp, common/histogram/histogram_problem.cpp) includes it, to instantiate
//! both drivers once for its problem; the CPU tests include it for detail::add_problem_flags.
//!
//! stage_main: check_forms, add_problem_flags, add_form_flags, parse_command_line, form_chosen, then
//! run_stage_program (check_stage_args, query_device, check_stage_fits_gpu, measure_stage or
//! profile_once, print_stage_report, write_records).
//! ladder_main: add_problem_flags, add_ladder_flags, parse_command_line, ladder_sizes, then
//! check_host_memory_for, stages_asked, pick_stages, query_device, add_rule_stages (`--stages auto`),
//! drop_unfit_stages, and run_ladder (time_ladder, stage_rows, add_ceiling_rows, ladder_markdown) or
//! size_ladder (time_at_size per size, size_tables, size_ladder_markdown).
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
#include "roofline_model.hpp"
#include "size_rule.hpp"

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

//! The launch arguments a run of the program would have, without buffers: type, n, block, grid
//! and the problem's settings (P::apply), pointers null. What the checks before any allocation look
//! at: validate_config, check_device_fit, the shared-memory rule of default_block_of, the output's size.
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

//! Rows of a Markdown table, each a list of cells.
using MarkdownRows = std::vector<std::vector<std::string>>;

// ===== The stage program: stage_main's steps after parsing ======================================

//! The checks of a stage program before the GPU is queried: first the sizes (an overflow, the host
//! memory for the inputs: nothing asks the GPU before them), then the block (without --block, the
//! stage's default, lowered where this GPU's shared memory per block cannot hold it; the limits
//! need the GPU: without one, the static default, and the program stops at query_device with the
//! no-GPU message), the stage's rules for these arguments (validate_config) and the output files.
//! Sets o.block.
//! @return the bytes the inputs take on the device
//! @throws UsageError, UnsupportedError naming what was refused
template <class P>
std::size_t check_stage_args(const Stage<P>& stage, RunOptions& o, const typename P::Config& config, DType type) {
  const std::size_t input_bytes = check_host_memory_for<P>(type, config, o);
  if (!o.block_given) {
    o.block = default_block_of(stage);
    if (gpu_available()) o.block = default_block_of(stage, probe_args<P>(type, config, o), current_device_limits());
  }
  validate_config(stage, probe_args<P>(type, config, o));
  for (const std::string* path : {&o.csv, &o.json})
    if (!path->empty()) check_writable(*path);
  return input_bytes;
}

//! What this GPU cannot run is refused here, before any allocation: the stage's architecture,
//! shared memory and other device rules (check_device_fit), the grid limit (validate_shape: the
//! occupancy needs the device), then the device memory the inputs need.
//! @throws UnsupportedError, UsageError naming what was refused
template <class P>
void check_stage_fits_gpu(const Stage<P>& stage, const RunOptions& o, const typename P::Config& config, DType type,
                          std::size_t input_bytes) {
  const typename P::Args probe = probe_args<P>(type, config, o);
  check_device_fit(stage, probe, current_device_limits());
  validate_shape(stage, probe);
  ensure_device_memory(input_bytes, std::string(two_inputs<P>(type, config, o) ? "the exact and the timed input, "
                                                                                : "the input, ") +
                                        std::to_string(o.n) + " " + dtype_name(type) + " each,");
}

//! --profile: one checked warm-up (on exact data where `exact` is given), then exactly one launch
//! between cudaProfilerStart/Stop inside an NVTX range named after the stage, checked on `timed`.
template <class P>
Measurement profile_once(const Stage<P>& stage, Session<P>* exact, Session<P>& timed, const RunOptions& o) {
  const typename P::Args args = timed.args_for(stage, o.block, o.grid);
  Measurement m;
  m.stage = stage.name;
  m.label = stage.label;
  m.n = o.n;
  m.type = timed.type();
  m.block = o.block;
  m.grid = grid_of(stage, args);
  m.verdict = exact ? exact->run_and_check(stage, exact->args_for(stage, o.block, o.grid))
                    : timed.run_and_check(stage, args);  // the warm-up
  timed.poison_for(stage);
  CUDA_CHECK(cudaStreamSynchronize(timed.stream()));
  CUDA_CHECK(cudaProfilerStart());
  nvtxRangePushA(stage.name.c_str());
  run_stage(stage, args);
  CUDA_CHECK(cudaStreamSynchronize(timed.stream()));
  nvtxRangePop();
  CUDA_CHECK(cudaProfilerStop());
  m.timed = timed.check_output(stage, args);
  return m;
}

//! Prints a stage program's report: the stage and what changed, the device, the configuration, the
//! timing, throughput and roofline (not with --profile), both checks and the verdict.
template <class P>
void print_stage_report(const Stage<P>& stage, const Measurement& m, const DeviceInfo& dev, const RunOptions& o,
                        const typename P::Config& config, Session<P>& timed, bool exact) {
  std::printf("%s: %s\n", stage.name.c_str(), stage.label.c_str());
  std::printf("  changed:    %s\n", stage.change.c_str());
  std::printf("  device:     %s\n", dev.summary().c_str());
  std::printf("  config:     n = %zu %s (%.1f MiB), %s, block %d, grid %zu, dist %s, seed %llu\n",
              m.n, dtype_name(m.type), m.n * static_cast<double>(dtype_size(m.type)) / 1048576.0,
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
    std::printf("  check:      exact data (%s): %s\n", P::exact_dist_help(), check_line(m.verdict).c_str());
  std::printf("  %s %s data: %s\n", exact ? "error:     " : "check:     ", o.dist.c_str(),
              check_line(m.timed).c_str());
  std::printf("  verify:     %s (decided by the %s check)\n", m.ok() ? "PASS" : "FAIL",
              check_name(m.decided_by()));
}

//! A stage program once its flags are parsed: the checks (check_stage_args; query_device;
//! check_stage_fits_gpu), the inputs, one measurement (or with --profile one profiled launch), the
//! report and the records (--csv, --json).
//! @return 0 when the checks passed, kExitFailure otherwise
template <class P>
int run_stage_program(const Stage<P>& stage, RunOptions& o, const typename P::Config& config) {
  const DType type = parse_dtype(o.type);
  const std::size_t input_bytes = check_stage_args(stage, o, config, type);
  const DeviceInfo dev = query_device();
  check_stage_fits_gpu(stage, o, config, type, input_bytes);
  Stream stream;
  std::optional<Session<P>> exact = exact_session<P>(type, config, o, stream.get());
  Session<P> timed = Session<P>::generate(type, config, o.n, o.dist, o.seed, stream.get());
  const Measurement m = o.profile ? profile_once(stage, exact ? &*exact : nullptr, timed, o)
                                  : measure_stage(stage, exact ? &*exact : nullptr, timed, o.block, o.grid,
                                                  timing_from(o), dev);
  print_stage_report(stage, m, dev, o, config, timed, exact.has_value());
  Record cfg;
  P::add_columns(config, cfg);
  Record r = measurement_record(m, cfg);
  r.add("dist", o.dist).add("device", dev.name).add("peak_bw_gb_per_s", dev.peak_bw_bytes_per_s / 1e9);
  write_records(o, {r});
  return m.ok() ? 0 : kExitFailure;
}

// ===== The ladder: its flags and the stages it runs ==============================================

//! The flags a ladder has beside a stage program's.
struct LadderFlags {
  std::string stages;                   //!< --stages: comma-separated names; empty: every stage
  std::string sizes;                    //!< --sizes as typed
  bool small = false;                   //!< --small
  int runs_per_sample = 100;            //!< --runs-per-sample
  std::string sample_timing = "graph";  //!< --sample-timing: graph or stream
};

//! Adds --stages and the small-input form's flags (--sizes, --small, --runs-per-sample,
//! --sample-timing) to `app`, bound to `f`; --stages offers `auto` where the ladder has a size rule.
inline void add_ladder_flags(CLI::App& app, LadderFlags& f, const SizeRule* rule) {
  app.add_option("--stages", f.stages,
                 rule ? "Run only these stages (comma-separated names); auto: the stage the size rule names for "
                        "the type, the settings and n (common/size_rule.hpp, from the committed H100 coverage), "
                        "at each size with --sizes"
                      : "Run only these stages (comma-separated names)");
  app.add_option("--sizes", f.sizes,
                 "Instead of one --n, a table over these sizes of microseconds and launches per run (comma-separated; "
                 "A..B: A, 2A, 4A, ... up to B), e.g. 2^10..2^22");
  app.add_flag("--small", f.small, "The small-input table at 2^10, 2^12, ..., 2^22 (--sizes), where latency, not bandwidth, decides");
  app.add_option("--runs-per-sample", f.runs_per_sample,
                 "With --sizes or --small: runs timed together in one sample (its time divided by this)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--sample-timing", f.sample_timing,
                 "With --sizes or --small: graph (the runs of a sample captured once into a CUDA graph and replayed) or "
                 "stream (enqueued back to back)")
      ->check(CLI::IsMember({"graph", "stream"}))
      ->capture_default_str();
}

//! The sizes of the small-input form (--small: 2^10, 2^12, ..., 2^22; or --sizes), or none for a
//! ladder at one --n.
//! @throws UsageError for --small with --sizes, either with --n, the small-input flags without
//!         either, or a size of 0
inline std::vector<std::size_t> ladder_sizes(const CLI::App& app, const LadderFlags& f) {
  if (f.small && !f.sizes.empty()) throw UsageError("give --small or --sizes, not both");
  if ((f.small || !f.sizes.empty()) && app.count("--n")) throw UsageError("give --n or --sizes / --small, not both");
  if (!f.small && f.sizes.empty() && (app.count("--runs-per-sample") || app.count("--sample-timing")))
    throw UsageError("--runs-per-sample and --sample-timing belong to the small-input table: add --small or --sizes");
  std::vector<std::size_t> sizes;
  if (f.small)
    for (int k = 10; k <= 22; k += 2) sizes.push_back(std::size_t{1} << k);
  if (!f.sizes.empty()) sizes = parse_size_list(f.sizes);
  for (std::size_t n : sizes)
    if (n == 0) throw UsageError("--sizes: every size must be at least 1");
  return sizes;
}

//! The timing of the small-input form: the command line's, with --runs-per-sample runs per sample,
//! replayed from a CUDA graph unless --sample-timing stream.
inline TimingOptions small_input_timing(const RunOptions& o, const LadderFlags& f) {
  TimingOptions t = timing_from(o);
  t.runs_per_sample = f.runs_per_sample;
  t.graph = f.sample_timing == "graph";
  return t;
}

//! The names --stages lists (`list`, comma-separated); empty for every stage. `auto` (the size
//! rule's stage) is one of them where the ladder has a size rule (`rule` not null).
//! @throws UsageError for an empty item, or a name that is none of `all` nor an `auto` the ladder offers
template <class P>
std::vector<std::string> stages_asked(const std::string& list, const std::vector<const Stage<P>*>& all,
                                      const SizeRule* rule) {
  const std::vector<std::string> wanted = split_list(list, "--stages");
  for (const auto& w : wanted) {
    if (w == "auto" && !rule) throw UsageError("--stages: this ladder has no size rule, so no 'auto'");
    if (w != "auto" && std::none_of(all.begin(), all.end(), [&](const Stage<P>* s) { return s->name == w; }))
      throw UsageError("--stages: unknown stage '" + w + "'" + (rule ? " (a stage's name, or auto)" : ""));
  }
  return wanted;
}

//! Takes every `auto` out of `wanted` (stages_asked's list): true when there was one. What is left
//! are the stages named beside it.
inline bool take_auto(std::vector<std::string>& wanted) {
  const auto end = std::remove(wanted.begin(), wanted.end(), std::string("auto"));
  const bool found = end != wanted.end();
  wanted.erase(end, wanted.end());
  return found;
}

//! One table of a ladder run: the stages of it that run, and (once timed) their measurements.
template <class P>
struct PickedTable {
  const LadderTable<P>* table = nullptr;  //!< the spec's table
  std::vector<const Stage<P>*> stages;    //!< its stages that run, in ladder order
  std::vector<Measurement> rows;          //!< their measurements, in the same order
};

//! What a ladder run settles before it times anything: the input, the options, the tables and the
//! stages this GPU skips.
template <class P>
struct LadderPlan {
  DType type = DType::f32;              //!< the input type (--type)
  typename P::Config config;            //!< the problem's settings
  RunOptions o;                         //!< the common flags
  std::vector<PickedTable<P>> tables;   //!< the tables with a stage that runs
  std::vector<std::string> skipped;     //!< one line per stage this GPU cannot run
  //! `--stages auto` with --sizes: the size rule's stage at each size (the `auto` row); else empty.
  std::vector<const Stage<P>*> rule_picks;
  std::vector<std::string> notes;       //!< lines for the report: what `--stages auto` runs, and why

  //! The block `s` runs at: --block (or the nearest block size it accepts); without --block, its
  //! own default block (default_block_of: 256 for most stages), lowered to what this GPU holds.
  int block_of(const Stage<P>& s) const { return block_of(s, o.n); }
  //! The block `s` runs at for n elements (a ladder over sizes: a stage's block_for may pick another
  //! block at each size).
  int block_of(const Stage<P>& s, std::size_t n) const {
    if (o.block_given) return std::clamp(o.block, s.min_block, s.max_block);
    if (!gpu_available()) return default_block_of(s);
    RunOptions at = o;
    at.n = n;
    return default_block_of(s, probe_args<P>(type, config, at), current_device_limits());
  }
  //! Every stage that runs, table after table.
  std::vector<const Stage<P>*> stages() const {
    std::vector<const Stage<P>*> all;
    for (const PickedTable<P>& p : tables) all.insert(all.end(), p.stages.begin(), p.stages.end());
    return all;
  }
};

//! Fills plan.tables: per table of `tables`, the stages `wanted` names (every stage where it is
//! empty) that accept this type and these settings at their block; tables left empty go.
//! @throws UsageError when no stage is left, in the first refusal's words
template <class P>
void pick_stages(LadderPlan<P>& plan, const std::vector<LadderTable<P>>& tables, const std::vector<std::string>& wanted) {
  std::vector<std::string> refusals;  // why the chosen stages that were left out refused
  for (const LadderTable<P>& t : tables) {
    PickedTable<P> p{&t, {}, {}};
    for (const Stage<P>& s : t.stages) {
      const bool chosen = wanted.empty() || std::count(wanted.begin(), wanted.end(), s.name);
      typename P::Args probe = probe_args<P>(plan.type, plan.config, plan.o);
      probe.block = plan.block_of(s);
      probe.grid = 0;
      try {
        validate_config(s, probe);
        if (chosen) p.stages.push_back(&s);
      } catch (const UsageError& e) {  // e.g. a type or operator this stage does not offer
        if (chosen) refusals.push_back(e.what());
      }
    }
    if (!p.stages.empty()) plan.tables.push_back(std::move(p));
  }
  if (plan.tables.empty())
    throw UsageError("no stage supports this type and these settings" +
                     (refusals.empty() ? std::string() : " (" + refusals.front() + ")"));
}

//! Drops the picked stages this GPU cannot run (architecture, shared memory, toolkit:
//! check_device_fit), each with one line on stderr and in plan.skipped; tables left empty go.
//! @throws UnsupportedError when no stage is left
template <class P>
void drop_unfit_stages(LadderPlan<P>& plan) {
  const DeviceLimits& limits = current_device_limits();
  for (PickedTable<P>& p : plan.tables) {
    std::vector<const Stage<P>*> kept;
    for (const Stage<P>* s : p.stages) {
      typename P::Args probe = probe_args<P>(plan.type, plan.config, plan.o);
      probe.block = plan.block_of(*s);
      try {
        check_device_fit(*s, probe, limits);
        kept.push_back(s);
      } catch (const UnsupportedError& e) {
        std::fprintf(stderr, "  %s\n", skip_note(e.what()).c_str());
        plan.skipped.push_back(skip_note(e.what()));
      }
    }
    p.stages = std::move(kept);
  }
  plan.tables.erase(std::remove_if(plan.tables.begin(), plan.tables.end(),
                                   [](const PickedTable<P>& p) { return p.stages.empty(); }),
                    plan.tables.end());
  if (plan.tables.empty() && plan.rule_picks.empty())
    throw UnsupportedError(std::string(kCannotRunHere) + ": no stage of this ladder fits it");
}

//! The size rule's stage at n on this GPU (rule_stage_here over the ladder's stages `all`), with a
//! line for each stage of the rule it passed over added to plan.notes (once).
template <class P>
const Stage<P>* rule_stage_at(LadderPlan<P>& plan, const std::vector<const Stage<P>*>& all, const SizeRule& rule,
                              std::size_t n) {
  typename P::Args a = probe_args<P>(plan.type, plan.config, plan.o);
  a.n = n;
  const RuleChoice<P> choice =
      rule_stage_here<P>(rule, P::rule_variant(plan.config, plan.o.dist), all, a,
                         [&](const Stage<P>& s) { return plan.block_of(s, n); }, current_device_limits());
  for (const std::string& why : choice.passed_over) {
    const std::string line = "`auto` passes over " + why + "; it runs the stage that one names instead";
    if (std::find(plan.notes.begin(), plan.notes.end(), line) == plan.notes.end()) plan.notes.push_back(line);
  }
  return choice.stage;
}

//! `--stages auto`, once the GPU is known: at one --n the size rule's stage joins the stages named
//! beside `auto` (`wanted`; pick_stages again); with `sizes`, plan.rule_picks gets the rule's stage
//! at each size (the `auto` row). Either way a line in plan.notes says where the rule comes from.
//! @throws UsageError when the rule's stage, and every stage it names instead, cannot run here
template <class P>
void add_rule_stages(LadderPlan<P>& plan, const std::vector<LadderTable<P>>& tables,
                     const std::vector<const Stage<P>*>& all, const SizeRule& rule,
                     const std::vector<std::size_t>& sizes, std::vector<std::string> wanted) {
  const std::string source = rule_source_note(rule, plan.type, P::rule_variant(plan.config, plan.o.dist),
                                              current_device_limits().cc);
  if (sizes.empty()) {
    const Stage<P>* s = rule_stage_at(plan, all, rule, plan.o.n);
    plan.notes.insert(plan.notes.begin(), "`--stages auto` runs `" + s->name + "` at n = " + std::to_string(plan.o.n) +
                                              ": " + source);
    wanted.push_back(s->name);
    plan.tables.clear();
    pick_stages(plan, tables, wanted);
    return;
  }
  for (std::size_t n : sizes) plan.rule_picks.push_back(rule_stage_at(plan, all, rule, n));
  plan.notes.insert(plan.notes.begin(), "the `auto` row runs, at each size, the stage named in its cells: " + source);
}

// ===== The small-input form of a ladder (--sizes, --small) =====================================

//! One cell of the small-input tables: one row at one size.
struct SizeCell {
  double us = 0;     //!< median microseconds per run
  int launches = 0;  //!< what one run enqueues
  bool ok = true;    //!< both checks passed (ceilings: always)
};

//! One row of the small-input tables: the same stage at every size, or (the `auto` row) the size
//! rule's stage at each size.
template <class P>
struct SizeRow {
  std::vector<const Stage<P>*> at;  //!< the stage at each size; one entry: the same at every size
  bool by_rule = false;             //!< the `auto` row (`--stages auto`)
  //! The stage at size k.
  const Stage<P>& stage(std::size_t k) const { return *at[at.size() == 1 ? 0 : k]; }
};

//! The rows of the small-input tables: each stage once (a stage in two of the ladder's tables,
//! like stage 11 closing both of chapter 7's, is timed once), the `auto` row where `rule_picks`
//! holds the size rule's stage at each size, then the baseline.
template <class P>
std::vector<SizeRow<P>> size_ladder_rows(const std::vector<const Stage<P>*>& stages,
                                         const std::vector<const Stage<P>*>& rule_picks, const Stage<P>& base) {
  std::vector<SizeRow<P>> rows;
  for (const Stage<P>* s : stages)
    if (std::none_of(rows.begin(), rows.end(), [&](const SizeRow<P>& r) { return r.at[0]->name == s->name; }))
      rows.push_back({{s}});
  if (!rule_picks.empty()) rows.push_back({rule_picks, true});
  rows.push_back({{&base}});
  return rows;
}

//! One row at one size: checked and timed as measure_stage does (`t`: many runs per sample), and
//! the launches one run enqueues counted from a CUDA graph of it. Returns its cell and its record.
template <class P>
std::pair<SizeCell, Record> size_row(const Stage<P>& s, bool is_base, int block, Session<P>* exact, Session<P>& timed,
                                     const TimingOptions& t, const DeviceInfo& dev, const Record& cfg) {
  std::fprintf(stderr, "  timing %s\n", s.name.c_str());
  const Measurement m = measure_stage(s, exact, timed, block, 0, t, dev, is_base);
  const typename P::Args args = timed.args_for(s, block, 0);
  const LaunchCount lc = count_launches([&](cudaStream_t) { run_stage(s, args); }, timed.stream());
  Record r = measurement_record(m, cfg);
  r.add("launches", static_cast<long long>(lc.launches())).add("kernels", static_cast<long long>(lc.kernels))
      .add("memsets", static_cast<long long>(lc.memsets)).add("copies", static_cast<long long>(lc.copies));
  return {{m.time.median_ms * 1e3, lc.launches(), m.ok()}, std::move(r)};
}

//! One bandwidth ceiling at one size: its cell and its record.
template <class P>
std::pair<SizeCell, Record> size_ceiling_row(Ceiling c, const Session<P>& timed, const TimingOptions& t,
                                             const DeviceInfo& dev, const Record& cfg) {
  std::fprintf(stderr, "  timing %s\n", ceiling_name(c));
  const CeilingResult roof = time_ceiling(c, timed.input(), timed.input_bytes(), t, timed.stream(), dev);
  Record r = ceiling_record(c, roof, timed.n(), timed.type(), cfg, dev);
  r.add("launches", static_cast<long long>(roof.launches)).add("kernels", std::string())
      .add("memsets", std::string()).add("copies", std::string());
  return {{roof.ms * 1e3, roof.launches, true}, std::move(r)};
}

//! Adds the columns every row of one size shares to records[first..]: the timing method, microseconds,
//! the ratio to the baseline's time `cub_ms`, the data and the device.
inline void add_size_columns(std::vector<Record>& records, std::size_t first, double cub_ms, const TimingOptions& t,
                             const std::string& dist, const DeviceInfo& dev) {
  for (std::size_t i = first; i < records.size(); ++i) {
    Record& r = records[i];
    const double row_ms = std::get<double>(*r.find("ms_median"));
    r.add("runs_per_sample", static_cast<long long>(std::max(1, t.runs_per_sample)))
        .add("timing", std::string(t.graph ? "graph" : (t.runs_per_sample > 1 ? "stream" : "single")))
        .add("us_median", row_ms * 1e3).add("vs_cub", row_ms > 0 ? cub_ms / row_ms : 0.0).add("dist", dist)
        .add("device", dev.name);
  }
}

//! What the small-input form measured: a cell per row (stages, the baseline, then the ceilings) and
//! size, and one record per cell.
struct SizeTable {
  std::vector<std::vector<SizeCell>> cells;  //!< [row][size]
  std::vector<Record> records;               //!< in the order rows x sizes were timed
  bool all_ok = true;                        //!< every stage passed both checks at every size
};

//! Every row and ceiling at size `n` (sizes[k]) on fresh inputs on `stream`: fills column k of
//! table.cells and adds the records (with an `auto` row, each with the column `picked_by`: "size
//! rule" for that row's, empty for the others).
template <class P>
void time_at_size(const LadderPlan<P>& plan, const std::vector<SizeRow<P>>& rows, const TimingOptions& t,
                  const DeviceInfo& dev, const std::string& program, std::size_t k, std::size_t n,
                  cudaStream_t stream, SizeTable& table) {
  RunOptions o = plan.o;
  o.n = n;
  std::fprintf(stderr, "[%s] %s, n = %zu %s\n", program.c_str(), dev.name.c_str(), o.n, dtype_name(plan.type));
  std::optional<Session<P>> exact = exact_session<P>(plan.type, plan.config, o, stream);
  Session<P> timed = Session<P>::generate(plan.type, plan.config, o.n, o.dist, o.seed, stream);
  Record cfg;
  P::add_columns(plan.config, cfg);
  const std::size_t first = table.records.size();
  const bool rule_row = std::any_of(rows.begin(), rows.end(), [](const SizeRow<P>& r) { return r.by_rule; });
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const bool is_base = r + 1 == rows.size();
    const Stage<P>& s = rows[r].stage(k);
    auto [cell, record] = size_row(s, is_base, is_base ? 256 : plan.block_of(s, n), exact ? &*exact : nullptr,
                                   timed, t, dev, cfg);
    if (rule_row) record.add("picked_by", std::string(rows[r].by_rule ? "size rule" : ""));
    table.cells[r][k] = cell;
    table.all_ok = table.all_ok && cell.ok;
    table.records.push_back(std::move(record));
  }
  const double cub_ms = std::get<double>(*table.records.back().find("ms_median"));
  const std::vector<Ceiling> ceilings = P::ceilings();
  for (std::size_t i = 0; i < ceilings.size(); ++i) {
    auto [cell, record] = size_ceiling_row(ceilings[i], timed, t, dev, cfg);
    if (rule_row) record.add("picked_by", std::string());
    table.cells[rows.size() + i][k] = cell;
    table.records.push_back(std::move(record));
  }
  add_size_columns(table.records, first, cub_ms, t, o.dist, dev);
}

//! The two small-input tables over the sizes: microseconds (launches) per run, and the baseline's
//! time / each row's time. Rows: the stages (the `auto` row's cells begin with the stage that ran),
//! the baseline (the last of `rows`), the ceilings.
template <class P>
std::pair<MarkdownRows, MarkdownRows> size_tables(const std::vector<SizeRow<P>>& rows, const SizeTable& table,
                                                  std::size_t sizes) {
  const std::vector<Ceiling> ceilings = P::ceilings();
  const std::size_t cub_row = rows.size() - 1;
  MarkdownRows us_table, ratio_table;
  for (std::size_t r = 0; r < table.cells.size(); ++r) {
    const bool ceiling = r >= rows.size();
    const bool by_rule = !ceiling && rows[r].by_rule;
    const std::string name = ceiling ? ceiling_name(ceilings[r - rows.size()])
                                     : by_rule ? std::string("`auto` (the size rule)") : "`" + rows[r].at[0]->name + "`";
    std::vector<std::string> us_row{ceiling || by_rule || r == cub_row ? "-" : stage_number(rows[r].at[0]->name), name};
    std::vector<std::string> ratio_row = us_row;
    for (std::size_t k = 0; k < sizes; ++k) {
      const SizeCell& c = table.cells[r][k];
      const std::string ran = by_rule ? "`" + rows[r].stage(k).name + "` " : "";
      us_row.push_back(ran + fixed(c.us, 2) + " (" + std::to_string(c.launches) + ")" + (c.ok ? "" : " **FAIL**"));
      ratio_row.push_back(c.us > 0 ? ran + fixed(table.cells[cub_row][k].us / c.us, 2) : "");
    }
    us_table.push_back(std::move(us_row));
    ratio_table.push_back(std::move(ratio_row));
  }
  return {std::move(us_table), std::move(ratio_table)};
}

//! Which stage to use at each size: one row over the sizes naming the fastest stage that passed both
//! checks there and CUB's time over its time ("none" where no stage passed); the `auto` row counts
//! as the stage it ran. Rows as size_tables'.
template <class P>
MarkdownRows fastest_stage_row(const std::vector<SizeRow<P>>& rows, const SizeTable& table, std::size_t sizes) {
  const std::size_t cub_row = rows.size() - 1;
  std::vector<std::string> row{"-", "fastest verified stage (CUB's time / its time)"};
  for (std::size_t k = 0; k < sizes; ++k) {
    std::size_t best = cub_row;
    for (std::size_t r = 0; r < cub_row; ++r) {
      const SizeCell& c = table.cells[r][k];
      if (c.ok && c.us > 0 && (best == cub_row || c.us < table.cells[best][k].us)) best = r;
    }
    const double cub_us = table.cells[cub_row][k].us;
    row.push_back(best == cub_row ? std::string("none")
                                  : "`" + rows[best].stage(k).name + "` (" + fixed(cub_us / table.cells[best][k].us, 2) +
                                        ")");
  }
  return {row};
}

//! The report over sizes (--small, --sizes): a heading with the sizes, how it was measured, the two tables, the
//! fastest verified stage at each size and the ceilings' note.
template <class P>
std::string size_ladder_markdown(const LadderSpec<P>& spec, const LadderPlan<P>& plan, const DeviceInfo& dev,
                                 const std::vector<std::size_t>& sizes, const std::pair<MarkdownRows, MarkdownRows>& tables,
                                 const MarkdownRows& fastest, const TimingOptions& t, int argc, char** argv) {
  std::vector<std::string> header{"#", "stage"};
  for (std::size_t n : sizes) header.push_back(size_label(n));
  std::ostringstream md;
  const std::string span = sizes.empty() ? std::string("no size")
                                          : "sizes " + size_label(sizes.front()) + " to " + size_label(sizes.back());
  md << "## " << spec.title << ": " << span << "\n\n"
     << "- device: " << dev.summary() << "\n"
     << "- input: " << dtype_name(plan.type) << ", " << P::describe(plan.config) << ", dist " << plan.o.dist
     << ", seed " << plan.o.seed << ", at each size in the columns\n"
     << "- checks: every cell is checked on exact data (" << P::exact_dist_help()
     << ") and on the timed input, as the ladder checks them; a cell that failed says **FAIL**\n"
     << "- timing: " << timing_method(t) << "; median of up to " << t.iters << " samples after " << t.warmup
     << " warm-up\n"
     << "- launches: in brackets, what one run enqueues on the GPU (kernels, memsets and copies), counted from a "
        "CUDA graph of one run (cudaGraphGetNodes)\n"
     << "- command: `" << command_line(argc, argv) << "` (" << today() << ")\n";
  for (const std::string& line : plan.notes) md << "- " << line << "\n";
  for (const std::string& why : plan.skipped) md << "- " << why << "\n";
  md << "\n### Microseconds per run (launches per run)\n\n" << markdown_table(header, tables.first)
     << "\n### CUB's time / the row's time (above 1: faster than CUB)\n\n" << markdown_table(header, tables.second)
     << "\n### Which stage to use: the fastest verified stage at each size\n\n" << markdown_table(header, fastest)
     << "\n" << P::ceilings_help() << "\n";
  return md.str();
}

//! The small-input form of a ladder (--sizes, --small): every stage, the baseline and the
//! bandwidth ceilings at each size, each checked (as the ladder checks them), timed with `t` (many
//! runs per sample) and counted (the launches one run enqueues, from a CUDA graph of it); two tables
//! over the sizes: microseconds per run with launches per run, and CUB's time / the stage's time.
//! @return 0 when every stage passed at every size, else kExitFailure
template <class P>
int size_ladder(const LadderSpec<P>& spec, const LadderPlan<P>& plan, const DeviceInfo& dev,
                const std::vector<std::size_t>& sizes, const TimingOptions& t, int argc, char** argv) {
  std::vector<const Stage<P>*> run = plan.stages();  // the baseline matches their output type
  run.insert(run.end(), plan.rule_picks.begin(), plan.rule_picks.end());
  const Stage<P> base = P::baseline(plan.type, plan.config, run);
  const std::vector<SizeRow<P>> rows = size_ladder_rows(plan.stages(), plan.rule_picks, base);
  Stream stream;
  SizeTable table;
  table.cells.assign(rows.size() + P::ceilings().size(), std::vector<SizeCell>(sizes.size()));
  for (std::size_t k = 0; k < sizes.size(); ++k)
    time_at_size(plan, rows, t, dev, spec.program, k, sizes[k], stream.get(), table);
  clear_grid_and_block(table.records, base.name);
  const std::string md = size_ladder_markdown(spec, plan, dev, sizes, size_tables(rows, table, sizes.size()),
                                              fastest_stage_row(rows, table, sizes.size()), t, argc, argv);
  std::cout << md;
  if (!plan.o.md.empty()) write_text_file(plan.o.md, md);
  write_records(plan.o, table.records);
  return table.all_ok ? 0 : kExitFailure;
}

// ===== The ladder at one size ===================================================================

//! The baseline's measurement and the bandwidth ceilings' times of a ladder run (the stages'
//! measurements go to their PickedTable's rows).
struct LadderTimes {
  Measurement cub;                                          //!< the library baseline
  std::vector<std::pair<Ceiling, CeilingResult>> roofs;     //!< P::ceilings(), each timed
};

//! Times a ladder on one input: the baseline first, so that every stage can be read as a ratio to
//! it; then every picked stage, checked and timed (into its table's rows); then the bandwidth
//! ceilings on the same input (P::ceilings: a copy, a streaming read, or both).
template <class P>
LadderTimes time_ladder(LadderPlan<P>& plan, const Stage<P>& base, Session<P>* exact, Session<P>& timed,
                        const TimingOptions& t, const DeviceInfo& dev) {
  LadderTimes times;
  std::fprintf(stderr, "  timing %s\n", base.name.c_str());
  times.cub = measure_stage(base, exact, timed, 256, 0, t, dev, true);
  for (PickedTable<P>& p : plan.tables) {
    for (const Stage<P>* s : p.stages) {
      std::fprintf(stderr, "  timing %s\n", s->name.c_str());
      p.rows.push_back(measure_stage(*s, exact, timed, plan.block_of(*s), 0, t, dev));
    }
  }
  for (const Ceiling c : P::ceilings()) {
    std::fprintf(stderr, "  timing %s\n", ceiling_name(c));
    times.roofs.emplace_back(c, time_ceiling(c, timed.input(), timed.input_bytes(), t, timed.stream(), dev));
  }
  return times;
}

//! One row of a ladder's table: number, stage, what changed, time, GB/s, % of peak, step, total,
//! vs CUB, verified, the deciding check and the timed input's check.
inline std::vector<std::string> ladder_row(const Measurement& m, const std::string& number, const std::string& change,
                                           double step, double total, double vs_cub) {
  return {number, "`" + m.stage + "`", change, fixed(m.time.median_ms, 4),
          fixed(m.gb_per_s, 1), fixed(m.pct_peak_bw, 1),
          step > 0 ? fixed(step, 2) + "x" : "", total > 0 ? fixed(total, 2) + "x" : "",
          fixed(vs_cub, 2), m.ok() ? "yes" : "**NO**",
          check_name(m.decided_by()),
          m.timed.kind == CheckKind::unchecked ? "not checked" : check_name(m.timed.kind)};
}

//! The `#` of a table's row: the stage number of `stage`, where a table's forms named
//! `STAGE_KEY` (reduce_kernel_3_partials: key "partials") are numbered as `STAGE`.
inline std::string row_number(std::string stage, const std::string& key) {
  const std::string suffix = "_" + key;
  if (!key.empty() && stage.size() > suffix.size() &&
      stage.compare(stage.size() - suffix.size(), suffix.size(), suffix) == 0)
    stage.resize(stage.size() - suffix.size());
  return stage_number(stage);
}

//! What a ladder reports: its Markdown tables (one per picked table) and its records.
struct LadderReport {
  std::vector<MarkdownRows> tables;  //!< each: the table's stages, the baseline, the ceilings
  std::vector<Record> records;       //!< every stage, the baseline, the ceilings
  bool all_ok = true;                //!< every stage and the baseline passed
};

//! A ladder's record of a measured row: measurement_record, then label, dist, the speedups, the
//! ratio to CUB, the device and (with LadderSpec::tables) the table's key.
template <class P>
Record ladder_record(const LadderSpec<P>& spec, const LadderPlan<P>& plan, const DeviceInfo& dev,
                     const Measurement& m, double step, double total, double vs_cub, const std::string* key) {
  Record cfg;
  P::add_columns(plan.config, cfg);
  Record r = measurement_record(m, cfg);
  r.add("label", m.label).add("dist", plan.o.dist).add("step_speedup", step).add("total_speedup", total)
      .add("vs_cub", vs_cub).add("device", dev.name);
  if (!spec.table_column.empty()) r.add(spec.table_column, key ? *key : std::string());
  return r;
}

//! The rows of every picked table (its stages, then the baseline) and their records (every table's
//! stages, then the baseline's).
template <class P>
LadderReport stage_rows(const LadderSpec<P>& spec, const LadderPlan<P>& plan, const Measurement& cub,
                        const DeviceInfo& dev) {
  LadderReport rep;
  rep.all_ok = cub.ok();
  for (const PickedTable<P>& p : plan.tables) {
    MarkdownRows table;
    const double first_ms = p.rows.front().time.median_ms;
    for (std::size_t i = 0; i < p.rows.size(); ++i) {
      const Measurement& m = p.rows[i];
      rep.all_ok = rep.all_ok && m.ok();
      const double step = i == 0 ? 1.0 : p.rows[i - 1].time.median_ms / m.time.median_ms;
      const double total = first_ms / m.time.median_ms;
      const double vs_cub = cub.time.median_ms / m.time.median_ms;
      table.push_back(ladder_row(m, row_number(m.stage, p.table->key), p.stages[i]->label, step, total, vs_cub));
      rep.records.push_back(ladder_record(spec, plan, dev, m, step, total, vs_cub, &p.table->key));
    }
    table.push_back(ladder_row(cub, "-", "library baseline", 0, first_ms / cub.time.median_ms, 1.0));
    rep.tables.push_back(std::move(table));
  }
  const double first_ms = plan.tables.front().rows.front().time.median_ms;
  rep.records.push_back(ladder_record(spec, plan, dev, cub, 0, first_ms / cub.time.median_ms, 1.0, nullptr));
  return rep;
}

//! Closes every table of `rep` with the ceilings that were timed (an empty input times nothing) and
//! adds their records.
template <class P>
void add_ceiling_rows(LadderReport& rep, const LadderSpec<P>& spec, const LadderPlan<P>& plan, const LadderTimes& times,
                      const DeviceInfo& dev) {
  Record cfg;
  P::add_columns(plan.config, cfg);
  for (const auto& [ceiling, roof] : times.roofs) {
    if (roof.ms <= 0) continue;  // an empty input: nothing was timed
    const double gbs = gigabytes_per_second(roof.bytes, roof.ms);
    const double pct = 100.0 * gbs * 1e9 / dev.peak_bw_bytes_per_s;
    for (auto& table : rep.tables)
      table.push_back({"-", ceiling_name(ceiling), ceiling_help(ceiling), fixed(roof.ms, 4),
                       fixed(gbs, 1), fixed(pct, 1), "", "", "", "-", "-", "-"});
    Record r = ceiling_record(ceiling, roof, plan.o.n, plan.type, cfg, dev);
    r.add("label", std::string(ceiling_help(ceiling))).add("dist", plan.o.dist)
        .add("step_speedup", 0.0).add("total_speedup", 0.0).add("vs_cub", times.cub.time.median_ms / roof.ms)
        .add("device", dev.name);
    if (!spec.table_column.empty()) r.add(spec.table_column, std::string());
    rep.records.push_back(std::move(r));
  }
}

//! The ladder's report: a heading, the device, the input, the checks, the timing, the command, the
//! skipped stages, one table per picked table, and what the columns mean.
template <class P>
std::string ladder_markdown(const LadderSpec<P>& spec, const LadderPlan<P>& plan, const LadderReport& rep,
                            std::size_t input_bytes, std::size_t ceilings, const TimingOptions& t,
                            const DeviceInfo& dev, int argc, char** argv) {
  const RunOptions& o = plan.o;
  std::ostringstream md;
  md << "## " << spec.title << "\n\n"
     << "- device: " << dev.summary() << "\n"
     << "- input: n = " << o.n << " " << dtype_name(plan.type) << " (" << fixed(input_bytes / 1e6, 1)
     << " MB), " << P::describe(plan.config) << ", dist " << o.dist << ", seed " << o.seed << "\n"
     << "- checks: every row is checked on exact data (" << P::exact_dist_help()
     << ") and on the timed input; `check` names the check that decided `verified`\n"
     << "- timing: median of up to " << t.iters << " runs after " << t.warmup
     << " warm-up, CUDA events, L2 " << (t.flush_l2 ? "flushed" : "warm") << " between runs; "
     << (o.block_given ? "block " + std::to_string(o.block) + " (or the nearest the stage accepts)"
                       : std::string("each stage at its default block (256, or less where the stage's shared memory "
                                     "at 256 does not fit this GPU)"))
     << "\n"
     << "- command: `" << command_line(argc, argv) << "` (" << today() << ")\n";
  for (const std::string& line : plan.notes) md << "- " << line << "\n";
  for (const std::string& why : plan.skipped) md << "- " << why << "\n";
  const std::vector<std::string> header{"#", "stage", "what changed", "ms (median)", "GB/s", "% peak",
                                        "step", "total", "vs CUB", "verified", "check", "timed data"};
  for (std::size_t k = 0; k < plan.tables.size(); ++k) {
    const LadderTable<P>& lt = *plan.tables[k].table;
    md << "\n";
    if (!lt.title.empty()) md << "### " << lt.title << "\n\n";
    if (!lt.note.empty()) md << lt.note << "\n\n";
    md << markdown_table(header, rep.tables[k]);
  }
  md << "\nGB/s = " << P::bytes_help() << " / median time (1e9 B/s); `vs CUB` = CUB's time / the stage's time;"
     << " `timed data`: the timed input's own check (exact, or its error against the stage's depth bound, or"
     << " not checked where that bound is looser than the answer).";
  if (plan.tables.size() > 1)
    md << " Each table's `step` compares a row with the row above it, `total` with the table's first row;"
       << " the baseline and the " << (ceilings > 1 ? "ceilings were" : "ceiling was")
       << " measured once and close every table.";
  md << "\n\n" << P::ceilings_help() << "\n";
  return md.str();
}

//! A ladder at one --n: the inputs, the times, the report (stdout, --md), the records (--csv,
//! --json), and a line on stderr for every stage that failed.
//! @return 0 when every row passed, else kExitFailure
template <class P>
int run_ladder(const LadderSpec<P>& spec, LadderPlan<P>& plan, const DeviceInfo& dev, int argc, char** argv) {
  const RunOptions& o = plan.o;
  Stream stream;
  std::optional<Session<P>> exact = exact_session<P>(plan.type, plan.config, o, stream.get());
  Session<P> timed = Session<P>::generate(plan.type, plan.config, o.n, o.dist, o.seed, stream.get());
  const TimingOptions t = timing_from(o);
  std::fprintf(stderr, "[%s] %s, n = %zu %s, %s\n", spec.program.c_str(), dev.name.c_str(), o.n,
               dtype_name(plan.type), P::describe(plan.config).c_str());
  const Stage<P> base = P::baseline(plan.type, plan.config, plan.stages());
  const LadderTimes times = time_ladder(plan, base, exact ? &*exact : nullptr, timed, t, dev);
  LadderReport rep = stage_rows(spec, plan, times.cub, dev);
  add_ceiling_rows(rep, spec, plan, times, dev);
  clear_grid_and_block(rep.records, base.name);
  const std::string md = ladder_markdown(spec, plan, rep, timed.input_bytes(), times.roofs.size(), t, dev, argc, argv);
  std::cout << md;
  if (!o.md.empty()) write_text_file(o.md, md);
  write_records(o, rep.records);
  for (const PickedTable<P>& p : plan.tables)
    for (const auto& m : p.rows)
      if (!m.ok())
        std::cerr << m.stage << ": verification FAILED: " << (m.verdict.ok ? m.timed.message : m.verdict.message)
                  << "\n";
  return rep.all_ok ? 0 : kExitFailure;
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
  return run_program(stage.name, [&] { return detail::run_stage_program(stage, o, config); });
}

template <class P>
int ladder_main(int argc, char** argv, const LadderSpec<P>& spec) {
  CLI::App app{spec.title, spec.program};
  app.footer(P::ceilings_help());  // which bandwidth ceilings close the tables, and why
  detail::LadderPlan<P> plan;
  plan.o.max_seconds = 10;
  // One table of `stages`, or the spec's tables.
  const std::vector<LadderTable<P>> tables =
      spec.tables.empty() ? std::vector<LadderTable<P>>{{"", "", "", spec.stages}} : spec.tables;
  std::vector<const Stage<P>*> all;
  for (const LadderTable<P>& t : tables)
    for (const Stage<P>& s : t.stages) all.push_back(&s);
  detail::add_problem_flags<P>(app, plan.o, plan.config, all, /*ladder=*/true);
  detail::LadderFlags flags;
  detail::add_ladder_flags(app, flags, spec.size_rule);
  if (auto rc = parse_command_line(app, plan.o, argc, argv)) return *rc;
  std::vector<std::size_t> sizes;
  try {
    sizes = detail::ladder_sizes(app, flags);
  } catch (const UsageError& e) {
    std::cerr << spec.program << ": error: " << e.what() << "\n";
    return kExitUsage;
  }
  if (!sizes.empty()) {  // the largest decides what fits
    plan.o.n = *std::max_element(sizes.begin(), sizes.end());
    plan.o.n_text = std::to_string(plan.o.n);
  }
  return run_program(spec.program, [&]() -> int {
    plan.type = parse_dtype(plan.o.type);
    detail::check_host_memory_for<P>(plan.type, plan.config, plan.o);  // sizes first: an overflow is no stage's fault
    std::vector<std::string> wanted = detail::stages_asked(flags.stages, all, spec.size_rule);
    const bool by_rule = detail::take_auto(wanted);  // `auto`: the size rule's stage, once the GPU is known
    if (!by_rule || !wanted.empty()) detail::pick_stages(plan, tables, wanted);
    for (const std::string* path : {&plan.o.csv, &plan.o.json, &plan.o.md})
      if (!path->empty()) check_writable(*path);
    const DeviceInfo dev = query_device();
    if (by_rule) detail::add_rule_stages(plan, tables, all, *spec.size_rule, sizes, wanted);
    detail::drop_unfit_stages(plan);
    if (sizes.empty()) return detail::run_ladder(spec, plan, dev, argc, argv);
    return detail::size_ladder(spec, plan, dev, sizes, detail::small_input_timing(plan.o, flags), argc, argv);
  });
}

}  // namespace harness
