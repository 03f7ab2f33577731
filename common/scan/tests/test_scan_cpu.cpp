// CPU tests of the scan harness: the reference walk against a naive loop, the check failing on a
// shifted output and on one wrong element, the "not checked" verdict, and the host model of the
// Blelloch block scan reproducing the chapter's exercise 3 level by level.
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "blelloch_model.hpp"
#include "catch.hpp"
#include "inputs.hpp"
#include "scan_check.hpp"

using namespace harness;

namespace {

// The scan written as plainly as possible; ints wrap modulo 2^32 (added as unsigned), floats
// accumulate in long double and are rounded once per output.
template <class T>
std::vector<T> naive_scan(const std::vector<T>& a, bool inclusive) {
  std::vector<T> out(a.size());
  if constexpr (std::is_integral_v<T>) {
    std::uint32_t run = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (inclusive) run += static_cast<std::uint32_t>(a[i]);
      out[i] = static_cast<T>(run);
      if (!inclusive) run += static_cast<std::uint32_t>(a[i]);
    }
  } else {
    long double run = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (inclusive) run += a[i];
      out[i] = static_cast<T>(run);
      if (!inclusive) run += a[i];
    }
  }
  return out;
}

// A scan computed in T itself, serially: the depth of output i is i (or i + 1), at most n.
template <class T>
std::vector<T> serial_scan_in_type(const std::vector<T>& a, bool inclusive) {
  std::vector<T> out(a.size());
  T run = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (inclusive) run += a[i];
    out[i] = run;
    if (!inclusive) run += a[i];
  }
  return out;
}

}  // namespace

TEMPLATE_TEST_CASE("reference scan equals a naive loop", "[cpu][scan]", float, double, int) {
  const std::size_t chunk = 7;  // tiny chunks: many chunk boundaries
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{6},
                        std::size_t{7}, std::size_t{8}, std::size_t{14}, std::size_t{15},
                        std::size_t{1000}}) {
    for (bool inclusive : {false, true}) {
      const auto a = make_host_input<TestType>(n, Dist::signed_uniform, 42 + n);
      const auto want = naive_scan(a, inclusive);
      CAPTURE(n, inclusive);
      CHECK(reference_scan(a.data(), n, inclusive, chunk) == want);
      CHECK(reference_scan(a.data(), n, inclusive) == want);  // the default chunk: one chunk
    }
  }
}

TEST_CASE("reference scan: n = 0 and n = 1", "[cpu][scan]") {
  CHECK(reference_scan<float>(nullptr, 0, false).empty());
  const float one = 2.5f;
  CHECK(reference_scan(&one, 1, false) == std::vector<float>{0.0f});
  CHECK(reference_scan(&one, 1, true) == std::vector<float>{2.5f});
  const Verification v = check_scan<float>(nullptr, nullptr, 0, false, false, 1);
  CHECK(v.ok);
}

TEST_CASE("int scans wrap modulo 2^32, like the GPU's 32-bit add", "[cpu][scan]") {
  const std::vector<int> a{INT_MAX, 1, 1, INT_MIN, -5};
  const auto inc = reference_scan(a.data(), a.size(), true, 2);
  CHECK(inc == std::vector<int>{INT_MAX, INT_MIN, INT_MIN + 1, 1, -4});
  CHECK(inc == naive_scan(a, true));
  const auto exc = reference_scan(a.data(), a.size(), false, 2);
  CHECK(exc == std::vector<int>{0, INT_MAX, INT_MIN, INT_MIN + 1, 1});
  const Verification v = check_scan(a.data(), inc.data(), a.size(), true, false, 0, 2);
  CHECK(v.ok);
  CHECK(v.kind == CheckKind::exact);
}

TEMPLATE_TEST_CASE("the check passes a right scan and fails a shifted one", "[cpu][scan]", float,
                   double, int) {
  const std::size_t n = 5000;
  const auto a = make_host_input<TestType>(n, Dist::exact, 7);
  for (bool inclusive : {false, true}) {
    CAPTURE(inclusive);
    const auto right = reference_scan(a.data(), n, inclusive, 64);
    const Verification ok = check_scan(a.data(), right.data(), n, inclusive, true, 1e9, 64);
    CHECK(ok.ok);
    CHECK(ok.kind == CheckKind::exact);
    // out[i] = correct[i - 1] (out[0] = 0): the broken stage's shift.
    std::vector<TestType> shifted(n, TestType(0));
    for (std::size_t i = 1; i < n; ++i) shifted[i] = right[i - 1];
    const Verification bad = check_scan(a.data(), shifted.data(), n, inclusive, true, 1e9, 64);
    CHECK_FALSE(bad.ok);
    // The first wrong index: the first i where right[i] != right[i - 1] (or right[0] != 0).
    std::size_t first = 0;
    while (first < n && shifted[first] == right[first]) ++first;
    CHECK(bad.first_bad == first);
    CHECK(bad.got == static_cast<double>(shifted[first]));
    CHECK(bad.expected == static_cast<double>(right[first]));
  }
}

TEMPLATE_TEST_CASE("the check finds one wrong element", "[cpu][scan]", float, double, int) {
  const std::size_t n = 3001;
  const auto a = make_host_input<TestType>(n, Dist::exact, 11);
  auto out = reference_scan(a.data(), n, false, 100);
  for (std::size_t wrong : {std::size_t{0}, std::size_t{99}, std::size_t{100}, std::size_t{1777},
                            n - 1}) {
    auto broken = out;
    broken[wrong] += 1;
    const Verification v = check_scan(a.data(), broken.data(), n, false, true, 64, 100);
    CAPTURE(wrong);
    CHECK_FALSE(v.ok);
    CHECK(v.first_bad == wrong);
    CHECK(v.got == static_cast<double>(broken[wrong]));
    CHECK(v.expected == static_cast<double>(out[wrong]));
    CHECK(v.message.find("exclusive") != std::string::npos);
  }
}

TEST_CASE("random floats: the depth bound decides small scans", "[cpu][scan]") {
  const std::size_t n = 4096;
  const auto a = make_host_input<float>(n, Dist::uniform, 3);  // non-negative: |prefix| = prefix of |a|
  const auto got = serial_scan_in_type(a, true);
  const Verification v = check_scan(a.data(), got.data(), n, true, false, static_cast<double>(n));
  CHECK(v.ok);
  CHECK(v.kind == CheckKind::bound);
  // A shifted result is far outside the bound at the very first elements.
  std::vector<float> shifted(n, 0.0f);
  for (std::size_t i = 1; i < n; ++i) shifted[i] = got[i - 1];
  const Verification bad = check_scan(a.data(), shifted.data(), n, true, false, static_cast<double>(n));
  CHECK_FALSE(bad.ok);
  CHECK(bad.kind == CheckKind::bound);
  CHECK(bad.first_bad == 0);
}

TEST_CASE("large random signed floats with a long chain: not checked", "[cpu][scan]") {
  // A serial float scan has depth n: at n = 2^22, gamma_n = 0.125, so the bound 0.125 * prefix|a|
  // (~ i / 16) dwarfs |prefix| (~ sqrt(i) / 2) almost everywhere. The verdict must say so.
  const std::size_t n = std::size_t{1} << 22;
  const auto a = make_host_input<float>(n, Dist::signed_uniform, 9);
  const auto got = serial_scan_in_type(a, false);
  const Verification v = check_scan(a.data(), got.data(), n, false, false, static_cast<double>(n));
  CHECK(v.ok);
  CHECK(v.kind == CheckKind::unchecked);
  CHECK(v.message.find("not checked") != std::string::npos);
}

TEST_CASE("NaN and infinity must match in kind", "[cpu][scan]") {
  const std::vector<float> a{1.0f, INFINITY, 2.0f};
  const std::vector<float> good{1.0f, INFINITY, INFINITY};
  CHECK(check_scan(a.data(), good.data(), 3, true, false, 4).ok);
  const std::vector<float> bad{1.0f, INFINITY, 3.0f};
  const Verification v = check_scan(a.data(), bad.data(), 3, true, false, 4);
  CHECK_FALSE(v.ok);
  CHECK(v.first_bad == 2);
}

TEST_CASE("the run-time type entry point dispatches", "[cpu][scan]") {
  const std::vector<int> a{1, 2, 3, 4};
  const std::vector<int> out{0, 1, 3, 6};
  CHECK(check_scan(DType::i32, a.data(), out.data(), 4, false, true, 1).ok);
  CHECK_FALSE(check_scan(DType::i32, a.data(), out.data(), 4, true, true, 1).ok);
}

TEST_CASE("host Blelloch model: exercise 3, level by level", "[cpu][scan][blelloch]") {
  const std::vector<int> a{1, 2, 3, 4};
  const BlellochTrace t = blelloch_model_trace(a.data(), a.size());
  REQUIRE(t.tile == 4);
  REQUIRE(t.labels == std::vector<std::string>{"input", "upsweep stride 1", "upsweep stride 2",
                                               "clear root", "downsweep stride 2",
                                               "downsweep stride 1"});
  REQUIRE(t.rows.size() == 6);
  CHECK(t.rows[0] == std::vector<double>{1, 2, 3, 4});
  CHECK(t.rows[1] == std::vector<double>{1, 3, 3, 7});   // s[1] += s[0], s[3] += s[2]
  CHECK(t.rows[2] == std::vector<double>{1, 3, 3, 10});  // s[3] += s[1]: the total
  CHECK(t.rows[3] == std::vector<double>{1, 3, 3, 0});   // the root's carry is 0
  CHECK(t.rows[4] == std::vector<double>{1, 0, 3, 3});   // carry 0 left, 0 + 3 right
  CHECK(t.rows[5] == std::vector<double>{0, 1, 3, 6});   // the exclusive prefix
  const std::string text = format_blelloch_trace(t);
  CHECK(text.find("downsweep stride 1 : [0, 1, 3, 6]") != std::string::npos);
  CHECK(text.find("exclusive scan     : [0, 1, 3, 6]") != std::string::npos);
}

TEMPLATE_TEST_CASE("host Blelloch model: any n, padded to a power of two, gives the exclusive scan",
                   "[cpu][scan][blelloch]", float, double, int) {
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{5}, std::size_t{32},
                        std::size_t{33}, std::size_t{1000}}) {
    const auto a = make_host_input<TestType>(n, Dist::exact, n);
    const BlellochTrace t = blelloch_model_trace(a.data(), n);
    CHECK(t.tile == blelloch_tile_for(n));
    CHECK(t.rows.size() == t.labels.size());
    const auto want = naive_scan(a, false);
    for (std::size_t i = 0; i < n; ++i) CHECK(t.rows.back()[i] == static_cast<double>(want[i]));
  }
}
