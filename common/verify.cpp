#include "verify.hpp"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace harness {

double machine_epsilon(DType t) {
  switch (t) {
    case DType::f32: return FLT_EPSILON;
    case DType::f64: return DBL_EPSILON;
    default: return 0.0;
  }
}

const char* check_name(CheckKind k) {
  switch (k) {
    case CheckKind::exact: return "exact";
    case CheckKind::bound: return "bound";
    case CheckKind::unchecked: return "unchecked";
  }
  return "?";
}

double depth_error_bound(double depth, double eps, double abs_sum) {
  const double du = depth * eps / 2;
  if (du >= 1) return std::numeric_limits<double>::infinity();
  return du / (1 - du) * abs_sum;
}

double sum_error_bound(std::size_t n, double eps, double abs_sum) {
  return static_cast<double>(n) * eps * abs_sum;
}

namespace {

std::string fmt(const char* f, double a, double b, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

}  // namespace

Verification verify_result(const Reference& ref, DType out_type, const void* got_bits,
                           bool require_exact) {
  Verification v;
  v.expected = ref.value;
  if (out_type == DType::f32 || out_type == DType::f64) {
    double got = 0;
    if (out_type == DType::f32) {
      float f;
      std::memcpy(&f, got_bits, sizeof f);
      got = f;
    } else {
      std::memcpy(&got, got_bits, sizeof got);
    }
    v.got = got;
    const bool nan_expected = std::isnan(ref.value);
    if (nan_expected || std::isnan(got)) {
      v.exact = true;
      v.ok = nan_expected && std::isnan(got);
      v.abs_err = v.ok ? 0 : std::numeric_limits<double>::infinity();
      v.message = v.ok ? "NaN as expected"
                       : fmt("got %.9g, expected %.9g (NaN mismatch)", got, ref.value);
      return v;
    }
    v.abs_err = std::fabs(got - ref.value);
    if (std::isinf(ref.value) || std::isinf(got)) v.abs_err = (got == ref.value) ? 0 : INFINITY;
    if (ref.op != Op::sum || require_exact) {
      v.exact = true;
      v.ok = (got == ref.value);
      v.message = v.ok ? fmt("got %.17g == expected %.17g (exact)", got, ref.value)
                       : fmt("got %.17g, expected exactly %.17g (|err| %.3g)", got, ref.value,
                             v.abs_err);
      return v;
    }
    v.bound = sum_error_bound(ref.n, machine_epsilon(out_type), ref.abs_sum);
    v.ok = v.abs_err <= v.bound;
    v.message = fmt(v.ok ? "|err| %.3g <= bound %.3g (n*eps*sum|a|)"
                         : "|err| %.3g exceeds bound %.3g (n*eps*sum|a|); got %.17g, expected %.17g",
                    v.abs_err, v.bound, got, ref.value);
    return v;
  }

  // Integer outputs: always exact.
  long long got = 0;
  if (out_type == DType::i32) {
    int i;
    std::memcpy(&i, got_bits, sizeof i);
    got = i;
  } else {
    std::memcpy(&got, got_bits, sizeof got);
  }
  v.exact = true;
  v.got = static_cast<double>(got);
  v.abs_err = std::fabs(static_cast<double>(got) - static_cast<double>(ref.exact));
  if (out_type == DType::i32 && (ref.exact > std::numeric_limits<int>::max() ||
                                 ref.exact < std::numeric_limits<int>::min())) {
    v.ok = false;
    v.message = "exact sum " + std::to_string(ref.exact) +
                " does not fit in a 32-bit int: the int reduction overflows (use a wider output)";
    return v;
  }
  v.ok = (got == ref.exact);
  v.message = v.ok ? "got " + std::to_string(got) + " == expected (exact)"
                   : "got " + std::to_string(got) + ", expected exactly " + std::to_string(ref.exact);
  return v;
}

}  // namespace harness
