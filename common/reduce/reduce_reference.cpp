#include "reduce_reference.hpp"

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "binned_sum.hpp"
#include "inputs.hpp"

namespace harness {

namespace {

// Neumaier's compensated sum (Neumaier 1974, the improved Kahan-Babuska sum): `sum` is the running
// total and `carry` the rounding errors of its additions, each recovered exactly (no product, so no
// contraction into an FMA can change it). sum + carry is within about 2 eps |total| plus n eps^2
// sum|a_i| of the exact sum, far inside any stage's depth bound: a plain double sum of 2^26 double
// inputs can be off by more than the bound of the stage it checks.
struct CompensatedSum {
  double sum = 0, carry = 0;
  void add(double v) {
    const double t = sum + v;
    if (std::isfinite(t))  // past infinity (or NaN) there is no rounding error to keep: inf - inf is NaN
      carry += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  void add(const CompensatedSum& o) {
    add(o.sum);
    add(o.carry);
  }
  double value() const { return sum + carry; }
};

struct Partial {
  CompensatedSum sum;
  double abs_sum = 0;
  long long isum = 0;
  double best = 0;
  long long ibest = 0;
  bool any = false, nan = false;
};

// The partial of elements [b, e): their sum, |sum| and extreme (by `op`), in double for floats and
// exactly for ints (the float sum compensated); NaN noted and left out of the extreme.
template <class T>
Partial fold_chunk(const T* a, std::size_t b, std::size_t e, Op op) {
  Partial p;
  for (std::size_t i = b; i < e; ++i) {
    const T v = a[i];
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) p.nan = true;
      p.sum.add(static_cast<double>(v));
      p.abs_sum += std::fabs(static_cast<double>(v));
      const double d = static_cast<double>(v);
      if (!std::isnan(v) && (!p.any || (op == Op::max ? d > p.best : d < p.best))) {
        p.best = d;
        p.any = true;
      }
    } else {
      p.isum += v;
      p.abs_sum += std::fabs(static_cast<double>(v));
      if (!p.any || (op == Op::max ? v > p.ibest : v < p.ibest)) {
        p.ibest = v;
        p.any = true;
      }
    }
  }
  return p;
}

// The chunks' partials folded in chunk order (the sum, |sum|, NaN and extreme of all elements).
template <class T>
Partial fold_partials(const std::vector<Partial>& parts, Op op) {
  Partial all;
  for (const Partial& p : parts) {
    all.sum.add(p.sum);
    all.isum += p.isum;
    all.abs_sum += p.abs_sum;
    all.nan = all.nan || p.nan;
    if (!p.any) continue;
    if constexpr (std::is_floating_point_v<T>) {
      if (!all.any || (op == Op::max ? p.best > all.best : p.best < all.best)) all.best = p.best;
    } else {
      if (!all.any || (op == Op::max ? p.ibest > all.ibest : p.ibest < all.ibest)) all.ibest = p.ibest;
    }
    all.any = true;
  }
  return all;
}

}  // namespace

template <class T>
ReduceReference compute_reference(const T* a, std::size_t n, Op op) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<Partial> parts((n + kChunk - 1) / kChunk);
  parallel_chunks(n, kChunk, [&](std::size_t b, std::size_t e, std::size_t c) { parts[c] = fold_chunk(a, b, e, op); });
  const Partial all = fold_partials<T>(parts, op);
  ReduceReference r;
  r.op = op;
  r.type = dtype_of<T>();
  r.n = n;
  r.abs_sum = all.abs_sum;
  r.has_nan = all.nan;
  if constexpr (std::is_floating_point_v<T>) {
    if (op == Op::sum) {
      r.value = all.sum.value();
      r.binned = static_cast<double>(binned_sum_cpu(a, n));
      r.has_binned = true;
    } else if (r.has_nan) {
      r.value = std::numeric_limits<double>::quiet_NaN();
    } else if (!all.any) {
      r.value = op == Op::max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    } else {
      r.value = all.best;
    }
  } else {
    if (op == Op::sum) {
      r.exact = all.isum;
    } else if (!all.any) {
      r.exact = op == Op::max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    } else {
      r.exact = all.ibest;
    }
    r.value = static_cast<double>(r.exact);
  }
  return r;
}

template ReduceReference compute_reference<float>(const float*, std::size_t, Op);
template ReduceReference compute_reference<double>(const double*, std::size_t, Op);
template ReduceReference compute_reference<int>(const int*, std::size_t, Op);

}  // namespace harness
