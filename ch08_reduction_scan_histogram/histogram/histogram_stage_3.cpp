// The program histogram_stage_3: chapter 8's histogram stage 3 (uint8, int or float samples, any
// bin count the stage fits), checked, timed and reported by the harness. The stage -- how it is
// launched, what changed against the stage before -- is in histogram_stage_3_coarsened.cuh; the
// kernel it launches is stage 2's, in histogram_stage_2_per_warp.cuh. Both are compiled once, in
// the chapter's library ch08_histogram (ch08_histogram_stages.cu), which this program links.
#include "ch08_histogram_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::histogram_stage_3_program());
}
