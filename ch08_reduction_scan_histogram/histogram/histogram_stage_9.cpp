// The program histogram_stage_9: stage 4's per-warp kernel on stage 8's merge-balanced grid (about
// sqrt(n / bins) blocks, at most one wave). The stage -- its grid rule, its launch, what changed
// against stage 8 -- is in histogram_stage_9_balanced_per_warp.cuh; the kernel is stage 4's, in
// histogram_stage_4_vector_loads.cuh. It is compiled once, in the chapter's library ch08_histogram
// (ch08_histogram_stages.cu), which this program links.
#include "ch08_histogram_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::histogram_stage_9_program());
}
