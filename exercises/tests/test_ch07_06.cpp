// Exercise ch07/06, the last-block finish: one source, built against the stub (exercise_ch07_06,
// label exercise) and against the solution (solutions_ch07, its [ch07_06] test case, in the default
// run).
#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support.hpp"
#include "sweep.hpp"

TEST_CASE("ch07/06 last block finishes: every size, block size and type", "[gpu][ch07][ch07_06]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/06")) > 0);
}
TEST_CASE("ch07/06 last block finishes: n = 2^31 + 1 (float, exact data, block 256)", "[gpu][ch07][ch07_06][large]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/06"), testing_support::past_2e31<harness::Reduce>()) > 0);
}
TEST_CASE("ch07/06 last block finishes: n = 2^31 + 1, every type, signed and exact data", "[.][long][gpu][ch07]") {
  CHECK(exercise_support::past_2e31_every_type_runs("ch07/06") > 0);
}
TEST_CASE("ch07/06 last block finishes: any grid the user picks", "[gpu][ch07][ch07_06]") {
  exercise_support::check_grids(exercise_stage("ch07/06"));
}
TEST_CASE("ch07/06 last block finishes: one bit pattern over 10 runs", "[gpu][ch07][ch07_06][determinism]") {
  exercise_support::check_deterministic(exercise_stage("ch07/06"));
}
