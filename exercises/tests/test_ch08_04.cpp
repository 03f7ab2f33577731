// Exercise ch08/04, the offset pass of the three-pass scan: one source, built against the stub
// (exercise_ch08_04, label exercise) and against the solution (solutions_ch08, its [ch08_04] test
// case, in the default run).
#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support_ch08.hpp"
#include "sweep.hpp"

TEST_CASE("ch08/04 three-pass scan: every size, block size and type", "[gpu][ch08][ch08_04]") {
  CHECK(testing_support::sweep(exercise_stage<harness::Scan>("ch08/04"), exercise_support_ch08::scan_sweep()) > 0);
}
