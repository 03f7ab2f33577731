// reduce_ladder: every chapter-7 stage, cub::DeviceReduce and a device-to-device copy on the same
// input in one run; a Markdown table on stdout, CSV / JSON / Markdown files on request.
#include "ch07_stages.hpp"

int main(int argc, char** argv) {
  harness::LadderSpec<harness::Reduce> spec;
  spec.program = "reduce_ladder";
  spec.title = "Chapter 7 ladder: parallel reduction, stage by stage";
  spec.stages = ch07::all_stages();
  return harness::ladder_main(argc, argv, spec);
}
