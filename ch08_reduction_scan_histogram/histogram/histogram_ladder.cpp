// histogram_ladder: every chapter-8 histogram stage, cub::DeviceHistogram::HistogramEven and a
// streaming read of the samples (the ceiling: a histogram reads every sample once) on the same input
// in one run; --dist picks the data (uniform, one-bin, zipf, image, hot). A Markdown table on
// stdout, CSV / JSON / Markdown files on request (the CSV has a `dist` column).
// `--stages auto` runs the stage the size rule names for the type, the settings and n
// (common/size_rule.hpp).
#include "ch08_histogram_stages.hpp"
#include "size_rule.hpp"

int main(int argc, char** argv) {
  harness::LadderSpec<harness::Histogram> spec;
  spec.program = "histogram_ladder";
  spec.title = "Chapter 8 ladder: histogram stages";
  spec.stages = ch08::all_histogram_stages();
  spec.size_rule = &harness::histogram_rule();
  return harness::ladder_main(argc, argv, spec);
}
