// Exercise ch08/06, per-warp histogram privatisation: one source, built against the stub
// (exercise_ch08_06, label exercise) and against the solution (solutions_ch08, its [ch08_06] test
// case, in the default run).
#include "catch.hpp"
#include "ch08_histogram_stages.hpp"
#include "exercise_stage.hpp"
#include "exercise_support_ch08.hpp"
#include "sweep.hpp"

TEST_CASE("ch08/06 per-warp histogram: every size, block size, sample type and distribution", "[gpu][ch08][ch08_06]") {
  for (const auto& sw : exercise_support_ch08::histogram_sweeps())
    CHECK(testing_support::sweep(exercise_stage<harness::Histogram>("ch08/06"), sw) > 0);
}
TEST_CASE("ch08/06 per-warp histogram: throughput against stages 1 and 2 (report)", "[gpu][ch08][ch08_06][speed]") {
  exercise_support_ch08::report_histogram_throughput(
      exercise_stage<harness::Histogram>("ch08/06"),
      {ch08::histogram_stage_named("histogram_stage_1"), ch08::histogram_stage_named("histogram_stage_2")});
}
