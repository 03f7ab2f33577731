// The program histogram_broken: a deliberately broken histogram, `--bug lose-one|skip-first|
// drop-last|drop-last-3|skip-block-firsts`, run through the same stage program as every stage. It
// must print "verify:     FAIL" and exit 1 for every bug, at every n and seed (the selftest.* tests).
#include "broken_histogram.cuh"
#include "drivers.hpp"

int main(int argc, char** argv) {
  harness::StageProgram<harness::Histogram> program;
  program.variants = harness::broken_histogram_stages();
  program.variant_flag = "--bug";
  program.variant_names = harness::histogram_bug_names();
  program.variant_help = "Which bug the histogram has";
  return harness::stage_main(argc, argv, program);
}
