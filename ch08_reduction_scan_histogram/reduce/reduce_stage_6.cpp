// The program reduce_stage_6: chapter 8's reduction stage 6, the binned sum of float or double
// (the same bits for any block size, grid and GPU), checked against the CPU's binned sum bit for
// bit, timed and reported by the harness. The stage -- its kernel, how its two passes are launched,
// what changed against stage 5 -- is in reduce_stage_6_binned.cuh. It is compiled once, in the
// chapter's library ch08_reduce (ch08_reduce_stages.cu), which this program links. Int sums, max and
// min are refused with exit code 2 (reduce_stage_5 runs them).
#include "ch08_reduce_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::reduce_stage_6_program());
}
