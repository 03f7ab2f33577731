// reduce_ladder_ch08: every chapter-8 reduction stage, cub::DeviceReduce for the same operator and
// two bandwidth ceilings (a device-to-device copy, and a streaming read: a reduction only reads, so
// the read is its ceiling) on the same input in one run; a Markdown table on stdout, CSV / JSON /
// Markdown files on request. --op sum|max|min, --type float|double|int. An int sum is compared with
// CUB's int64 sum, since the stages sum ints exactly into int64. Stage 6 and CUB's gpu_to_gpu sum
// (where built) join the float and double sums.
// `--stages auto` runs the stage the size rule names for the type, the settings and n
// (common/size_rule.hpp).
#include "ch08_reduce_stages.hpp"
#include "size_rule.hpp"

int main(int argc, char** argv) {
  harness::LadderSpec<harness::Reduce> spec;
  spec.program = "reduce_ladder_ch08";
  spec.title = "Chapter 8 ladder: reduction stages, sum / max / min";
  spec.stages = ch08::ladder_reduce_stages();
  spec.size_rule = &harness::ch08_reduce_rule();
  return harness::ladder_main(argc, argv, spec);
}
