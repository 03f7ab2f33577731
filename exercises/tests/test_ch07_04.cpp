// Exercise ch07/04, 16-byte loads with a scalar head and tail: one source, built against the stub
// (exercise_ch07_04, label exercise) and against the solution (solutions_ch07, its [ch07_04] test
// case, in the default run).
#include "catch.hpp"
#include "ch07_stages.hpp"
#include "exercise_stage.hpp"
#include "exercise_support.hpp"
#include "sweep.hpp"

TEST_CASE("ch07/04 vector loads: every size, block size and type", "[gpu][ch07][ch07_04]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/04")) > 0);
}
TEST_CASE("ch07/04 vector loads: n = 2^31 + 1 (float, exact data, block 256)", "[gpu][ch07][ch07_04][large]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/04"), testing_support::past_2e31<harness::Reduce>()) > 0);
}
TEST_CASE("ch07/04 vector loads: n = 2^31 + 1, every type, signed and exact data", "[.][long][gpu][ch07]") {
  CHECK(exercise_support::past_2e31_every_type_runs("ch07/04") > 0);
}
TEST_CASE("ch07/04 vector loads: any grid the user picks", "[gpu][ch07][ch07_04]") {
  exercise_support::check_grids(exercise_stage("ch07/04"));
}
TEST_CASE("ch07/04 vector loads: inputs that do not start on a 16-byte boundary", "[gpu][ch07][ch07_04]") {
  exercise_support::check_misaligned(exercise_stage("ch07/04"));
}
TEST_CASE("ch07/04 vector loads: throughput against stage 9b (report)", "[gpu][ch07][ch07_04][speed]") {
  exercise_support::report_throughput(exercise_stage("ch07/04"), ch07::stage_named("reduce_kernel_9b"));
}
