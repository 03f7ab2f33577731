#include "cli.hpp"

#include <cctype>
#include <iostream>

#include "errors.hpp"

namespace harness {

namespace {

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 19) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

std::size_t parse_size(const std::string& text) {
  const std::string bad = "malformed size '" + text +
                          "': expected an integer, 2^K, or 2^K+M / 2^K-M (e.g. 1000, 2^24, 2^31+1)";
  if (all_digits(text)) {
    const unsigned long long v = std::stoull(text);
    if (v > (1ull << 62)) throw UsageError("size " + text + " is too large");
    return static_cast<std::size_t>(v);
  }
  if (text.rfind("2^", 0) != 0) throw UsageError(bad);
  const std::size_t sign = text.find_first_of("+-", 2);
  const std::string exp = text.substr(2, sign == std::string::npos ? std::string::npos : sign - 2);
  if (!all_digits(exp) || exp.size() > 2) throw UsageError(bad);
  const int k = std::stoi(exp);
  if (k > 62) throw UsageError("size " + text + " is too large (at most 2^62)");
  unsigned long long v = 1ull << k;
  if (sign != std::string::npos) {
    const std::string rest = text.substr(sign + 1);
    if (!all_digits(rest)) throw UsageError(bad);
    const unsigned long long m = std::stoull(rest);
    if (text[sign] == '+') {
      if (m > (1ull << 62)) throw UsageError("size " + text + " is too large");
      v += m;
    } else {
      if (m > v) throw UsageError("size " + text + " is negative");
      v -= m;
    }
  }
  return static_cast<std::size_t>(v);
}

void add_run_options(CLI::App& app, RunOptions& o, const OptionSet& which) {
  auto size_check = CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          parse_size(s);
          return {};
        } catch (const UsageError& e) {
          return e.what();
        }
      },
      "SIZE", "size");
  app.add_option("--n", o.n_text, "Number of elements: 1000, 2^24, 2^31+1 ...")
      ->check(size_check)
      ->capture_default_str();
  app.add_option("--block", o.block, "Threads per block: a power of two, 32..1024")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  if (which.grid)
    app.add_option("--grid", o.grid, "Blocks in the grid (0: the stage chooses)")
        ->check(CLI::Range(std::size_t{0}, std::size_t{2147483647}))
        ->capture_default_str();
  app.add_option("--type", o.type, "Element type")
      ->check(CLI::IsMember({"float", "double", "int", "f32", "f64", "i32"}))
      ->capture_default_str();
  if (which.op)
    app.add_option("--op", o.op, "Reduction operator")
        ->check(CLI::IsMember({"sum", "max", "min"}))
        ->capture_default_str();
  app.add_option("--dist", o.dist,
                 "Input distribution: signed [-1,1), uniform [0,1), skewed, or exact (small "
                 "integers whose every partial sum is exact)")
      ->check(CLI::IsMember({"signed", "uniform", "skewed", "exact"}))
      ->capture_default_str();
  app.add_option("--iters", o.iters, "Timed repetitions (median reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed runs before timing")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the input generator")->capture_default_str();
  app.add_option("--max-seconds", o.max_seconds,
                 "Cap the timed repetitions of a slow stage to about this many seconds (0: no cap)")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  app.add_flag("--no-flush", o.no_flush, "Do not flush the L2 cache between timed runs");
  app.add_option("--csv", o.csv, "Write the results as CSV to this file");
  app.add_option("--json", o.json, "Write the results as JSON to this file");
  if (which.md) app.add_option("--md", o.md, "Write the Markdown report to this file");
  if (which.profile)
    app.add_flag("--profile", o.profile,
                 "One warm-up, then exactly one launch inside a profiler range (for ncu "
                 "--profile-from-start off)");
}

std::optional<int> parse_command_line(CLI::App& app, RunOptions& o, int argc,
                                      const char* const* argv) {
  try {
    app.parse(argc, argv);
    o.n = parse_size(o.n_text);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": error: " << e.what() << "\nRun with --help for usage.\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << app.get_name() << ": error: " << e.what() << "\n";
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace harness
