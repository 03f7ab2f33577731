// The program scan_broken: a deliberately broken scan, `--bug shifted|skip-first|drop-last|
// drop-last-3|skip-block-firsts`, run through the same stage program every chapter uses. It must
// print "verify:     FAIL" and exit 1 for every bug, at every n and seed (the selftest.* tests).
#include "scan/broken_scan.hpp"

int main(int argc, char** argv) {
  harness::StageProgram<harness::Scan> program;
  program.variants = harness::broken_scan_stages();
  program.variant_flag = "--bug";
  program.variant_names = harness::scan_bug_names();
  program.variant_help = "Which bug the scan has";
  return harness::stage_main(argc, argv, program);
}
