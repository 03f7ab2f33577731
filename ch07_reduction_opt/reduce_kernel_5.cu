// The program reduce_kernel_5: stage 5 of chapter 7, checked, timed and reported by the harness.
// The stage -- its kernel, how it is launched, what changed against stage 4 -- is in
// reduce_kernel_5_unrolled.cuh.
#include "reduce_kernel_5_unrolled.cuh"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_5_stage());
}
