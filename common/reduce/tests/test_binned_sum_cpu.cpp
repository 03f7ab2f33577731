// CPU tests of the binned sum (common/reduce/binned_sum.hpp), the algorithm of chapter 8's
// reduce_stage_6 and the reference it is checked against bit for bit: the same bits for any order
// and any split of the input, the exact sums it promises, the special values the page lists, the
// level rule, and the GPU's FMA form of a deposit against the CPU's.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "binned_sum.hpp"
#include "catch.hpp"
#include "inputs.hpp"
#include "reduce_problem.hpp"
#include "reduce_reference.hpp"

using namespace harness;

namespace {

template <class T>
std::uint64_t bits_of(T x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof x);
  return b;
}

template <class T>
T sum_of(const std::vector<T>& v) {
  return binned_sum_cpu(v.data(), v.size());
}

// The generator's data (signed, uniform, skewed, exact) as T.
template <class T>
std::vector<T> data(std::size_t n, const std::string& dist, std::uint64_t seed) {
  const std::vector<unsigned char> bytes = generate_bytes(dtype_of<T>(), n, dist, seed);
  std::vector<T> v(n);
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

// Values over many binades (1e-30 .. 1e30 for float, 1e-200 .. 1e200 for double), both signs.
template <class T>
std::vector<T> wide_range(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const double span = sizeof(T) == 4 ? 30 : 200;
  std::uniform_real_distribution<double> exponent(-span, span), mantissa(-1, 1);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(mantissa(rng) * std::pow(10.0, exponent(rng)));
  return v;
}

// Sums v in `pieces` random pieces, each with binned_partial_cpu, merged in a random order.
template <class T>
T sum_in_pieces(const std::vector<T>& v, int pieces, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> cuts{0, v.size()};
  for (int i = 1; i < pieces; ++i) cuts.push_back(std::uniform_int_distribution<std::size_t>(0, v.size())(rng));
  std::sort(cuts.begin(), cuts.end());
  std::vector<BinnedPartial> parts;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
    parts.push_back(binned_partial_cpu(v.data() + cuts[i], cuts[i + 1] - cuts[i]));
  std::shuffle(parts.begin(), parts.end(), rng);
  BinnedPartial p = binned_empty<T>();
  for (const BinnedPartial& q : parts) binned_merge(p, q);
  return binned_value<T>(p);
}

template <class T>
void same_bits_for_any_order_and_split(const std::vector<T>& v, const std::string& what) {
  const T once = sum_of(v);
  const T serial = binned_value<T>(binned_partial_cpu(v.data(), v.size()));
  INFO(what << ", n " << v.size());
  CHECK(bits_of(serial) == bits_of(once));
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<T> shuffled = v;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    CHECK(bits_of(sum_of(shuffled)) == bits_of(once));
    for (int pieces : {2, 3, 64, 1000}) CHECK(bits_of(sum_in_pieces(shuffled, pieces, 100 + trial)) == bits_of(once));
  }
  std::vector<T> reversed(v.rbegin(), v.rend());
  CHECK(bits_of(sum_of(reversed)) == bits_of(once));
}

}  // namespace

TEMPLATE_TEST_CASE("binned sum: the same bits for any order and any split", "[cpu][binned]", float, double) {
  using T = TestType;
  for (const char* dist : {"signed", "uniform", "skewed", "exact"})
    same_bits_for_any_order_and_split(data<T>(100003, dist, 42), dist);
  same_bits_for_any_order_and_split(wide_range<T>(20011, 3), "wide range of exponents");
  // Pieces whose levels differ: small values first, one large value in the middle, tiny ones last.
  std::vector<T> mixed = data<T>(5000, "signed", 5);
  mixed[2500] = T(1e6);
  for (std::size_t i = 4000; i < mixed.size(); ++i) mixed[i] *= T(1e-20);
  same_bits_for_any_order_and_split(mixed, "levels that differ between pieces");
}

TEMPLATE_TEST_CASE("binned sum: exact where the three bins hold every bit", "[cpu][binned]", float, double) {
  using T = TestType;
  CHECK(bits_of(sum_of(std::vector<T>{})) == bits_of(T(0)));
  // One element comes back unchanged: a normal value has p significant bits, the bins keep more.
  for (T x : {T(1), T(-2.5), T(3.0e-30), T(1.0e30), std::numeric_limits<T>::max(), -std::numeric_limits<T>::max(),
              std::numeric_limits<T>::min(), T(0.1), T(-7.0e-3)})
    CHECK(bits_of(sum_of(std::vector<T>{x})) == bits_of(x));
  // +-1 data (the stages' exact data): the exact integer sum.
  const std::vector<T> pm = data<T>(1000003, "exact", 11);
  long long exact = 0;
  for (T x : pm) exact += static_cast<long long>(x);
  CHECK(sum_of(pm) == static_cast<T>(exact));
  // The case an ordinary float sum gets wrong in one order and right in another: 2^24 + 1 - 2^24.
  const T big = T(16777216);  // 2^24: above it floats are 2 apart
  CHECK(sum_of(std::vector<T>{big, T(1), -big}) == T(1));
  CHECK(sum_of(std::vector<T>{T(1), big, -big}) == T(1));
  // Past the largest finite value and back: exact whatever the order (an ordinary sum of max, max,
  // -max gives inf or max depending on the order).
  const T mx = std::numeric_limits<T>::max();
  CHECK(sum_of(std::vector<T>{mx, mx, -mx}) == mx);
  CHECK(sum_of(std::vector<T>{mx, -mx, mx}) == mx);
  // Many deposits at the top of a level (every flush interval full): the exact sum, rounded once.
  const T top = binned_limit<T>(0) - T(0.5);  // near the top of level 0, one bit below the unit
  const std::size_t n = 3 * static_cast<std::size_t>(std::min<long long>(binned_deposits_per_flush<T>(), 1 << 20)) + 5;
  const std::vector<T> same(n, top);
  CHECK(sum_of(same) == static_cast<T>(static_cast<long double>(top) * n));
}

TEMPLATE_TEST_CASE("binned sum: within a few units in the last place of the exact sum", "[cpu][binned]", float, double) {
  using T = TestType;
  for (const char* dist : {"signed", "uniform", "skewed"}) {
    const std::vector<T> v = data<T>(1 << 20, dist, 9);
    // A long double reference (exact for float data of this size; within 2^-64 relative otherwise).
    long double exact = 0;
    for (T x : v) exact += x;
    const T got = sum_of(v);
    const BinnedPartial p = binned_partial_cpu(v.data(), v.size());
    // Each element loses at most half the last bin's unit, then the result is rounded (twice at most).
    const long double last_unit = std::ldexp(1.0L, (p.level - 2) * BinnedFormat<T>::kBinBits);
    const long double ulp = std::ldexp(1.0L, std::ilogb(static_cast<T>(exact)) - BinnedFormat<T>::kMantissa + 1);
    INFO(dist << ": got " << static_cast<double>(got) << ", exact " << static_cast<double>(exact));
    CHECK(std::fabs(static_cast<long double>(got) - exact) <= 2 * ulp + v.size() * last_unit / 2);
  }
}

TEMPLATE_TEST_CASE("binned sum: NaN and infinities", "[cpu][binned]", float, double) {
  using T = TestType;
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> v = data<T>(10007, "signed", 1);
  auto with = [&](std::vector<std::pair<std::size_t, T>> put) {
    std::vector<T> w = v;
    for (auto [i, x] : put) w[i] = x;
    return sum_of(w);
  };
  CHECK(std::isnan(with({{0, nan}})));
  CHECK(std::isnan(with({{10006, nan}})));
  CHECK(with({{5, inf}}) == inf);
  CHECK(with({{5, -inf}}) == -inf);
  CHECK(std::isnan(with({{5, inf}, {9000, -inf}})));
  CHECK(std::isnan(with({{5, inf}, {9000, nan}})));
  // The NaN is the same bits wherever it came from.
  CHECK(bits_of(with({{3, nan}})) == bits_of(binned_nan<T>()));
  CHECK(bits_of(with({{3, -nan}, {7, inf}, {8, -inf}})) == bits_of(binned_nan<T>()));
  // A finite sum past the largest value is +-inf; a sum of zeros is +0, -0.0 elements too.
  const T mx = std::numeric_limits<T>::max();
  CHECK(sum_of(std::vector<T>{mx, mx}) == inf);
  CHECK(sum_of(std::vector<T>{-mx, -mx / 2}) == -inf);
  CHECK(bits_of(sum_of(std::vector<T>(100, T(-0.0)))) == bits_of(T(0)));
}

TEMPLATE_TEST_CASE("binned sum: the level rule agrees with each level's limit", "[cpu][binned]", float, double) {
  using T = TestType;
  // m < binned_limit(L) exactly when binned_level(m) <= L: a thread that rises only when a value
  // reaches its limit ends at the level of its largest |x|, whatever the order it saw them in.
  std::vector<T> ms{T(0), std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::min(),
                    std::numeric_limits<T>::max(), T(1), T(4095), T(4096), T(4097)};
  for (int L = binned_min_level<T>(); L <= binned_max_level<T>(); ++L) {
    const T lim = binned_limit<T>(L);
    if (std::isfinite(lim)) {
      ms.push_back(lim);
      ms.push_back(std::nextafter(lim, T(0)));
      ms.push_back(std::nextafter(lim, std::numeric_limits<T>::infinity()));
    }
  }
  for (T m : wide_range<T>(2000, 8)) ms.push_back(std::fabs(m));
  for (T m : ms)
    for (int L = binned_min_level<T>(); L <= binned_max_level<T>(); ++L) {
      INFO("m " << static_cast<double>(m) << ", level " << L);
      CHECK((m < binned_limit<T>(L)) == (binned_level(m) <= L));
    }
}

TEMPLATE_TEST_CASE("binned sum: the GPU's deposit (two FMAs) gives the CPU's bits", "[cpu][binned]", float, double) {
  using T = TestType;
  // binned_deposit folds the scale into FMAs; binned_deposit_scaled multiplies first. The product
  // is exact unless it underflows, and then every bin gets 0 either way: tiny values at the highest
  // level, subnormals at the lowest, values at a level's limit, ties at each bin's half unit.
  std::vector<T> xs = wide_range<T>(20000, 21);
  for (T x : {std::numeric_limits<T>::denorm_min(), T(3) * std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::min(),
              T(0.5), T(1.5), T(-2.5), std::ldexp(T(1), -BinnedFormat<T>::kBinBits - 1), std::ldexp(T(3), -2 * BinnedFormat<T>::kBinBits - 1)})
    xs.push_back(x);
  std::size_t compared = 0, differ = 0;
  for (int L = binned_min_level<T>(); L <= binned_max_level<T>(); ++L) {
    const T scale = binned_scale<T>(L), lim = binned_limit<T>(L);
    for (T x : xs) {
      for (T y : {x, -x, x * lim / T(4096), std::nextafter(lim, T(0))}) {
        if (!(std::fabs(y) < lim)) continue;
        T fma_form[kBinnedBins] = {}, scaled_form[kBinnedBins] = {};
        binned_deposit(fma_form, y, scale);
        binned_deposit_scaled(scaled_form, y * scale);
        bool same = true;
        for (int k = 0; k < kBinnedBins; ++k) same = same && bits_of(fma_form[k]) == bits_of(scaled_form[k]);
        if (!same && differ++ == 0) FAIL_CHECK("first difference: x " << static_cast<double>(y) << ", level " << L);
        ++compared;
      }
    }
  }
  CHECK(differ == 0);
  CHECK(compared > 100000);
}

TEST_CASE("binned sum: the largest n whose bins stay exact", "[cpu][binned]") {
  // Each deposit adds at most 2^(W-1) units to a bin, so 2^(64 - W) elements fit in a 64-bit sum.
  CHECK(binned_max_elements<float>() + 1 == std::size_t{1} << 51);
  CHECK(binned_max_elements<double>() + 1 == std::size_t{1} << 36);
  CHECK(binned_deposits_per_flush<float>() == 2048);
}

TEMPLATE_TEST_CASE("a binned stage's check: the CPU's bits pass, one unit in the last place off fails",
                   "[cpu][binned][selftest]", float, double) {
  using T = TestType;
  // The check reduce_stage_6 is held to on data that is not exact (Reduce::check, Caps::binned):
  // proven able to fail, without a GPU, on an output one unit in the last place away.
  const std::vector<T> v = data<T>(100003, "signed", 17);
  const ReduceReference ref = compute_reference(v.data(), v.size(), Op::sum);
  REQUIRE(ref.has_binned);
  Stage<Reduce> s;
  s.name = "binned_check";
  s.caps.binned = true;
  ReduceArgs a;
  a.type = dtype_of<T>();
  a.n = v.size();
  const T right = static_cast<T>(ref.binned);
  CHECK(bits_of(right) == bits_of(binned_sum_cpu(v.data(), v.size())));
  const Verification pass = Reduce::check(s, a, ref, &right, false);
  INFO(pass.message);
  CHECK(pass.ok);
  CHECK(pass.kind == CheckKind::exact);
  for (T wrong : {std::nextafter(right, std::numeric_limits<T>::infinity()), std::nextafter(right, -std::numeric_limits<T>::infinity()),
                  -right, binned_nan<T>()}) {
    const Verification fail = Reduce::check(s, a, ref, &wrong, false);
    INFO(fail.message);
    CHECK_FALSE(fail.ok);
  }
  // The same stage without Caps::binned is held to the depth bound instead, which a unit in the
  // last place passes: the bit check is what makes the difference.
  s.caps.binned = false;
  s.depth = [](const ReduceArgs&) { return 100.0; };
  const T near = std::nextafter(right, std::numeric_limits<T>::infinity());
  CHECK(Reduce::check(s, a, ref, &near, false).ok);
}
