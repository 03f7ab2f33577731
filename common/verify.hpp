//! @file verify.hpp
//! @brief Comparing a GPU result with its CPU reference, with a tolerance derived from an error bound.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "dtype.hpp"
#include "reference.hpp"

namespace harness {

//! Machine epsilon of a type (FLT_EPSILON = 2^-23, DBL_EPSILON = 2^-52; 0 for integers).
double machine_epsilon(DType t);

//! Error bound for a floating-point sum of n terms in any order: n * eps * sum|a_i|.
//! This is the classic worst-case bound for recursive summation (Higham, "Accuracy and Stability
//! of Numerical Algorithms", 2nd ed., section 4.2: |error| <= (n-1) u sum|a_i| + O(u^2), u = eps/2),
//! rounded up. It holds for every summation order, so it holds for every stage; it grows loose for
//! large n (at n * eps >= 1 it bounds nothing), which is why exact-sum tests exist as well.
//! @param[in] n number of summed elements
//! @param[in] eps machine epsilon of the accumulation type
//! @param[in] abs_sum sum of |a_i|
double sum_error_bound(std::size_t n, double eps, double abs_sum);

//! Which check decided a verification.
enum class CheckKind {
  exact,     //!< equality with an exactly known answer (exact data, integers, max/min)
  bound,     //!< |error| within a bound from the algorithm's depth, and the bound is tighter than the answer
  unchecked  //!< the bound is too loose to tell a right answer from a wrong one: reported, not decided
};

//! Name of a check as reports print it: "exact", "bound", "unchecked".
const char* check_name(CheckKind k);

//! Error bound of a floating-point sum whose every term goes through at most `depth` roundings
//! (the longest chain of additions from an input to the output): gamma_depth * sum|a_i| with
//! gamma_d = d u / (1 - d u) and u = eps / 2 the unit roundoff (Higham, "Accuracy and Stability of
//! Numerical Algorithms", 2nd ed., section 4.2 and lemma 3.1). Infinite when depth * u >= 1.
//! @param[in] depth longest addition chain (>= 0)
//! @param[in] eps machine epsilon of the accumulation type
//! @param[in] abs_sum sum of |a_i| over the terms of this output
double depth_error_bound(double depth, double eps, double abs_sum);

//! The outcome of one comparison.
struct Verification {
  bool ok = false;         //!< the result passed (always true for CheckKind::unchecked: nothing was decided)
  CheckKind kind = CheckKind::exact;  //!< which check decided
  bool exact = false;      //!< the comparison demanded equality (integers, max/min, exact data)
  std::size_t first_bad = static_cast<std::size_t>(-1);  //!< first wrong output index (array outputs), or -1
  double got = 0;          //!< the GPU result
  double expected = 0;     //!< the CPU reference
  double abs_err = 0;      //!< |got - expected|
  double bound = 0;        //!< tolerance used (0 when exact)
  std::string message;     //!< one line saying what was compared and why it failed, if it did
};

//! Compares a GPU result with the reference.
//! - Integer outputs, max and min, and `require_exact`: the result must equal the reference
//!   (for max/min a NaN reference needs a NaN result; -0.0 equals +0.0). An int32 result whose exact
//!   sum does not fit in 32 bits fails with an overflow message.
//! - Floating-point sums: |got - expected| <= sum_error_bound(n, eps(out_type), abs_sum).
//! @param[in] ref the CPU reference
//! @param[in] out_type type of the GPU result
//! @param[in] got_bits address of the GPU result, copied to the host (dtype_size(out_type) bytes)
//! @param[in] require_exact demand equality (inputs whose every partial sum is exact)
Verification verify_result(const Reference& ref, DType out_type, const void* got_bits,
                           bool require_exact);

}  // namespace harness
