// The program reduce_stage_7: chapter 8's reduction stage 7 (sum, max or min over float, double
// or int, in one launch at every size), checked, timed and reported by the harness. The stage -- its
// kernel, its one launch and its grid, what changed against stage 5 -- is in
// reduce_stage_7_one_launch.cuh. It is compiled once, in the chapter's library ch08_reduce
// (ch08_reduce_stages.cu), which this program links.
#include "ch08_reduce_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::reduce_stage_7_program());
}
