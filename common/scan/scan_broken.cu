// The program scan_broken: a deliberately broken scan, `--bug shifted|skip-first|drop-last|
// drop-last-3|skip-block-firsts`, run through the same stage program every chapter uses. It must
// print "verify:     FAIL" and exit 1 for every bug, at every n and seed (the selftest.* tests).
#include "scan/broken_scan.hpp"

int main(int argc, char** argv) {
  const harness::VariantFlag bug{"--bug", harness::scan_bug_names(), "Which bug the scan has"};
  return harness::stage_main(argc, argv, harness::program_by_flag(bug, harness::broken_scan_stages()));
}
