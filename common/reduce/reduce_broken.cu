// The program reduce_broken: a deliberately broken reduction, `--bug drop-one|write-nothing|
// count-twice`, run through the same stage program every chapter uses. It must print
// "verify:     FAIL" and exit 1 for every bug; the selftest.* tests insist on it.
#include "broken_reduce.cuh"

int main(int argc, char** argv) {
  using harness::ReduceBug;
  harness::StageProgram<harness::Reduce> program;
  program.variants = {harness::broken_reduce_stage<ReduceBug::drop_one>(),
                      harness::broken_reduce_stage<ReduceBug::write_nothing>(),
                      harness::broken_reduce_stage<ReduceBug::count_twice>()};
  program.variant_flag = "--bug";
  program.variant_names = {"drop-one", "write-nothing", "count-twice"};
  program.variant_help = "Which bug the reduction has";
  return harness::stage_main(argc, argv, program);
}
