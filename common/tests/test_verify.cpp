// CPU tests: references, the tolerance rule, exact comparisons and the NaN policy.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "catch.hpp"
#include "inputs.hpp"
#include "reference.hpp"
#include "verify.hpp"

using namespace harness;

namespace {

template <class T>
Verification check(const Reference& r, T got, bool exact = false) {
  return verify_result(r, dtype_of<T>(), &got, exact);
}

}  // namespace

TEST_CASE("reference sums: exact ints, double accumulation for floats", "[cpu][verify]") {
  const std::vector<int> ints{3, -7, 2147483647, 100};
  const Reference ri = compute_reference(ints.data(), ints.size(), Op::sum);
  CHECK(ri.exact == 2147483743LL);  // past INT_MAX: computed in int64
  const std::vector<float> f{0.5f, -0.25f, 1e-8f};
  const Reference rf = compute_reference(f.data(), f.size(), Op::sum);
  CHECK(rf.value == 0.25 + static_cast<double>(1e-8f));
  CHECK(rf.abs_sum == 0.75 + static_cast<double>(1e-8f));
}

TEST_CASE("reference of n = 0 is the identity", "[cpu][verify]") {
  const Reference s = compute_reference<float>(nullptr, 0, Op::sum);
  CHECK(s.value == 0.0);
  const Reference mx = compute_reference<float>(nullptr, 0, Op::max);
  CHECK(mx.value == -std::numeric_limits<double>::infinity());
  const Reference mn = compute_reference<int>(nullptr, 0, Op::min);
  CHECK(mn.exact == std::numeric_limits<int>::max());
}

TEST_CASE("the reference does not depend on chunking or threads", "[cpu][verify]") {
  const auto a = make_host_input<float>((1u << 22) + 17, Dist::signed_uniform, 5);
  const Reference r1 = compute_reference(a.data(), a.size(), Op::sum);
  const Reference r2 = compute_reference(a.data(), a.size(), Op::sum);
  CHECK(r1.value == r2.value);
  double serial = 0;
  for (float v : a) serial += v;
  CHECK(std::fabs(serial - r1.value) <= 1e-9 * r1.abs_sum);
}

TEST_CASE("tolerance is n * eps * sum|a|", "[cpu][verify]") {
  CHECK(sum_error_bound(1000, 0x1.0p-23, 2.0) == 1000 * 0x1.0p-23 * 2.0);
  std::vector<float> a(1000);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = (i % 2 ? -1.0f : 1.0f) * 0.001f * i;
  const Reference r = compute_reference(a.data(), a.size(), Op::sum);
  const double bound = sum_error_bound(r.n, FLT_EPSILON, r.abs_sum);
  CHECK(check(r, static_cast<float>(r.value)).ok);
  CHECK(check(r, static_cast<float>(r.value + 0.5 * bound)).ok);
  const Verification bad = check(r, static_cast<float>(r.value + 2.0 * bound + 0.01));
  CHECK_FALSE(bad.ok);
  CHECK(bad.message.find("exceeds bound") != std::string::npos);
  CHECK_FALSE(check(r, std::numeric_limits<float>::quiet_NaN()).ok);
}

TEST_CASE("exact mode catches one dropped element that the tolerance would hide", "[cpu][verify]") {
  const auto a = make_host_input<float>(1 << 16, Dist::exact, 11);
  const Reference r = compute_reference(a.data(), a.size(), Op::sum);
  float dropped = static_cast<float>(r.value - 1.0);  // one element of value 1 missing
  CHECK(check(r, dropped, /*exact=*/false).ok);        // within n*eps*sum|a| ...
  CHECK_FALSE(check(r, dropped, /*exact=*/true).ok);   // ... but not equal
  CHECK(check(r, static_cast<float>(r.value), true).ok);
}

TEST_CASE("int results are exact; an overflowing exact sum fails", "[cpu][verify]") {
  const std::vector<int> a{5, -3, 10};
  const Reference r = compute_reference(a.data(), a.size(), Op::sum);
  CHECK(check(r, 12).ok);
  CHECK_FALSE(check(r, 11).ok);
  const std::vector<int> big{2147483647, 1};
  const Reference rb = compute_reference(big.data(), big.size(), Op::sum);
  const Verification v = check(rb, static_cast<int>(0x80000000u));
  CHECK_FALSE(v.ok);
  CHECK(v.message.find("does not fit") != std::string::npos);
  CHECK(check(rb, 2147483648LL).ok);  // a 64-bit output holds it
}

TEST_CASE("max/min: NaN propagates, -0 equals +0, values exact", "[cpu][verify]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> with_nan{1.0f, nan, 3.0f};
  const Reference r = compute_reference(with_nan.data(), with_nan.size(), Op::max);
  CHECK(std::isnan(r.value));
  CHECK(check(r, nan).ok);
  CHECK_FALSE(check(r, 3.0f).ok);
  const std::vector<float> zeros{-0.0f, 0.0f, -1.0f};
  const Reference rz = compute_reference(zeros.data(), zeros.size(), Op::max);
  CHECK(check(rz, -0.0f).ok);
  CHECK(check(rz, 0.0f).ok);
  const std::vector<float> inf{-INFINITY, 2.0f};
  CHECK(check(compute_reference(inf.data(), inf.size(), Op::min), -INFINITY).ok);
  CHECK_FALSE(check(compute_reference(inf.data(), inf.size(), Op::min), 2.0f).ok);
}
