// Exercise ch07/03, the coarsened grid-stride loop: one source, built against the stub
// (exercise_ch07_03, label exercise) and against the solution (solutions_ch07, its [ch07_03] test
// case, in the default run).
#include "catch.hpp"
#include "ch07_stages.hpp"
#include "exercise_stage.hpp"
#include "exercise_support.hpp"
#include "sweep.hpp"

TEST_CASE("ch07/03 grid-stride loop: every size, block size and type", "[gpu][ch07][ch07_03]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/03")) > 0);
}
TEST_CASE("ch07/03 grid-stride loop: n = 2^31 + 1 (float, exact data, block 256)", "[gpu][ch07][ch07_03][large]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/03"), testing_support::past_2e31<harness::Reduce>()) > 0);
}
TEST_CASE("ch07/03 grid-stride loop: n = 2^31 + 1, every type, signed and exact data", "[.][long][gpu][ch07]") {
  CHECK(exercise_support::past_2e31_every_type_runs("ch07/03") > 0);
}
TEST_CASE("ch07/03 grid-stride loop: any grid the user picks", "[gpu][ch07][ch07_03]") {
  exercise_support::check_grids(exercise_stage("ch07/03"));
}
TEST_CASE("ch07/03 grid-stride loop: throughput against stage 8 (report)", "[gpu][ch07][ch07_03][speed]") {
  exercise_support::report_throughput(exercise_stage("ch07/03"), ch07::stage_named("reduce_kernel_8"));
}
