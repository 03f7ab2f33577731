// CPU tests of chapter 8's reduction operators (reduce_ops.cuh, compiled here as plain C++): the
// identities, the accumulator types, the NaN policy, order independence, and agreement with the
// CPU reference of common/reference.cpp, which follows the same policy. Also the barrier arithmetic.
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "barrier_count.hpp"
#include "catch.hpp"
#include "reduce_ops.cuh"
#include "reduce_reference.hpp"

using namespace ch08;

namespace {

template <class T, class Op>
accumulator_t<Op, T> fold(const std::vector<T>& v, Op op) {
  using Acc = accumulator_t<Op, T>;
  Acc acc = Op::template identity<Acc>();
  for (T x : v) acc = op(acc, static_cast<Acc>(x));
  return acc;
}

// Pairwise (tree-shaped) fold: a different order from the left fold above.
template <class A, class Op>
A tree_fold(std::vector<A> v, Op op) {
  if (v.empty()) return Op::template identity<A>();
  while (v.size() > 1) {
    std::vector<A> next;
    for (std::size_t i = 0; i < v.size(); i += 2) next.push_back(i + 1 < v.size() ? op(v[i], v[i + 1]) : v[i]);
    v.swap(next);
  }
  return v[0];
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace

TEST_CASE("accumulator types: int sums are 64-bit, everything else keeps its type", "[cpu][ch08][ops]") {
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Sum, int>, long long>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Sum, float>, float>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Sum, double>, double>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Max, int>, int>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Min, float>, float>);
  STATIC_REQUIRE(Sum::op == harness::Op::sum);
  STATIC_REQUIRE(Max::op == harness::Op::max);
  STATIC_REQUIRE(Min::op == harness::Op::min);
}

TEST_CASE("identities: 0 for sum, -inf/+inf and INT_MIN/INT_MAX for max/min", "[cpu][ch08][ops]") {
  CHECK(Sum::identity<long long>() == 0);
  CHECK(Sum::identity<float>() == 0.0f);
  CHECK(Sum::identity<double>() == 0.0);
  CHECK(Max::identity<float>() == -kInf);
  CHECK(Max::identity<double>() == -std::numeric_limits<double>::infinity());
  CHECK(Max::identity<int>() == INT_MIN);
  CHECK(Min::identity<float>() == kInf);
  CHECK(Min::identity<double>() == std::numeric_limits<double>::infinity());
  CHECK(Min::identity<int>() == INT_MAX);
}

TEST_CASE("an identity is absorbed by every value, infinities and extremes included", "[cpu][ch08][ops]") {
  const std::vector<float> fs{0.0f, -0.0f, 1.5f, -1.5f, kInf, -kInf, std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::lowest(), std::numeric_limits<float>::denorm_min()};
  for (float x : fs) {
    INFO(x);
    CHECK(Max{}(Max::identity<float>(), x) == x);
    CHECK(Max{}(x, Max::identity<float>()) == x);
    CHECK(Min{}(Min::identity<float>(), x) == x);
    CHECK(Min{}(x, Min::identity<float>()) == x);
    if (std::isfinite(x)) CHECK(Sum{}(Sum::identity<float>(), x) == x);
    CHECK(std::isnan(Max{}(Max::identity<float>(), kNaN)));
    CHECK(std::isnan(Min{}(kNaN, Min::identity<float>())));
  }
  for (int x : {0, 1, -1, INT_MIN, INT_MAX}) {
    CHECK(Max{}(Max::identity<int>(), x) == x);
    CHECK(Min{}(x, Min::identity<int>()) == x);
  }
}

TEST_CASE("NaN policy: NaN propagates through max and min from either side", "[cpu][ch08][ops][nan]") {
  for (float x : {0.0f, -0.0f, 3.0f, -3.0f, kInf, -kInf, kNaN}) {
    INFO(x);
    CHECK(std::isnan(Max{}(kNaN, x)));
    CHECK(std::isnan(Max{}(x, kNaN)));
    CHECK(std::isnan(Min{}(kNaN, x)));
    CHECK(std::isnan(Min{}(x, kNaN)));
  }
  const double dn = std::numeric_limits<double>::quiet_NaN();
  CHECK(std::isnan(Max{}(dn, 1.0)));
  CHECK(std::isnan(Min{}(1.0, dn)));
  // Unlike std::fmax, which drops the NaN:
  CHECK_FALSE(std::isnan(std::fmax(kNaN, 1.0f)));
}

TEST_CASE("signed zeros compare equal; ordinary values order as expected", "[cpu][ch08][ops]") {
  CHECK(Max{}(-0.0f, 0.0f) == 0.0f);
  CHECK(Max{}(0.0f, -0.0f) == 0.0f);
  CHECK(Min{}(-0.0f, 0.0f) == 0.0f);
  CHECK(Max{}(2.0, -7.0) == 2.0);
  CHECK(Min{}(2.0, -7.0) == -7.0);
  CHECK(Max{}(-kInf, kInf) == kInf);
  CHECK(Min{}(-kInf, kInf) == -kInf);
  CHECK(Max{}(INT_MIN, INT_MAX) == INT_MAX);
  CHECK(Min{}(INT_MIN, INT_MAX) == INT_MIN);
}

TEST_CASE("int sums accumulate exactly in 64 bits", "[cpu][ch08][ops]") {
  const std::vector<int> big(1000, INT_MAX);
  CHECK(fold(big, Sum{}) == 1000LL * INT_MAX);
  const std::vector<int> small(1000, INT_MIN);
  CHECK(fold(small, Sum{}) == 1000LL * INT_MIN);
}

TEST_CASE("max/min give the same answer in any order, and the same as the CPU reference",
          "[cpu][ch08][ops][nan]") {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 300;
    std::vector<float> v(n);
    for (float& x : v) x = u(rng);
    // Sprinkle specials: sometimes a NaN, infinities, signed zeros.
    if (trial % 3 == 0) v[rng() % n] = kNaN;
    if (trial % 5 == 0) v[rng() % n] = kInf;
    if (trial % 7 == 0) v[rng() % n] = -kInf;
    if (trial % 2 == 0) v[rng() % n] = -0.0f;
    for (harness::Op op : {harness::Op::max, harness::Op::min}) {
      const harness::ReduceReference ref = harness::compute_reference(v.data(), n, op);
      with_op(op, [&](auto o) {
        const float left = fold(v, o);
        std::vector<float> shuffled = v;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        const float tree = tree_fold(shuffled, o);
        INFO("trial " << trial << ", op " << harness::op_name(op) << ", n " << n);
        if (ref.has_nan) {
          CHECK(std::isnan(left));
          CHECK(std::isnan(tree));
          CHECK(std::isnan(ref.value));
        } else {
          CHECK(left == tree);
          CHECK(static_cast<double>(left) == ref.value);  // -0.0 == +0.0
        }
      });
    }
  }
}

TEST_CASE("an identity is never the answer of a non-empty input unless it is the true answer",
          "[cpu][ch08][ops]") {
  const std::vector<float> negatives{-5.0f, -3.0f, -1e30f};
  CHECK(fold(negatives, Max{}) == -3.0f);
  const std::vector<float> all_neg_inf{-kInf, -kInf};
  CHECK(fold(all_neg_inf, Max{}) == -kInf);  // the true answer
  const std::vector<int> ints{INT_MIN, INT_MIN};
  CHECK(fold(ints, Max{}) == INT_MIN);
  CHECK(fold(std::vector<int>{7}, Min{}) == 7);
}

TEST_CASE("with_op picks the functor of a run-time operator", "[cpu][ch08][ops]") {
  CHECK(with_op(harness::Op::sum, [](auto o) { return decltype(o)::op; }) == harness::Op::sum);
  CHECK(with_op(harness::Op::max, [](auto o) { return decltype(o)::op; }) == harness::Op::max);
  CHECK(with_op(harness::Op::min, [](auto o) { return decltype(o)::op; }) == harness::Op::min);
}

TEST_CASE("barrier arithmetic (exercise 1): log2(TILE) for the tree, 1 for the full kernel",
          "[cpu][ch08][barriers]") {
  CHECK(expected_barriers(1, 256) == 8);
  CHECK(expected_barriers(1, 512) == 9);
  CHECK(expected_barriers(2, 512) == 9);
  CHECK(expected_barriers(3, 256) == 3);
  CHECK(expected_barriers(3, 512) == 4);
  CHECK(expected_barriers(3, 32) == 0);
  CHECK(expected_barriers(4, 512) == 1);
  CHECK(expected_barriers(4, 32) == 1);
  CHECK(expected_barriers(0, 1024) == 0);
  CHECK(expected_barriers(5, 256) == 1);
  CHECK(expected_barriers(5, 32) == 1);
  CHECK(expected_barriers(6, 256) == -1);
  CHECK(expected_barriers(1, 100) == -1);
  CHECK(expected_barriers(1, 2048) == -1);
}
