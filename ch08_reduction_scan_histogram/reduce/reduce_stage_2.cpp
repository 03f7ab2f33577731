// The program reduce_stage_2: chapter 8's reduction stage 2 (sum, max or min over float, double or
// int), checked, timed and reported by the harness. The stage -- its kernel, how its two passes are
// launched, what changed against stage 1 -- is in reduce_stage_2_coarsened.cuh. It is compiled
// once, in the chapter's library ch08_reduce (ch08_reduce_stages.cu), which this program links.
#include "ch08_reduce_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::reduce_stage_2_program());
}
