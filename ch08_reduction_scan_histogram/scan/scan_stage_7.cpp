// The program scan_stage_7: chapter 8's scan stage 7 (exclusive or inclusive, float, double or int,
// any n), checked, timed and reported by the harness. `--tuning` picks one of the stage's knobs
// (default: the stage as the ladder runs it; backoff, occ62, occ75, backoff-occ62), so that each
// can be measured against the default in one run; ch08's profiling.md ("Stage 7's knobs") has them
// measured at 2^28 floats on the H200 (none helps). The stage -- how it is launched, what changed
// against stage 6, the knobs -- is in scan_stage_7_streaming.cuh; the kernel it launches is stage
// 5's (scan_single_pass_vec), in scan_stage_5_vectorized.cuh. Both are compiled once, in the
// chapter's library ch08_scan (ch08_scan_stages.cu), which this program links.
#include "ch08_scan_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::scan_stage_7_program());
}
