#include "ladder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "cub_reduce.hpp"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "measure.hpp"

namespace harness {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::vector<std::string> split_csv_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

}  // namespace

int ladder_main(int argc, char** argv, const LadderSpec& spec) {
  CLI::App app{spec.title, spec.program};
  RunOptions o;
  o.max_seconds = 10;
  OptionSet which;
  which.op = spec.with_op;
  which.profile = false;
  which.md = true;
  add_run_options(app, o, which);
  std::string only;
  app.add_option("--stages", only, "Run only these stages (comma-separated names)");
  if (auto rc = parse_command_line(app, o, argc, argv)) return *rc;

  try {
    const DType type = parse_dtype(o.type);
    const Op op = parse_op(o.op);
    const Dist dist = parse_dist(o.dist);
    if (!is_power_of_two(o.block) || o.block < 32 || o.block > 1024)
      throw UsageError("--block " + std::to_string(o.block) +
                       " is not supported: it must be a power of two from 32 to 1024");
    std::vector<const ReduceImpl*> stages;
    const auto wanted = split_csv_list(only);
    for (const auto& w : wanted) {
      const bool known = std::any_of(spec.stages.begin(), spec.stages.end(),
                                     [&](const ReduceImpl& s) { return s.name == w; });
      if (!known) throw UsageError("--stages: unknown stage '" + w + "'");
    }
    for (const auto& s : spec.stages) {
      const bool supported = std::count(s.types.begin(), s.types.end(), type) &&
                             std::count(s.ops.begin(), s.ops.end(), op);
      const bool picked = wanted.empty() || std::count(wanted.begin(), wanted.end(), s.name);
      if (supported && picked) stages.push_back(&s);
    }
    if (stages.empty()) throw UsageError("no stage supports this type and operator");

    for (const std::string* path : {&o.csv, &o.json, &o.md})
      if (!path->empty()) check_writable(*path);
    const DeviceInfo dev = query_device();
    Stream stream;
    ReduceSession session = ReduceSession::generate(type, op, o.n, dist, o.seed, stream.get());
    TimingOptions t;
    t.warmup = o.warmup;
    t.iters = o.iters;
    t.flush_l2 = !o.no_flush;
    t.max_seconds = o.max_seconds;

    auto stage_block = [&](const ReduceImpl& s) { return std::clamp(o.block, s.min_block, s.max_block); };
    std::fprintf(stderr, "[%s] %s, n = %zu %s, op %s\n", spec.program.c_str(), dev.name.c_str(),
                 o.n, dtype_name(type), op_name(op));

    // The baseline first, so every stage can be read as a ratio to it. Stages whose int sum has an
    // int64 output are compared with the int64 CUB baseline.
    const bool wide = type == DType::i32 && op == Op::sum && spec.wide_int_baseline.launch &&
                      std::any_of(stages.begin(), stages.end(), [&](const ReduceImpl* s) {
                        return output_type(*s, type, op) == DType::i64;
                      });
    const ReduceImpl& base = wide ? spec.wide_int_baseline : spec.baseline;
    std::fprintf(stderr, "  timing %s\n", base.name.c_str());
    const Measurement cub = measure_stage(base, session, 256, 0, t, dev);

    std::vector<Measurement> rows;
    for (const ReduceImpl* s : stages) {
      std::fprintf(stderr, "  timing %s\n", s->name.c_str());
      rows.push_back(measure_stage(*s, session, stage_block(*s), 0, t, dev));
    }

    // The copy ceiling: read and write every input byte once.
    double copy_ms = 0;
    const std::size_t bytes = session.input_bytes();
    if (bytes > 0) {
      ensure_device_memory(bytes, "the copy ceiling's destination");
      DeviceBuffer dst(bytes);
      copy_ms = time_on_gpu([&](cudaStream_t st) { copy_ceiling(dst.data(), session.input(), bytes, st); },
                            t, stream.get(), dev.l2_bytes).median_ms;
    }

    // Table and records.
    std::vector<std::vector<std::string>> table;
    std::vector<Record> records;
    bool all_ok = cub.check.ok;
    const double first_ms = rows.front().time.median_ms;
    auto add_row = [&](const Measurement& m, const std::string& idx, const std::string& change,
                       double step, double total, double vs_cub) {
      table.push_back({idx, "`" + m.stage + "`", change, fixed(m.time.median_ms, 4),
                       fixed(m.gb_per_s, 1), fixed(m.pct_peak_bw, 1),
                       step > 0 ? fixed(step, 2) + "x" : "", total > 0 ? fixed(total, 2) + "x" : "",
                       fixed(vs_cub, 2), m.check.ok ? "yes" : "**NO**"});
      Record r = measurement_record(m);
      r.add("label", m.label).add("step_speedup", step).add("total_speedup", total).add("vs_cub", vs_cub)
          .add("device", dev.name);
      records.push_back(std::move(r));
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Measurement& m = rows[i];
      all_ok = all_ok && m.check.ok;
      const double step = i == 0 ? 1.0 : rows[i - 1].time.median_ms / m.time.median_ms;
      add_row(m, std::to_string(i), stages[i]->label, step, first_ms / m.time.median_ms,
              cub.time.median_ms / m.time.median_ms);
    }
    add_row(cub, "-", "library baseline", 0, first_ms / cub.time.median_ms, 1.0);
    if (copy_ms > 0) {
      const double copy_gbs = gigabytes_per_second(2.0 * bytes, copy_ms);
      table.push_back({"-", "copy (D2D)", "ceiling: reads and writes every byte (GB/s counts both)",
                       fixed(copy_ms, 4), fixed(copy_gbs, 1),
                       fixed(100.0 * copy_gbs * 1e9 / dev.peak_bw_bytes_per_s, 1), "", "", "", "-"});
      Record r;
      r.add("stage", std::string("copy"))
          .add("n", static_cast<long long>(o.n))
          .add("dtype", std::string(dtype_name(type)))
          .add("op", std::string("copy"))
          .add("block", 0LL).add("grid", 0LL).add("iters", static_cast<long long>(t.iters))
          .add("ms_median", copy_ms).add("ms_min", copy_ms).add("gb_per_s", copy_gbs)
          .add("gflop_per_s", 0.0).add("pct_peak_bw", 100.0 * copy_gbs * 1e9 / dev.peak_bw_bytes_per_s)
          .add("verified", true).add("abs_err", 0.0).add("bound", 0.0).add("label", std::string("copy ceiling"))
          .add("step_speedup", 0.0).add("total_speedup", 0.0).add("vs_cub", cub.time.median_ms / copy_ms)
          .add("device", dev.name);
      records.push_back(std::move(r));
    }

    std::ostringstream md;
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    md << "## " << spec.title << "\n\n"
       << "- device: " << dev.summary() << "\n"
       << "- input: n = " << o.n << " " << dtype_name(type) << " (" << fixed(bytes / 1e6, 1)
       << " MB), op " << op_name(op) << ", dist " << o.dist << ", seed " << o.seed << "\n"
       << "- timing: median of up to " << t.iters << " runs after " << t.warmup
       << " warm-up, CUDA events, L2 " << (t.flush_l2 ? "flushed" : "warm") << " between runs; block "
       << o.block << " (or the stage's minimum)\n"
       << "- command: `" << command_line(argc, argv) << "` (" << date << ")\n\n"
       << markdown_table({"#", "stage", "what changed", "ms (median)", "GB/s", "% peak", "step",
                          "total", "vs CUB", "verified"},
                         table)
       << "\nGB/s = input bytes / median time (1e9 B/s); `vs CUB` = CUB's time / the stage's time.\n";
    std::cout << md.str();
    if (!o.md.empty()) write_text_file(o.md, md.str());
    if (!o.csv.empty()) {
      std::ostringstream os;
      write_csv(os, records);
      write_text_file(o.csv, os.str());
    }
    if (!o.json.empty()) write_text_file(o.json, to_json(records));
    for (const auto& m : rows)
      if (!m.check.ok) std::cerr << m.stage << ": verification FAILED: " << m.check.message << "\n";
    return all_ok ? 0 : kExitFailure;
  } catch (const NoGpuError& e) {
    std::cout << spec.program << ": " << e.what() << ". Nothing was run: the ladder needs an NVIDIA GPU.\n";
    return kExitNoGpu;
  } catch (const UsageError& e) {
    std::cerr << spec.program << ": error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << spec.program << ": failed: " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace harness
