// Exercise ch08/01, the complete block reduction for sum, max and min: one source, built against
// the stub (exercise_ch08_01, label exercise) and against the solution (solutions_ch08, its
// [ch08_01] test case, in the default run).
#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support.hpp"
#include "exercise_support_ch08.hpp"
#include "sweep.hpp"

TEST_CASE("ch08/01 block fold: every operator, size, block size and type", "[gpu][ch08][ch08_01]") {
  using harness::Op;
  CHECK(testing_support::sweep(exercise_stage("ch08/01"),
                               exercise_support_ch08::reduce_sweep({Op::sum, Op::max, Op::min})) > 0);
}
TEST_CASE("ch08/01 block fold: any grid the user picks", "[gpu][ch08][ch08_01]") {
  exercise_support::check_grids(exercise_stage("ch08/01"));
}
