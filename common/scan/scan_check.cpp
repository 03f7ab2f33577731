#include "scan_check.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

namespace harness {

namespace {

// What one chunk of the walk found.
struct ChunkVerdict {
  std::size_t first_bad = static_cast<std::size_t>(-1);
  double bad_got = 0, bad_expected = 0, bad_err = 0, bad_bound = 0;
  std::size_t decided = 0;
  std::size_t worst = static_cast<std::size_t>(-1);  // largest error among the good elements
  double worst_got = 0, worst_expected = 0, worst_err = -1, worst_bound = 0;
};

std::string format(const char* f, double a = 0, double b = 0, double c = 0, double d = 0,
                   double e = 0) {
  char buf[320];
  std::snprintf(buf, sizeof buf, f, a, b, c, d, e);
  return buf;
}

// The wide reference prefix as the output type's value (ints wrapped modulo 2^32).
template <class T>
long double expected_value(const ScanExpected<T>& x) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(x.prefix)));
  else
    return x.prefix;
}

// Compares out[i] (`got`) with its reference `x` and records the result in its chunk's verdict:
// exact data must match exactly (NaN matches NaN); other data must stay within the depth bound,
// and the bound "decides" an element where it is below |expected|.
template <class T>
void judge(ChunkVerdict& cv, std::size_t i, long double got, const ScanExpected<T>& x, bool exact, double depth,
           double eps) {
  const long double want = expected_value(x);
  bool bad = false;
  double err = 0, bound = 0;
  if (exact) {
    bad = !(got == want);
    if (!std::is_integral_v<T> && std::isnan(want) && std::isnan(got)) bad = false;
    err = bad ? static_cast<double>(std::fabs(got - want)) : 0.0;
  } else if (!std::isfinite(want) || !std::isfinite(got)) {
    bad = !((std::isnan(want) && std::isnan(got)) || want == got);
    err = bad ? std::numeric_limits<double>::infinity() : 0.0;
  } else {
    err = static_cast<double>(std::fabs(got - want));
    bound = depth_error_bound(depth, eps, static_cast<double>(x.abs_prefix));
    bad = err > bound;
    if (bound < static_cast<double>(std::fabs(want))) ++cv.decided;
  }
  if (bad) {
    if (cv.first_bad == static_cast<std::size_t>(-1)) {
      cv.first_bad = i;
      cv.bad_got = static_cast<double>(got);
      cv.bad_expected = static_cast<double>(want);
      cv.bad_err = err;
      cv.bad_bound = bound;
    }
  } else if (err > cv.worst_err) {
    cv.worst = i;
    cv.worst_got = static_cast<double>(got);
    cv.worst_expected = static_cast<double>(want);
    cv.worst_err = err;
    cv.worst_bound = bound;
  }
}

// The chunks' verdicts together: the first failing chunk (chunks are in index order), the chunk
// with the largest error among the good elements, and how many prefixes the bound decided.
struct WalkVerdict {
  const ChunkVerdict* bad = nullptr;
  const ChunkVerdict* worst = nullptr;
  std::size_t decided = 0;
};

WalkVerdict merge(const std::vector<ChunkVerdict>& verdicts) {
  WalkVerdict w;
  for (const ChunkVerdict& cv : verdicts) {
    w.decided += cv.decided;
    if (!w.bad && cv.first_bad != static_cast<std::size_t>(-1)) w.bad = &cv;
    if (cv.worst != static_cast<std::size_t>(-1) && (!w.worst || cv.worst_err > w.worst->worst_err)) w.worst = &cv;
  }
  return w;
}

// `v` failed at bad.first_bad, with the message that names the element.
Verification failed(Verification v, const ChunkVerdict& bad, const char* what, bool exact, bool integer,
                    double depth) {
  v.ok = false;
  v.first_bad = bad.first_bad;
  v.got = bad.bad_got;
  v.expected = bad.bad_expected;
  v.abs_err = bad.bad_err;
  v.bound = bad.bad_bound;
  if (exact)
    v.message = std::string(what) +
                format(integer ? " scan: out[%.0f] = %.17g, expected %.17g (int prefixes compared modulo 2^32)"
                               : " scan: out[%.0f] = %.17g, expected exactly %.17g",
                       static_cast<double>(v.first_bad), v.got, v.expected);
  else
    v.message = std::string(what) +
                format(" scan: out[%.0f] = %.17g, expected %.17g: |err| %.3g exceeds the bound %.3g",
                       static_cast<double>(v.first_bad), v.got, v.expected, v.abs_err, v.bound);
  if (!exact) v.message += format(" (depth %.0f)", depth);
  return v;
}

// `v` passed: exact, within the bound where the bound decides at least half the prefixes, else
// not checked; the largest error among the elements (`worst`) is reported.
Verification passed(Verification v, const WalkVerdict& w, std::size_t n, const char* what, bool exact, bool integer,
                    double depth) {
  const double dn = static_cast<double>(n);
  v.ok = true;
  if (w.worst) {
    v.got = w.worst->worst_got;
    v.expected = w.worst->worst_expected;
    v.abs_err = w.worst->worst_err;
    v.bound = w.worst->worst_bound;
  }
  if (exact) {
    v.message = std::string(what) + format(integer ? " scan: all %.0f prefixes equal the reference modulo 2^32"
                                                   : " scan: all %.0f prefixes equal the exact reference",
                                           dn);
    return v;
  }
  const double share = static_cast<double>(w.decided) / dn;
  if (2 * w.decided >= n) {
    v.kind = CheckKind::bound;
    v.message = std::string(what) +
                format(" scan: every |err| within its depth bound (depth %.0f); the bound decides "
                       "%.1f%% of %.0f prefixes; largest |err| %.3g (its bound %.3g)",
                       depth, 100 * share, dn, v.abs_err, v.bound);
  } else {
    v.kind = CheckKind::unchecked;
    v.message = std::string(what) +
                format(" scan: not checked: the depth bound (depth %.0f) exceeds |expected| at "
                       "%.1f%% of %.0f prefixes, so it cannot tell right from wrong (no prefix "
                       "exceeded its bound; largest |err| %.3g)",
                       depth, 100 * (1 - share), dn, v.abs_err);
  }
  return v;
}

}  // namespace

template <class T>
Verification check_scan(const T* in, const T* out, std::size_t n, bool inclusive, bool exact_data,
                        double depth, std::size_t chunk) {
  constexpr bool kInt = std::is_integral_v<T>;
  const bool exact = kInt || exact_data;
  const double eps = machine_epsilon(dtype_of<T>());
  Verification v;
  v.kind = exact ? CheckKind::exact : CheckKind::bound;
  const char* what = inclusive ? "inclusive" : "exclusive";
  if (n == 0) {
    v.ok = true;
    v.message = std::string("empty ") + what + " scan: nothing to compare";
    return v;
  }
  std::vector<ChunkVerdict> verdicts((n + chunk - 1) / chunk);
  scan_reference_walk(
      in, n, inclusive,
      [&](std::size_t c, std::size_t i, const ScanExpected<T>& x) {
        judge(verdicts[c], i, static_cast<long double>(out[i]), x, exact, depth, eps);
      },
      chunk);
  const WalkVerdict w = merge(verdicts);
  return w.bad ? failed(v, *w.bad, what, exact, kInt, depth) : passed(v, w, n, what, exact, kInt, depth);
}

Verification check_scan(DType type, const void* in, const void* out, std::size_t n, bool inclusive,
                        bool exact_data, double depth, std::size_t chunk) {
  return with_input_type(type, [&](auto t) {
    using T = decltype(t);
    return check_scan<T>(static_cast<const T*>(in), static_cast<const T*>(out), n, inclusive,
                         exact_data, depth, chunk);
  });
}

template Verification check_scan<float>(const float*, const float*, std::size_t, bool, bool, double, std::size_t);
template Verification check_scan<double>(const double*, const double*, std::size_t, bool, bool, double, std::size_t);
template Verification check_scan<int>(const int*, const int*, std::size_t, bool, bool, double, std::size_t);

}  // namespace harness
