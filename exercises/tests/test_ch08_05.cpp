// Exercise ch08/05, the look-back of the single-pass scan: one source, built against the stub
// (exercise_ch08_05, label exercise) and against the solution (solutions_ch08, its [ch08_05] test
// case, in the default run). The stub never waits on another tile, so it fails rather than hangs.
#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support_ch08.hpp"
#include "sweep.hpp"

TEST_CASE("ch08/05 decoupled look-back: every size, block size and type", "[gpu][ch08][ch08_05]") {
  CHECK(testing_support::sweep(exercise_stage<harness::Scan>("ch08/05"), exercise_support_ch08::scan_sweep()) > 0);
}
TEST_CASE("ch08/05 decoupled look-back: right on every one of 10 runs", "[gpu][ch08][ch08_05][repeat]") {
  exercise_support_ch08::check_scan_repeated(exercise_stage<harness::Scan>("ch08/05"));
}
