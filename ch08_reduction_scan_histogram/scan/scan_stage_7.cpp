// The program scan_stage_7: chapter 8's scan stage 7 (exclusive or inclusive, float, double or
// int, any n), checked, timed and reported by the harness. `--tuning` picks one of the stage's
// untried knobs (default: the stage as the ladder runs it; backoff, occ62, occ75, backoff-occ62),
// so that each can be measured against the default in one run. The stage -- its kernels, how they
// are launched, what changed against stage 6, the knobs -- is in scan_stage_7_streaming.cuh. It is
// compiled once, in the chapter's library ch08_scan (ch08_scan_stages.cu), which this program links.
#include "ch08_scan_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::scan_stage_7_program());
}
