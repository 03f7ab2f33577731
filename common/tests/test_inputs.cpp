// CPU tests: the seeded generators are deterministic, in range, and `exact` data sums exactly.
#include <cmath>
#include <vector>

#include "catch.hpp"
#include "inputs.hpp"
#include "reduce_reference.hpp"

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

TEST_CASE("exact data: values in {-1, 0, +1}, every partial sum exact", "[cpu][inputs]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 20,
                        (std::size_t{1} << 24) + 5}) {
    const auto a = make_host_input<float>(n, Dist::exact, 3);
    double abs_total = 0;
    std::size_t zeros = 0, plus = 0;
    for (float v : a) {
      REQUIRE((v == -1.0f || v == 0.0f || v == 1.0f));
      abs_total += std::fabs(v);
      zeros += v == 0.0f;
      plus += v == 1.0f;
    }
    INFO("n = " << n);
    CHECK(abs_total < 16777216.0);  // 2^24: every partial sum, in any order, is an exact float
    if (n <= (std::size_t{1} << 23)) CHECK(zeros == 0);  // all +-1: a dropped element changes the sum
    if (n >= 1000) CHECK(plus > n / 8);
  }
  CHECK(exact_nonzero_probability(1000, 24) == 1.0);
  CHECK(exact_nonzero_probability(std::size_t{1} << 24, 24) == 0.5);
  CHECK(significand_bits(DType::f32) == 24);
  CHECK(significand_bits(DType::f64) == 53);
}

TEST_CASE("parse_dist", "[cpu][inputs]") {
  CHECK(parse_dist("exact") == Dist::exact);
  CHECK_THROWS(parse_dist("gaussian"));
}
