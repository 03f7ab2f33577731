// CPU tests: references, the depth bound and its "not checked" verdict, exact comparisons and the
// NaN policy of the reduction check.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "catch.hpp"
#include "inputs.hpp"
#include "reduce_problem.hpp"
#include "verify.hpp"

using namespace harness;

namespace {

// A stage whose output is T and whose summation depth is `depth` (0: the default, n).
template <class T>
Stage<Reduce> stage_with(double depth) {
  Stage<Reduce> s;
  s.name = "test";
  s.caps.ops = {Op::sum, Op::max, Op::min};
  if constexpr (std::is_same_v<T, long long>) s.caps.out_type = [](DType, Op) { return DType::i64; };
  if (depth > 0) s.depth = [depth](const ReduceArgs&) { return depth; };
  return s;
}

template <class T>
Verification check(const ReduceReference& r, T got, bool exact = false, double depth = 0) {
  ReduceArgs a;
  a.type = std::is_same_v<T, long long> ? DType::i32 : dtype_of<T>();
  a.op = r.op;
  a.n = r.n;
  return Reduce::check(stage_with<T>(depth), a, r, &got, exact);
}

}  // namespace

TEST_CASE("reference sums: exact ints, double accumulation for floats", "[cpu][verify]") {
  const std::vector<int> ints{3, -7, 2147483647, 100};
  const ReduceReference ri = compute_reference(ints.data(), ints.size(), Op::sum);
  CHECK(ri.exact == 2147483743LL);  // past INT_MAX: computed in int64
  const std::vector<float> f{0.5f, -0.25f, 1e-8f};
  const ReduceReference rf = compute_reference(f.data(), f.size(), Op::sum);
  CHECK(rf.value == 0.25 + static_cast<double>(1e-8f));
  CHECK(rf.abs_sum == 0.75 + static_cast<double>(1e-8f));
}

TEST_CASE("reference of n = 0 is the identity", "[cpu][verify]") {
  const ReduceReference s = compute_reference<float>(nullptr, 0, Op::sum);
  CHECK(s.value == 0.0);
  const ReduceReference mx = compute_reference<float>(nullptr, 0, Op::max);
  CHECK(mx.value == -std::numeric_limits<double>::infinity());
  const ReduceReference mn = compute_reference<int>(nullptr, 0, Op::min);
  CHECK(mn.exact == std::numeric_limits<int>::max());
}

TEST_CASE("the reference does not depend on chunking or threads", "[cpu][verify]") {
  const auto a = make_host_input<float>((1u << 22) + 17, Dist::signed_uniform, 5);
  const ReduceReference r1 = compute_reference(a.data(), a.size(), Op::sum);
  const ReduceReference r2 = compute_reference(a.data(), a.size(), Op::sum);
  CHECK(r1.value == r2.value);
  double serial = 0;
  for (float v : a) serial += v;
  CHECK(std::fabs(serial - r1.value) <= 1e-9 * r1.abs_sum);
}

TEST_CASE("the depth bound: gamma_d * sum|a|, infinite once d * u reaches 1", "[cpu][verify]") {
  const double u = 0x1.0p-24;  // float's unit roundoff
  CHECK(depth_error_bound(0, FLT_EPSILON, 5.0) == 0.0);
  CHECK(depth_error_bound(10, FLT_EPSILON, 2.0) == Approx(10 * u / (1 - 10 * u) * 2.0));
  CHECK(std::isinf(depth_error_bound(std::ldexp(1.0, 24), FLT_EPSILON, 1.0)));
}

TEST_CASE("random floats: decided by the depth bound where it is tighter than the sum", "[cpu][verify]") {
  std::vector<float> a(1000);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.001f * static_cast<float>(i);  // sum about 500
  const ReduceReference r = compute_reference(a.data(), a.size(), Op::sum);
  const double depth = 20;
  const double bound = depth_error_bound(depth, FLT_EPSILON, r.abs_sum);
  REQUIRE(bound < std::fabs(r.value));
  const Verification right = check(r, static_cast<float>(r.value), false, depth);
  CHECK(right.ok);
  CHECK(right.kind == CheckKind::bound);
  const Verification bad = check(r, static_cast<float>(r.value + 2.0 * bound + 0.01), false, depth);
  CHECK_FALSE(bad.ok);
  CHECK(bad.kind == CheckKind::bound);
  CHECK(bad.message.find("exceeds bound") != std::string::npos);
  CHECK_FALSE(check(r, std::numeric_limits<float>::quiet_NaN(), false, depth).ok);
}

TEST_CASE("random signed floats: a bound looser than the sum says 'not checked', never PASS", "[cpu][verify]") {
  const auto a = make_host_input<float>(1 << 20, Dist::signed_uniform, 7);
  const ReduceReference r = compute_reference(a.data(), a.size(), Op::sum);
  // Worst-case depth n: the bound is far above |sum|, so even 0 (a kernel that wrote nothing useful)
  // would be "within" it. The check must not call that a pass.
  const Verification v = check(r, 0.0f);
  CHECK(v.kind == CheckKind::unchecked);
  CHECK(v.message.find("cannot tell") != std::string::npos);
}

TEST_CASE("exact data catches one dropped element that a bound would hide", "[cpu][verify]") {
  const auto a = make_host_input<float>(1 << 16, Dist::exact, 11);
  const ReduceReference r = compute_reference(a.data(), a.size(), Op::sum);
  const float dropped = static_cast<float>(r.value - 1.0);  // one +1 element missing
  const Verification v = check(r, dropped, /*exact=*/true);
  CHECK_FALSE(v.ok);
  CHECK(v.kind == CheckKind::exact);
  CHECK(check(r, static_cast<float>(r.value), true).ok);
}

TEST_CASE("int results are exact; an overflowing exact sum fails", "[cpu][verify]") {
  const std::vector<int> a{5, -3, 10};
  const ReduceReference r = compute_reference(a.data(), a.size(), Op::sum);
  CHECK(check(r, 12).ok);
  CHECK_FALSE(check(r, 11).ok);
  const std::vector<int> big{2147483647, 1};
  const ReduceReference rb = compute_reference(big.data(), big.size(), Op::sum);
  const Verification v = check(rb, static_cast<int>(0x80000000u));
  CHECK_FALSE(v.ok);
  CHECK(v.message.find("does not fit") != std::string::npos);
  CHECK(check(rb, 2147483648LL).ok);  // a 64-bit output holds it
}

TEST_CASE("max/min: NaN propagates, -0 equals +0, values exact", "[cpu][verify]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> with_nan{1.0f, nan, 3.0f};
  const ReduceReference r = compute_reference(with_nan.data(), with_nan.size(), Op::max);
  CHECK(std::isnan(r.value));
  CHECK(check(r, nan).ok);
  CHECK_FALSE(check(r, 3.0f).ok);
  const std::vector<float> zeros{-0.0f, 0.0f, -1.0f};
  const ReduceReference rz = compute_reference(zeros.data(), zeros.size(), Op::max);
  CHECK(check(rz, -0.0f).ok);
  CHECK(check(rz, 0.0f).ok);
  const std::vector<float> inf{-INFINITY, 2.0f};
  CHECK(check(compute_reference(inf.data(), inf.size(), Op::min), -INFINITY).ok);
  CHECK_FALSE(check(compute_reference(inf.data(), inf.size(), Op::min), 2.0f).ok);
}
