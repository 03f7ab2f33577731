// The program reduce_stage_10: chapter 8's reduction stage 10 (stage 7 with CUB's schedule: even
// shares of whole tiles over up to five waves of blocks), checked, timed and reported by the harness.
// The stage -- its kernel, its one launch and its grid, what changed against stage 7 -- is in
// reduce_stage_10_even_shares.cuh. It is compiled once, in the chapter's library ch08_reduce
// (ch08_reduce_stages.cu), which this program links.
#include "ch08_reduce_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::reduce_stage_10_program());
}
