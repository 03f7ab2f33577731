// The program histogram_stage_5: chapter 8's histogram stage 5 (uint8, int or float samples, any
// bin count the stage fits), checked, timed and reported by the harness. The stage -- its kernel,
// how it is launched, what changed against the stage before -- is in histogram_stage_5_thread_counters.cuh.
#include "histogram_stage_5_thread_counters.cuh"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::histogram_stage_5_stage());
}
