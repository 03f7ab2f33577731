// The program reduce_kernel_1: stage 1 of chapter 7, checked, timed and reported by the harness.
// The stage -- its kernel, how it is launched, what changed against stage 0 -- is in
// reduce_kernel_1_interleaved_modulo.cuh.
#include "reduce_kernel_1_interleaved_modulo.cuh"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_1_stage());
}
