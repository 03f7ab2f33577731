// The program reduce_stage_4: chapter 8's reduction stage 4 (sum, max or min over float, double or
// int), checked, timed and reported by the harness. The stage -- its kernel, how its two passes are
// launched, what changed against stage 3 -- is in reduce_stage_4_block_reduce.cuh. It is compiled
// once, in the chapter's library ch08_reduce (ch08_reduce_stages.cu), which this program links.
#include "ch08_reduce_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::reduce_stage_4_program());
}
