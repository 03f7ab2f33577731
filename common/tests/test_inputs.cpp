// CPU tests: the seeded generators are deterministic, in range, and `exact` data sums exactly.
#include <cmath>
#include <vector>

#include "catch.hpp"
#include "inputs.hpp"
#include "reference.hpp"

using namespace harness;

TEST_CASE("generators are deterministic and depend on the seed", "[cpu][inputs]") {
  const auto a = make_host_input<float>(5000, Dist::signed_uniform, 7);
  const auto b = make_host_input<float>(5000, Dist::signed_uniform, 7);
  const auto c = make_host_input<float>(5000, Dist::signed_uniform, 8);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(generate_value<float>(Dist::signed_uniform, 7, 1234, 5000) == a[1234]);
}

TEST_CASE("signed data covers [-1, 1) with both signs", "[cpu][inputs]") {
  const auto a = make_host_input<double>(100000, Dist::signed_uniform, 1);
  int neg = 0;
  for (double v : a) {
    REQUIRE(v >= -1.0);
    REQUIRE(v < 1.0);
    neg += v < 0;
  }
  CHECK(neg > 45000);
  CHECK(neg < 55000);
  const auto ints = make_host_input<int>(100000, Dist::signed_uniform, 1);
  for (int v : ints) REQUIRE((v >= -100 && v <= 100));
}

TEST_CASE("exact data keeps every partial sum exact", "[cpu][inputs]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 20,
                        (std::size_t{1} << 24) + 5}) {
    const auto a = make_host_input<float>(n, Dist::exact, 3);
    double total = 0;
    bool nonzero = false;
    for (float v : a) {
      REQUIRE(v >= 0.0f);
      REQUIRE(v == std::floor(v));
      total += v;
      nonzero = nonzero || v != 0.0f;
    }
    INFO("n = " << n);
    CHECK(total < 16777216.0);  // 2^24: every partial sum of non-negative values is below it
    if (n >= 1000) CHECK(nonzero);
  }
  CHECK(exact_max_value(1000, 24) == 1000);
  CHECK(exact_max_value(1 << 20, 24) == 15);
  CHECK(exact_max_value(std::size_t{1} << 25, 24) == 0);
}

TEST_CASE("parse_dist", "[cpu][inputs]") {
  CHECK(parse_dist("exact") == Dist::exact);
  CHECK_THROWS(parse_dist("gaussian"));
}
