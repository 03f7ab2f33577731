// The program reduce_stage_4: chapter 8's reduction stage 4 (sum, max or min over float, double
// or int), checked, timed and reported by the harness. The stage -- its kernel, how its two passes
// are launched, what changed against stage 3 -- is in reduce_stage_4_block_reduce.cuh.
#include "reduce_stage_4_block_reduce.cuh"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::reduce_stage_4_stage());
}
