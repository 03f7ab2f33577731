// reduce_barriers: barriers per block of each chapter-8 reduction stage, measured with the
// instrumented kernels (thread 0 of each block counts the __syncthreads() it passes) and compared
// with the arithmetic. Answers the chapter's exercise 1 by measurement. Prints a Markdown table;
// exit 0 when every measurement matches, 1 otherwise, 2 for bad flags, 77 without a GPU.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "barrier_count.hpp"
#include "cli.hpp"
#include "device_info.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "program.hpp"
#include "report.hpp"
#include "session.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Barriers per block of chapter 8's reduction stages, measured and by arithmetic",
               "reduce_barriers"};
  harness::RunOptions o;
  o.n_text = "2^20";
  std::vector<int> blocks{256, 512};
  app.add_option("--n", o.n_text, "Input elements for the measurement (2^20 default)")->capture_default_str();
  app.add_option("--blocks", blocks, "Block sizes to measure (powers of two, 32..1024)")
      ->check(CLI::IsMember({32, 64, 128, 256, 512, 1024}))
      ->capture_default_str();
  std::string md;
  app.add_option("--md", md, "Also write the Markdown table to this file");
  if (auto rc = harness::parse_command_line(app, o, argc, argv)) return *rc;
  return harness::run_program("reduce_barriers", [&]() -> int {
    if (o.n == 0) throw harness::UsageError("--n must be positive");
    const std::size_t bytes = harness::checked_bytes(o.n, sizeof(float), "--n " + o.n_text + " (float)");
    const harness::DeviceInfo dev = harness::query_device();
    harness::ensure_device_memory(bytes, "the input, " + std::to_string(o.n) + " floats,");
    std::vector<std::vector<std::string>> rows;
    bool all_match = true;
    const char* names[] = {"reduce_stage_0", "reduce_stage_1", "reduce_stage_2", "reduce_stage_3",
                           "reduce_stage_4", "reduce_stage_5"};
    const char* rule[] = {"0", "log2(TILE)", "log2(TILE)", "log2(TILE) - 5", "1", "1"};
    for (int stage = 0; stage <= 5; ++stage) {
      for (int block : blocks) {
        const ch08::BarrierCount c = ch08::measure_barriers(stage, block, o.n);
        const int expected = ch08::expected_barriers(stage, block);
        const bool match = c.min_per_block == c.max_per_block &&
                           c.min_per_block == static_cast<unsigned>(expected);
        all_match = all_match && match;
        std::string measured = std::to_string(c.min_per_block);
        if (c.max_per_block != c.min_per_block) measured += ".." + std::to_string(c.max_per_block);
        rows.push_back({std::string("`") + names[stage] + "`", std::to_string(block), rule[stage],
                        std::to_string(expected), measured, std::to_string(c.blocks),
                        match ? "yes" : "**NO**"});
      }
    }
    std::ostringstream out;
    out << "Barriers per block, first pass (device: " << dev.name << ", n = " << o.n
        << " floats, sum). The one-block second pass adds 11 barriers per reduction.\n\n"
        << harness::markdown_table({"stage", "TILE", "rule", "arithmetic", "measured (per block)",
                                    "blocks measured", "match"},
                                   rows);
    std::cout << out.str();
    if (!md.empty()) harness::write_text_file(md, out.str());
    return all_match ? 0 : harness::kExitFailure;
  });
}
