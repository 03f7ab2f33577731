// CPU tests: statistics over repetitions.
#include "catch.hpp"
#include "timing.hpp"

TEST_CASE("median, min, max and mean", "[cpu][timing]") {
  const auto odd = harness::summarize_times({3.0, 1.0, 2.0});
  CHECK(odd.median_ms == 2.0);
  CHECK(odd.min_ms == 1.0);
  CHECK(odd.max_ms == 3.0);
  CHECK(odd.iters == 3);
  const auto even = harness::summarize_times({4.0, 1.0, 3.0, 2.0});
  CHECK(even.median_ms == 2.5);
  CHECK(even.mean_ms == 2.5);
  CHECK(harness::summarize_times({}).iters == 0);
}
