// scan_ladder: every chapter-8 multi-block scan stage, cub::DeviceScan and a device-to-device copy
// (which moves the same bytes: n read, n written) on the same input in one run; a Markdown table on
// stdout, CSV / JSON / Markdown files on request. --inclusive for inclusive scans.
// `--stages auto` runs the stage the size rule names for the type, the settings and n
// (common/size_rule.hpp).
#include "ch08_scan_stages.hpp"
#include "size_rule.hpp"

int main(int argc, char** argv) {
  harness::LadderSpec<harness::Scan> spec;
  spec.program = "scan_ladder";
  spec.title = "Chapter 8 ladder: scan stages";
  spec.stages = ch08::all_scan_stages();
  spec.size_rule = &harness::scan_rule();
  return harness::ladder_main(argc, argv, spec);
}
