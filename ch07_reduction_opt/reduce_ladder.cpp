// reduce_ladder: every chapter-7 stage, cub::DeviceReduce and two bandwidth ceilings (a
// device-to-device copy, and a streaming read: a reduction only reads, so the read is its ceiling)
// on the same input in one run, in two tables: stages 0 to 11 with the article's finish (stages 1
// to 8 atomicAdd each block's sum into the result; 9a and 9b make stage 9's first two changes
// alone), and stages 1 to 8 again with per-block partials folded by a second pass, closed by stage 11. A Markdown table on stdout, CSV / JSON / Markdown files on request
// (the CSV column `finish` says which table a row belongs to).
// `--stages auto` runs the stage the size rule names for the type, the settings and n
// (common/size_rule.hpp).
#include "ch07_stages.hpp"
#include "size_rule.hpp"

int main(int argc, char** argv) {
  harness::LadderSpec<harness::Reduce> spec;
  spec.program = "reduce_ladder";
  spec.title = "Chapter 7 ladder: parallel reduction, stage by stage";
  spec.tables = ch07::ladder_tables();
  spec.table_column = "finish";
  spec.size_rule = &harness::ch07_reduce_rule();
  return harness::ladder_main(argc, argv, spec);
}
