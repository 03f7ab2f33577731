// The program histogram_stage_10: stage 9 in one launch (no memset of the bins: one block stores its
// counts, several add into a workspace histogram that the last block copies out and zeroes). The
// stage -- its kernel, its launch, what changed against stage 9 -- is in
// histogram_stage_10_one_launch.cuh. It is compiled once, in the chapter's library ch08_histogram
// (ch08_histogram_stages.cu), which this program links.
#include "ch08_histogram_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::histogram_stage_10_program());
}
