// The program reduce_kernel_10: stage 10 of chapter 7, checked, timed and reported by the harness.
// The stage -- how it is launched, what changed against stage 9 -- is in
// reduce_kernel_10_occupancy_grid.cuh; the kernel it launches is stage 9's, in
// reduce_kernel_9_vectorized.cuh. Both are compiled once, in the chapter's library ch07_stages
// (ch07_stages.cu), which this program links.
#include "ch07_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_10_program());
}
