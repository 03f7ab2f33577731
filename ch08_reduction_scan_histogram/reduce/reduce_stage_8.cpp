// The program reduce_stage_8: chapter 8's reduction stage 8 (stage 7's one launch, with tagged
// partials and no fence; sum, max or min over float, double or int), checked, timed and reported by
// the harness. The stage -- its kernel, its one launch, its run word and slots, what changed against
// stage 7 -- is in reduce_stage_8_tagged_finish.cuh. It is compiled once, in the chapter's library
// ch08_reduce (ch08_reduce_stages.cu), which this program links.
#include "ch08_reduce_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::reduce_stage_8_program());
}
