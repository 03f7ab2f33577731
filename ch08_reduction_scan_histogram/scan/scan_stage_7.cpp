// The program scan_stage_7: chapter 8's scan stage 7 (exclusive or inclusive, float, double or
// int, any n), checked, timed and reported by the harness. `--tuning` picks one of the stage's
// untried knobs (default: the stage as the ladder runs it; backoff, occ62, occ75, backoff-occ62),
// so that each can be measured against the default in one run. The stage -- its kernels, how they
// are launched, what changed against stage 6, the knobs -- is in scan_stage_7_streaming.cuh. It is
// compiled once, in the chapter's library ch08_scan (ch08_scan_stages.cu), which this program links.
#include "ch08_scan_stages.hpp"

int main(int argc, char** argv) {
  harness::StageProgram<harness::Scan> program;
  program.variants = ch08::scan_stage_7_knob_stages();
  program.variant_flag = "--tuning";
  program.variant_names = ch08::scan_stage_7_knob_names();
  program.variant_help = "Stage 7 as in the ladder (default), or with a knob: look-back backoff (backoff), "
                         "at most 48 registers for 62.5% occupancy (occ62), at most 40 for 75% (occ75), both "
                         "backoff and occ62 (backoff-occ62)";
  return harness::stage_main(argc, argv, program);
}
