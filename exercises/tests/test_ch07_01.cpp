// Exercise ch07/01, the warp-shuffle sum: one source, built against the stub (exercise_ch07_01,
// label exercise) and against the solution (solutions_ch07, its [ch07_01] test case, in the default
// run).
#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support.hpp"
#include "sweep.hpp"

TEST_CASE("ch07/01 warp_shuffle_sum: every size, block size and type", "[gpu][ch07][ch07_01]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/01")) > 0);
}
TEST_CASE("ch07/01 warp_shuffle_sum: n = 2^31 + 1 (float, exact data, block 256)", "[gpu][ch07][ch07_01][large]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/01"), testing_support::past_2e31<harness::Reduce>()) > 0);
}
TEST_CASE("ch07/01 warp_shuffle_sum: n = 2^31 + 1, every type, signed and exact data", "[.][long][gpu][ch07]") {
  CHECK(exercise_support::past_2e31_every_type_runs("ch07/01") > 0);
}
