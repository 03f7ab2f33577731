// The program histogram_stage_7: lane-column shared histograms (a warp's atomics never share a
// bank). `--copies 1|2|4` (default 1, the ladder's) splits the block's warps over that many copies,
// for measuring hot-bin data; a block holds at most block / 32 copies. `--copies 4` needs 128 KiB of
// shared memory per block at 256 bins: without --block it runs at block 256 (4 copies) on an A100 or
// an H100/H200 and at block 64 (2 copies) on a T4 or an RTX card. The stage -- its kernel, how it is
// launched, what changed against stage 4 -- is in histogram_stage_7_lane_columns.cuh. It is compiled once, in the chapter's library
// ch08_histogram (ch08_histogram_stages.cu), which this program links.
#include "ch08_histogram_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::histogram_stage_7_program());
}
