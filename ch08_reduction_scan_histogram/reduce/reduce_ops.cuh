//! @file reduce_ops.cuh
//! @brief The operators of chapter 8's reductions (sum, max, min) as functors with their identity
//! values and accumulator types, usable in host code and device code alike.
//!
//! One definition serves the GPU stages, the second pass, the CPU tests and (by following the same
//! rules) the CPU reference in common/reference.cpp:
//! - **Sum** accumulates ints in 64 bits (long long), so an int sum is exact for any n below 2^32
//!   elements (|sum| <= n * 2^31 < 2^63); floats and doubles accumulate in their own type.
//!   Identity: 0.
//! - **Max / Min** accumulate in the input type. NaN policy: NaN propagates. If either operand is
//!   NaN the result is NaN, whatever the order, so a reduction over data that holds a NaN anywhere
//!   returns NaN whatever its tree shape. -0.0 and +0.0 compare equal (either may come back).
//!   Identities: -inf / +inf for float and double, INT_MIN / INT_MAX for int. An identity is
//!   absorbed by every value (op(identity, x) == x; a NaN x gives a NaN), so it can only appear as the
//!   answer of a non-empty input if it is the true answer (e.g. max over all -inf).
//!
//!   A float max or min that meets a NaN returns the canonical NaN (0x7fffffff) on every GPU and on
//!   the host; a double one returns the NaN operand.
//! Pitfall: fmaxf / fminf (and std::fmax) do not follow this policy: they return the non-NaN
//! operand, so a NaN would silently vanish. The policy is written out instead: for float, PTX's
//! max.NaN / min.NaN (one instruction on sm_80 and later), for double the comparisons.
//! Source: chapter 8, sections 8.1 (the reduction problem: any associative operator) and 8.6.
#pragma once
#include <climits>
#include <type_traits>

#include "dtype.hpp"

#if defined(__CUDACC__)
//! Marks a function callable from host and device code (plain `inline` for a host-only compiler).
#define CH08_HD __host__ __device__ __forceinline__
#else
//! Marks a function callable from host and device code (plain `inline` for a host-only compiler).
#define CH08_HD inline
#endif

namespace ch08 {

//! The lowest and highest values of an accumulator type, infinities included for floating point.
//! (Written out rather than taken from std::numeric_limits so that device code needs no
//! --expt-relaxed-constexpr.)
template <class A>
struct Extremes;
//! float: -inf and +inf
template <>
struct Extremes<float> {
  static constexpr CH08_HD float lowest() { return -__builtin_huge_valf(); }  //!< -inf
  static constexpr CH08_HD float highest() { return __builtin_huge_valf(); }  //!< +inf
};
//! double: -inf and +inf
template <>
struct Extremes<double> {
  static constexpr CH08_HD double lowest() { return -__builtin_huge_val(); }  //!< -inf
  static constexpr CH08_HD double highest() { return __builtin_huge_val(); }  //!< +inf
};
//! int: INT_MIN and INT_MAX
template <>
struct Extremes<int> {
  static constexpr CH08_HD int lowest() { return INT_MIN; }   //!< INT_MIN
  static constexpr CH08_HD int highest() { return INT_MAX; }  //!< INT_MAX
};
//! long long: LLONG_MIN and LLONG_MAX
template <>
struct Extremes<long long> {
  static constexpr CH08_HD long long lowest() { return LLONG_MIN; }   //!< LLONG_MIN
  static constexpr CH08_HD long long highest() { return LLONG_MAX; }  //!< LLONG_MAX
};

//! True when `x` is a NaN. Integers are never NaN. Uses x != x, which holds only for NaN (valid
//! with nvcc's default flags and with --use_fast_math, which does not assume NaN-free data).
template <class A>
constexpr CH08_HD bool is_nan(A x) {
  if constexpr (std::is_floating_point_v<A>) return x != x;
  else return false;
}

//! The canonical float NaN (0x7fffffff): what max.NaN.f32 and min.NaN.f32 return for a NaN operand,
//! and what the other paths below return too, so that a float max or min that meets a NaN gives
//! the same bits on every GPU and on the host.
CH08_HD float canonical_nan_f32() { return __builtin_bit_cast(float, 0x7fffffff); }

//! Float max with NaN propagation. On sm_80 and later one instruction, max.NaN.f32 (FMNMX.NAN in the
//! SASS), which returns the canonical NaN when either operand is NaN. Written as comparisons the
//! policy is a chain of three or four dependent instructions (NaN tests, a compare, selects), and a
//! fold is a chain of such operators. Elsewhere (sm_75, the host): the comparisons, with the
//! canonical NaN. The sign of a zero result may differ between the two paths (max.NaN orders -0.0
//! below +0.0, the comparisons do not), which the policy above allows. No CUDA math function or
//! libcu++ call has this policy (fmaxf drops the NaN), hence the one line of PTX. Source: PTX ISA, "max" (the .NaN qualifier, sm_80).
CH08_HD float max_nan_f32(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return (a != a || b != b) ? canonical_nan_f32() : (a > b ? a : b);
#endif
}

//! Float min with NaN propagation: min.NaN.f32 on sm_80 and later, else the comparisons (see
//! max_nan_f32).
CH08_HD float min_nan_f32(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return (a != a || b != b) ? canonical_nan_f32() : (a < b ? a : b);
#endif
}

//! Addition. Ints accumulate in long long (exact); float and double in their own type.
struct Sum {
  static constexpr harness::Op op = harness::Op::sum;  //!< the run-time operator it implements
  //! Accumulator (and output) type for input type T: long long for int, T otherwise.
  template <class T>
  using accumulator = std::conditional_t<std::is_integral_v<T>, long long, T>;
  //! 0, the identity of addition.
  template <class A>
  static constexpr CH08_HD A identity() { return A(0); }
  //! a + b (IEEE addition for floating point: a NaN operand gives NaN).
  template <class A>
  constexpr CH08_HD A operator()(A a, A b) const { return a + b; }
};

//! Maximum with NaN propagation (see the file comment for the policy).
struct Max {
  static constexpr harness::Op op = harness::Op::max;  //!< the run-time operator it implements
  //! Accumulator (and output) type for input type T: T itself.
  template <class T>
  using accumulator = T;
  //! -inf for float/double, INT_MIN for int: max(identity, x) == x for every x.
  template <class A>
  static constexpr CH08_HD A identity() { return Extremes<A>::lowest(); }
  //! NaN if a or b is NaN, else the larger of a and b. Commutative up to the sign of a zero:
  //! max(-0.0, +0.0) may return either zero. Double and int: a when a > b or a is NaN, else b (a NaN
  //! b fails a > b and is returned). The same results as testing each operand for NaN and then
  //! comparing, in one comparison fewer: nvcc folds the NaN test of a into the compare's predicate
  //! (two DSETP and two FSEL per double max on sm_90 instead of three DSETP).
  template <class A>
  constexpr CH08_HD A operator()(A a, A b) const {
    if constexpr (std::is_same_v<A, float>) return max_nan_f32(a, b);
    else return (a > b || is_nan(a)) ? a : b;
  }
};

//! Minimum with NaN propagation (see the file comment for the policy).
struct Min {
  static constexpr harness::Op op = harness::Op::min;  //!< the run-time operator it implements
  //! Accumulator (and output) type for input type T: T itself.
  template <class T>
  using accumulator = T;
  //! +inf for float/double, INT_MAX for int: min(identity, x) == x for every x.
  template <class A>
  static constexpr CH08_HD A identity() { return Extremes<A>::highest(); }
  //! NaN if a or b is NaN, else the smaller of a and b (either zero for -0.0 vs +0.0). Double and
  //! int: a when a < b or a is NaN, else b (see Max).
  template <class A>
  constexpr CH08_HD A operator()(A a, A b) const {
    if constexpr (std::is_same_v<A, float>) return min_nan_f32(a, b);
    else return (a < b || is_nan(a)) ? a : b;
  }
};

//! Accumulator type of operator `Op` over input type `T` (also the type of the partials and of the
//! result): `accumulator_t<Sum, int>` is long long.
template <class Op, class T>
using accumulator_t = typename Op::template accumulator<T>;

//! Calls `f(Sum{})`, `f(Max{})` or `f(Min{})` for a run-time operator, so that kernels templated on
//! the functor can be chosen at run time.
template <class F>
decltype(auto) with_op(harness::Op op, F&& f) {
  switch (op) {
    case harness::Op::max: return f(Max{});
    case harness::Op::min: return f(Min{});
    case harness::Op::sum: break;
  }
  return f(Sum{});
}

}  // namespace ch08
