// The program histogram_stage_8: stage 7's lane-column kernel on a merge-balanced grid (about
// sqrt(n / bins) blocks, at most one wave). The stage -- its grid rule, its launch, what changed
// against stage 7 -- is in histogram_stage_8_balanced_grid.cuh; the kernel is stage 7's, in
// histogram_stage_7_lane_columns.cuh. It is compiled once, in the chapter's library ch08_histogram
// (ch08_histogram_stages.cu), which this program links.
#include "ch08_histogram_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::histogram_stage_8_program());
}
