// scan_block_blelloch: the chapter's Blelloch scan of one block (section 8.7).
//   scan_block_blelloch --n 1000 --block 1024          time and verify one block's scan
//   scan_block_blelloch --trace                        exercise ch08/03: [1, 2, 3, 4] level by level
//   scan_block_blelloch --trace 3,1,7,0,4,1,6,3 --type int
//   scan_block_blelloch --trace -1,nan,2.5             negative values and NaN (float and double)
// The stage -- its kernel, the traced form, how it is launched -- is in scan_block_blelloch.cuh. It
// is compiled once, in the chapter's library ch08_scan (ch08_scan_stages.cu), which this program links.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "ch08_scan_stages.hpp"
#include "cli.hpp"
#include "device_info.hpp"
#include "dtype.hpp"
#include "errors.hpp"
#include "program.hpp"

namespace {

// One value of the --trace list as `type` holds it: a decimal number, or for float and double also
// nan, inf and -inf. A value the type cannot hold (an int past 2^31 - 1, 1e10 as an int, 1e39 as a
// float, 2.5 as an int) is refused.
double trace_value(const std::string& text, harness::DType type) {
  const std::string what = "--trace";
  const bool floating = type != harness::DType::i32;
  if (floating && (text == "nan" || text == "inf" || text == "-inf"))
    return text == "nan" ? std::numeric_limits<double>::quiet_NaN()
                         : (text[0] == '-' ? -1 : 1) * std::numeric_limits<double>::infinity();
  const double v = harness::parse_decimal(text, what);
  if (type == harness::DType::f32 && std::fabs(v) > std::numeric_limits<float>::max())
    throw harness::UsageError(what + ": " + text + " does not fit in a float");
  if (type == harness::DType::i32 &&
      (v != std::floor(v) || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()))
    throw harness::UsageError(what + ": " + text + " is not an int (a whole number from -2^31 to 2^31 - 1)");
  return v;
}

// --trace [v0,v1,...] [--type float|double|int]: the level-by-level trace (exercise ch08/03).
int trace_main(int argc, char** argv) {
  CLI::App app{"The one-block Blelloch scan of a few values, level by level, on the GPU and in the host model "
               "(chapter 8, exercise ch08/03)",
               "scan_block_blelloch --trace"};
  std::string list, type_text = "float";
  app.add_option("--trace", list,
                 "Values, comma-separated (default 1,2,3,4); float and double also take nan, inf and -inf "
                 "(a list that starts with -inf: --trace=-inf,1)")
      ->expected(0, 1);
  app.add_option("--type", type_text, "Element type: float, double or int")
      ->check(CLI::IsMember({"float", "double", "int", "f32", "f64", "i32"}))
      ->capture_default_str();
  if (auto rc = harness::parse_flags(app, argc, argv)) return *rc;
  return harness::run_program("scan_block_blelloch", [&]() -> int {
    const harness::DType type = harness::parse_dtype(type_text);
    std::vector<double> values{1, 2, 3, 4};
    if (!list.empty()) {
      values.clear();
      std::stringstream items(list + ",");
      for (std::string v; std::getline(items, v, ',');) values.push_back(trace_value(v, type));
    }
    if (values.size() > 1024) throw harness::UsageError("--trace takes 1 to 1024 values (one block); got " + std::to_string(values.size()));
    if (type == harness::DType::i32) {  // an int scan must not overflow: every partial sum fits
      double total = 0;
      for (double v : values) total += std::fabs(v);
      if (total > std::numeric_limits<int>::max())
        throw harness::UsageError("--trace: the values' magnitudes add up past 2^31 - 1, so a partial sum "
                                  "could overflow an int; use smaller values or --type double");
    }
    harness::query_device();  // without a GPU: a plain message and exit 77, as every program
    return ch08::blelloch_trace(type, values);
  });
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--trace") == 0 || std::strncmp(argv[i], "--trace=", 8) == 0) return trace_main(argc, argv);
  return harness::stage_main(argc, argv, ch08::scan_block_blelloch_program());
}
