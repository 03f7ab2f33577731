// The program scan_stage_8: chapter 8's scan stage 8 (sm_90 and newer; exclusive or inclusive,
// float, double or int, any n), checked, timed and reported by the harness.
// `--pipeline default|VxS[-near|-near16][-ahead|-early]` picks the vectors per consumer thread, the stages of
// the ring and the schedule (the look-back bounded by the block's previous tile, 4 or 16 windows of
// predecessors per round trip; the next tile reduced ahead; a reduce warp publishing each tile's
// aggregate as it lands, the look-back warp its inclusive prefix); the first name --help lists is
// the default (4x6-early for float and int, 8x3-early for double),
// the ladder's. The stage -- its warps, how they wait on each other, the launch -- is
// in scan_stage_8_bulk_copy_pipeline.cuh, the other shapes in scan_stage_8_shapes.cuh. It is
// compiled once, in the chapter's library ch08_scan (ch08_scan_stages.cu), which this program links.
#include "ch08_scan_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::scan_stage_8_program());
}
