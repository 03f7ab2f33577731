// The program reduce_kernel_8: stage 8 of chapter 7, checked, timed and reported by the harness.
// The stage -- its kernel, how it is launched, what changed against stage 7 -- is in
// reduce_kernel_8_coarsened.cuh.
#include "reduce_kernel_8_coarsened.cuh"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_8_stage());
}
