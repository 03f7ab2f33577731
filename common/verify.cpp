#include "verify.hpp"

#include <cfloat>
#include <cmath>
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

}  // namespace harness
