#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "errors.hpp"

namespace harness {

namespace {

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 19) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// A decimal integer as people write it: "0", or digits without a leading zero, after a '-' if
// `negative_ok`. CLI11 itself reads integers in base 0, so that "010" is 8 and "0x10" is 16, and an
// unsigned option takes "-1" as 2^64 - 1.
bool is_decimal_integer(const std::string& s, bool negative_ok) {
  const std::size_t start = negative_ok && !s.empty() && s[0] == '-' ? 1 : 0;
  const std::string digits = s.substr(start);  // too many digits for the type: CLI11 refuses it
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  return digits == "0" || digits[0] != '0';
}

// A finite decimal number: an optional '-', an integer part as above, an optional fraction and an
// optional exponent ("0.5", "-2", "1e-3"). No "nan", "inf", hexadecimal floats or trailing text.
bool is_decimal_number(const std::string& s) {
  std::size_t i = s.size() > 0 && s[0] == '-' ? 1 : 0;
  const std::size_t int_start = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == int_start || (s[int_start] == '0' && i - int_start > 1)) return false;
  if (i < s.size() && s[i] == '.') {
    const std::size_t frac = ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == frac) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t exp = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == exp) return false;
  }
  return i == s.size();
}

// Why `text` is not a finite decimal number, or "" when it is: the one message both the option
// check and parse_decimal give.
std::string decimal_number_problem(const std::string& text) {
  return is_decimal_number(text) ? std::string() : "'" + text + "' is not a finite decimal number (e.g. 2, 0.5, 1e-3)";
}

}  // namespace

double parse_decimal(const std::string& text, const std::string& what) {
  if (const std::string why = decimal_number_problem(text); !why.empty()) throw UsageError(what + ": " + why);
  const double v = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(v)) throw UsageError(what + ": '" + text + "' is too large");
  return v;
}

void require_decimal_numbers(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_size() == 0) continue;  // a flag: takes no value
    const std::string type = opt->get_type_name();
    const auto is = [&](const char* name) { return type.rfind(name, 0) == 0; };
    if (is("INT") || is("UINT")) {
      const bool negative_ok = is("INT");
      opt->check(CLI::Validator(
          [negative_ok](std::string& v) -> std::string {
            if (is_decimal_integer(v, negative_ok)) return {};
            return "'" + v + "' is not a " + (negative_ok ? "" : "non-negative ") +
                   "decimal integer (digits only, no leading zero" + (negative_ok ? "" : ", no sign") + ")";
          },
          ""));
    } else if (is("FLOAT")) {
      opt->check(CLI::Validator([](std::string& v) { return decimal_number_problem(v); }, ""));
    }
  }
}

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
  if (v > (1ull << 62)) throw UsageError("size " + text + " is too large (at most 2^62)");
  return static_cast<std::size_t>(v);
}

namespace {

// --n (a size in the 2^k+-m form), --block (the powers of two `which` allows) and --grid.
void add_shape_options(CLI::App& app, RunOptions& o, const OptionSet& which) {
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
  std::vector<std::string> blocks;
  for (int b = which.min_block; b <= which.max_block; b *= 2) blocks.push_back(std::to_string(b));
  app.add_option("--block", o.block,
                 "Threads per block: a power of two from " + blocks.front() + " to " + blocks.back())
      ->check(CLI::IsMember(blocks))
      ->capture_default_str();
  if (which.grid)
    app.add_option("--grid", o.grid, "Blocks in the grid (0: the stage chooses)")
        ->check(CLI::Range(std::size_t{0}, std::size_t{2147483647}))
        ->capture_default_str();
}

// --type (the types `which` allows, long and short spellings; a refusal names what to run instead)
// and --dist.
void add_data_options(CLI::App& app, RunOptions& o, const OptionSet& which) {
  std::vector<std::string> types = which.types;
  for (const std::string& t : which.types) {  // the short spellings parse_dtype also accepts
    if (t == "float") types.push_back("f32");
    if (t == "double") types.push_back("f64");
    if (t == "int") types.push_back("i32");
    if (t == "uint8") types.push_back("u8");
  }
  if (std::find(which.types.begin(), which.types.end(), o.type) == which.types.end())
    o.type = which.types.front();
  CLI::Option* type = app.add_option("--type", o.type, "Element type: " + CLI::detail::join(which.types, ", "));
  type->capture_default_str();
  if (which.types_instead.empty()) {
    type->check(CLI::IsMember(types));
  } else {  // the refusal names what to run instead
    const std::string accepted = CLI::detail::join(which.types, ", "), instead = which.types_instead;
    type->check(CLI::Validator(
        [types, accepted, instead](std::string& v) -> std::string {
          if (std::find(types.begin(), types.end(), v) != types.end()) return {};
          return "type " + v + " is not supported (" + accepted + "); run " + instead + " instead";
        },
        "TYPE", "type"));
  }
  o.dist = which.dists.front();
  app.add_option("--dist", o.dist, which.dist_help)
      ->check(CLI::IsMember(which.dists))
      ->capture_default_str();
}

// --iters, --warmup, --seed, --max-seconds, --no-flush, the output files and --profile.
void add_timing_options(CLI::App& app, RunOptions& o, const OptionSet& which) {
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

}  // namespace

void add_run_options(CLI::App& app, RunOptions& o, const OptionSet& which) {
  add_shape_options(app, o, which);
  add_data_options(app, o, which);
  add_timing_options(app, o, which);
}

std::vector<std::string> split_list(const std::string& text, const std::string& option) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  std::stringstream ss(text + ",");  // the "," makes a trailing empty item visible
  for (std::string item; std::getline(ss, item, ',');) {
    if (item.empty()) throw UsageError(option + ": an empty item in '" + text + "'");
    items.push_back(item);
  }
  return items;
}

std::vector<std::size_t> parse_size_list(const std::string& text) {
  std::vector<std::size_t> sizes;
  for (const std::string& item : split_list(text, "--sizes")) {
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
      sizes.push_back(parse_size(item));
    } else {
      const std::size_t from = parse_size(item.substr(0, dots));
      const std::size_t to = parse_size(item.substr(dots + 2));
      if (from == 0 || to < from)
        throw UsageError("the range '" + item + "' must go from a size above 0 up to one at least as large");
      for (std::size_t n = from; n <= to && sizes.size() <= 64; n *= 2) sizes.push_back(n);
    }
    if (sizes.size() > 64) throw UsageError("more than 64 sizes in '" + text + "'");
  }
  if (sizes.empty()) throw UsageError("no size in the list '" + text + "'");
  return sizes;
}

std::optional<int> parse_flags(CLI::App& app, int argc, const char* const* argv) {
  require_decimal_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": error: " << e.what() << "\nRun with --help for usage.\n";
    return kExitUsage;
  }
  return std::nullopt;
}

std::optional<int> parse_command_line(CLI::App& app, RunOptions& o, int argc,
                                      const char* const* argv) {
  if (auto rc = parse_flags(app, argc, argv)) return rc;
  const CLI::Option* block = app.get_option_no_throw("--block");  // programs without --block have none
  o.block_given = block != nullptr && block->count() > 0;
  try {
    o.n = parse_size(o.n_text);
  } catch (const UsageError& e) {
    std::cerr << app.get_name() << ": error: " << e.what() << "\n";
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace harness
