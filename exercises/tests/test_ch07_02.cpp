// Exercise ch07/02, the last-warp unroll with __syncwarp: one source, built against the stub
// (exercise_ch07_02, label exercise) and against the solution (solutions_ch07, its [ch07_02] test
// case, in the default run). A right sum is necessary, not sufficient: the race shows under
// compute-sanitizer racecheck.
#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support.hpp"
#include "sweep.hpp"

TEST_CASE("ch07/02 last warp with __syncwarp: every size, block size and type", "[gpu][ch07][ch07_02]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/02")) > 0);
}
TEST_CASE("ch07/02 last warp with __syncwarp: n = 2^31 + 1 (float, exact data, block 256)", "[gpu][ch07][ch07_02][large]") {
  CHECK(testing_support::sweep(exercise_stage("ch07/02"), testing_support::past_2e31<harness::Reduce>()) > 0);
}
TEST_CASE("ch07/02 last warp with __syncwarp: n = 2^31 + 1, every type, signed and exact data", "[.][long][gpu][ch07]") {
  CHECK(exercise_support::past_2e31_every_type_runs("ch07/02") > 0);
}
