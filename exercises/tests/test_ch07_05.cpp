// Exercise ch07/05, the one-barrier block reduction: one source, built against the stub
// (exercise_ch07_05, label exercise) and against the solution (solutions_ch07, its [ch07_05] test
// case, in the default run).
#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support.hpp"
#include "sweep.hpp"

TEST_CASE("ch07/05 one-barrier block sum: every size, block size and type", "[gpu][ch07][ch07_05]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/05")) > 0);
}
TEST_CASE("ch07/05 one-barrier block sum: n = 2^31 + 1 (float, exact data, block 256)", "[gpu][ch07][ch07_05][large]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/05"), testing_support::past_2e31<harness::Reduce>()) > 0);
}
TEST_CASE("ch07/05 one-barrier block sum: n = 2^31 + 1, every type, signed and exact data", "[.][long][gpu][ch07]") {
  CHECK(exercise_support::past_2e31_every_type_runs("ch07/05") > 0);
}
TEST_CASE("ch07/05 one-barrier block sum: any grid the user picks", "[gpu][ch07][ch07_05]") {
  exercise_support::check_grids(exercise_stage("ch07/05"));
}
