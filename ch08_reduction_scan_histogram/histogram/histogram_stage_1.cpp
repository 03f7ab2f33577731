// The program histogram_stage_1: the chapter's privatised histogram. `--skip-empty on|off` (default
// on, the chapter's code) picks the fold with or without the empty-bin test, so exercise 4 is
// answered by running both. The stage -- its kernel, how it is launched, what changed against
// stage 0 -- is in histogram_stage_1_privatised.cuh. It is compiled once, in the chapter's library
// ch08_histogram (ch08_histogram_stages.cu), which this program links.
#include "ch08_histogram_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::histogram_stage_1_program());
}
