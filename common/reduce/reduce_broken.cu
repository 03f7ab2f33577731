// The program reduce_broken: a deliberately broken reduction, `--bug skip-first|drop-last|
// drop-last-3|skip-block-firsts|write-nothing|count-twice`, run through the same stage program
// every chapter uses. It must print "verify:     FAIL" and exit 1 for every bug, at every n and
// seed; the selftest.* tests insist on it.
#include "broken_reduce.cuh"

int main(int argc, char** argv) {
  const harness::VariantFlag bug{"--bug", harness::reduce_bug_names(), "Which bug the reduction has"};
  return harness::stage_main(argc, argv, harness::program_by_flag(bug, harness::broken_reduce_stages()));
}
