// The program reduce_kernel_0: stage 0 of chapter 7, checked, timed and reported by the harness.
// The stage -- its kernel, how it is launched, the naive start -- is in reduce_kernel_0_atomic.cuh.
// It is compiled once, in the chapter's library ch07_stages (ch07_stages.cu), which this program
// links.
#include "ch07_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_0_program());
}
