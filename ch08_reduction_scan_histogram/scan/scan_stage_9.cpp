// The program scan_stage_9: chapter 8's scan stage 9, one launch per run for small inputs
// (exclusive or inclusive, float, double or int, any n), checked, timed and reported by the
// harness. The stage -- its kernel, how it is launched, what changed against stage 5 -- is in
// scan_stage_9_small_inputs.cuh. It is compiled once, in the chapter's library ch08_scan
// (ch08_scan_stages.cu), which this program links. For its times beside CUB's at small sizes:
// `scan_ladder --small`.
#include "ch08_scan_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::scan_stage_9_program());
}
