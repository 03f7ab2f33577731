// CPU tests: the seeded generators are deterministic, in range, and `exact` data sums exactly.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
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

TEST_CASE("exact data: every element +1 or -1 at every n, prefix sums far below 2^24", "[cpu][inputs]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 20,
                        (std::size_t{1} << 24) + 5, (std::size_t{1} << 26) + 3}) {
    const auto a = make_host_input<float>(n, Dist::exact, 3);
    std::size_t plus = 0;
    long long prefix = 0, worst = 0;
    for (float v : a) {
      REQUIRE((v == -1.0f || v == 1.0f));  // no zeros: a dropped element always changes the sum
      plus += v == 1.0f;
      prefix += v == 1.0f ? 1 : -1;
      worst = std::max(worst, prefix < 0 ? -prefix : prefix);
    }
    INFO("n = " << n);
    // A random walk: its largest prefix is about sqrt(n), far below float's 2^24.
    CHECK(static_cast<double>(worst) < 8.0 * std::sqrt(static_cast<double>(n)) + 8.0);
    if (n >= 1000) CHECK(plus > n / 3);
    if (n >= 1000) CHECK(plus < n - n / 3);
    CHECK_NOTHROW(require_exact_data(DType::f32, a.data(), n));
  }
  CHECK(exact_data_limit(24) == std::size_t{1} << 36);
  CHECK(exact_data_limit(53) == std::numeric_limits<std::size_t>::max());
  CHECK(significand_bits(DType::f32) == 24);
  CHECK(significand_bits(DType::f64) == 53);
}

TEST_CASE("require_exact_data refuses data that is not +-1 or whose prefixes grow", "[cpu][inputs]") {
  std::vector<float> a(1000, 1.0f);
  for (std::size_t i = 0; i < a.size(); i += 2) a[i] = -1.0f;
  CHECK_NOTHROW(require_exact_data(DType::f32, a.data(), a.size()));
  a[10] = 0.0f;  // a zero would hide a dropped element
  CHECK_THROWS_AS(require_exact_data(DType::f32, a.data(), a.size()), std::logic_error);
  a[10] = 0.5f;
  CHECK_THROWS_AS(require_exact_data(DType::f32, a.data(), a.size()), std::logic_error);
  // All +1 (no zero, but not random): the prefix reaches n; fine for int at n = 300, and the
  // witness would refuse it once n reached 2^30.
  std::vector<int> ones(300, 1);
  CHECK_NOTHROW(require_exact_data(DType::i32, ones.data(), ones.size()));
}

TEST_CASE("parse_dist", "[cpu][inputs]") {
  CHECK(parse_dist("exact") == Dist::exact);
  CHECK_THROWS(parse_dist("gaussian"));
}
