// The program histogram_broken: a deliberately broken histogram, `--bug lose-one|skip-first|
// drop-last|drop-last-3|skip-block-firsts`, run through the same stage program as every stage. It
// must print "verify:     FAIL" and exit 1 for every bug, at every n and seed (the selftest.* tests).
#include "broken_histogram.cuh"
#include "drivers.hpp"

int main(int argc, char** argv) {
  const harness::VariantFlag bug{"--bug", harness::histogram_bug_names(), "Which bug the histogram has"};
  return harness::stage_main(argc, argv, harness::program_by_flag(bug, harness::broken_histogram_stages()));
}
