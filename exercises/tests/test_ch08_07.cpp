// Exercise ch08/07, the privatised histogram with the empty-bin skip: one source, built against the
// stub (exercise_ch08_07, label exercise) and against the solution (solutions_ch08, its [ch08_07]
// test case, in the default run).
#include "catch.hpp"
#include "ch08_histogram_stages.hpp"
#include "exercise_stage.hpp"
#include "exercise_support_ch08.hpp"
#include "sweep.hpp"

TEST_CASE("ch08/07 privatised histogram: every size, block size, sample type and distribution", "[gpu][ch08][ch08_07]") {
  for (const auto& sw : exercise_support_ch08::histogram_sweeps())
    CHECK(testing_support::sweep(exercise_stage<harness::Histogram>("ch08/07"), sw) > 0);
}
TEST_CASE("ch08/07 privatised histogram: throughput against stage 1 with and without the skip (report)",
          "[gpu][ch08][ch08_07][speed]") {
  exercise_support_ch08::report_histogram_throughput(
      exercise_stage<harness::Histogram>("ch08/07"),
      {ch08::histogram_stage_named("histogram_stage_1"), ch08::histogram_stage_named("histogram_stage_1_fold_all")});
}
