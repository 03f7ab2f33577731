//! @file reduce_reference.hpp
//! @brief CPU references for reductions: sums accumulated in double with Neumaier's compensation (or exactly, for integers),
//! maxima and minima, and the sum of absolute values that the error bound needs.
#pragma once
#include <cstddef>

#include "dtype.hpp"

namespace harness {

//! What a reduction of n elements should give, computed on the CPU.
//!
//! NaN policy for max and min (shared by the GPU stages and this reference): NaN propagates. If any
//! element is NaN the result is NaN; otherwise it is the largest (smallest) element, with -0.0 and
//! +0.0 equal. For sums NaN propagates by IEEE arithmetic.
struct ReduceReference {
  Op op = Op::sum;            //!< the operator
  DType type = DType::f32;    //!< element type of the input
  std::size_t n = 0;          //!< number of elements
  double value = 0;           //!< floats: the compensated sum in double, or the max/min; ints: the exact value as double
  long long exact = 0;        //!< ints: the exact sum (int64, no wrap), max or min
  double abs_sum = 0;         //!< sum of |a_i| in double, for the error bound
  bool has_nan = false;       //!< some element is NaN
  //! Float and double sums: the binned sum of the elements (binned_sum_cpu, held exactly as a
  //! double), which a stage whose Reduce::Caps::binned is set must return bit for bit.
  double binned = 0;
  bool has_binned = false;    //!< `binned` was computed (a sum of float or double)
};

//! Reduces `a[0..n)` with `op` on the CPU using every core; the chunking is fixed, so the result
//! does not depend on the number of threads. Sums of floats and doubles accumulate in double with
//! Neumaier's compensation (within about 2 eps of the exact sum, so a stage's error is not lost in
//! the reference's own); sums of ints in
//! int64, exactly. n = 0 gives the identity (0 for sum, -inf/+inf or INT_MIN/INT_MAX for max/min).
//! A sum of floats or doubles also gets its binned sum (ReduceReference::binned).
//! @tparam T float, double or int (the instantiations in reference.cpp)
template <class T>
ReduceReference compute_reference(const T* a, std::size_t n, Op op);

}  // namespace harness
