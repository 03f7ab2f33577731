// The program scan_stage_7: chapter 8's scan stage 7 (exclusive or inclusive, float, double or
// int, any n), checked, timed and reported by the harness. The stage -- its kernels, how they are
// launched, what changed against stage 6 -- is in scan_stage_7_streaming.cuh.
#include "scan_stage_7_streaming.cuh"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::scan_stage_7_stage());
}
