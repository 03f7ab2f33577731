// The program scan_stage_6: chapter 8's scan stage 6 (exclusive or inclusive, float, double or int,
// any n), checked, timed and reported by the harness. The stage -- how it is launched, what changed
// against stage 5 -- is in scan_stage_6_more_items.cuh; the kernel it launches is stage 5's
// (scan_single_pass_vec), in scan_stage_5_vectorized.cuh. Both are compiled once, in the chapter's
// library ch08_scan (ch08_scan_stages.cu), which this program links.
#include "ch08_scan_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::scan_stage_6_program());
}
