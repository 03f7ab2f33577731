// The program histogram_stage_2: chapter 8's histogram stage 2 (uint8, int or float samples, any
// bin count the stage fits), checked, timed and reported by the harness. The stage -- its kernel,
// how it is launched, what changed against the stage before -- is in histogram_stage_2_per_warp.cuh.
#include "histogram_stage_2_per_warp.cuh"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::histogram_stage_2_stage());
}
