// The program reduce_broken: a deliberately broken reduction, `--bug skip-first|drop-last|
// drop-last-3|skip-block-firsts|write-nothing|count-twice`, run through the same stage program
// every chapter uses. It must print "verify:     FAIL" and exit 1 for every bug, at every n and
// seed; the selftest.* tests insist on it.
#include "broken_reduce.cuh"

int main(int argc, char** argv) {
  harness::StageProgram<harness::Reduce> program;
  program.variants = harness::broken_reduce_stages();
  program.variant_flag = "--bug";
  program.variant_names = harness::reduce_bug_names();
  program.variant_help = "Which bug the reduction has";
  return harness::stage_main(argc, argv, program);
}
