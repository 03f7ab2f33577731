// The program scan_stage_2: chapter 8's scan stage 2 (exclusive or inclusive, float, double or int,
// any n), checked, timed and reported by the harness. The stage -- its shared-memory layout, what
// changed against stage 1 -- is in scan_stage_2_padded.cuh; the kernels and the launch it runs with
// that layout are stage 1's, in scan_stage_1_three_pass.cuh (the tile scan, scan_tile_blelloch, in
// scan_block_blelloch.cuh). They are compiled once, in the chapter's library ch08_scan
// (ch08_scan_stages.cu), which this program links.
#include "ch08_scan_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::scan_stage_2_program());
}
