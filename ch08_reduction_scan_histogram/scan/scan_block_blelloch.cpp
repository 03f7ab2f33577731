// scan_block_blelloch: the chapter's Blelloch scan of one block (section 8.7).
//   scan_block_blelloch --n 1000 --block 1024          time and verify one block's scan
//   scan_block_blelloch --trace                        exercise 3: [1, 2, 3, 4] level by level
//   scan_block_blelloch --trace 3,1,7,0,4,1,6,3 --type int
// The stage -- its kernel, the traced form, how it is launched -- is in scan_block_blelloch.cuh. It
// is compiled once, in the chapter's library ch08_scan (ch08_scan_stages.cu), which this program links.
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "ch08_scan_stages.hpp"
#include "device_info.hpp"
#include "dtype.hpp"
#include "errors.hpp"
#include "program.hpp"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--trace") != 0) continue;
    // --trace [v0,v1,...] [--type float|double|int]; without values, exercise 3's [1, 2, 3, 4].
    return harness::run_program("scan_block_blelloch", [&]() -> int {
      harness::query_device();  // without a GPU: a plain message and exit 77, as every program
      std::vector<double> values{1, 2, 3, 4};
      if (i + 1 < argc && argv[i + 1][0] != '-') {
        values.clear();
        std::stringstream list(argv[i + 1]);
        for (std::string v; std::getline(list, v, ',');) {
          try {
            values.push_back(std::stod(v));
          } catch (const std::exception&) {
            throw harness::UsageError("--trace: '" + v + "' is not a number");
          }
        }
      }
      harness::DType type = harness::DType::f32;
      for (int j = 1; j + 1 < argc; ++j)
        if (std::strcmp(argv[j], "--type") == 0) type = harness::parse_dtype(argv[j + 1]);
      return ch08::blelloch_trace(type, values);
    });
  }
  return harness::stage_main(argc, argv, ch08::scan_stage_named("scan_block_blelloch"));
}
