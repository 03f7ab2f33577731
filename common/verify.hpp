//! @file verify.hpp
//! @brief What every problem's check reports: which check decided, the error and its bound, the first
//! wrong index; and the error bound from an algorithm's summation depth.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "dtype.hpp"

namespace harness {

//! Machine epsilon of a type (FLT_EPSILON = 2^-23, DBL_EPSILON = 2^-52; 0 for integers).
double machine_epsilon(DType t);

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
  std::size_t first_bad = static_cast<std::size_t>(-1);  //!< first wrong output index (array outputs), or -1
  double got = 0;          //!< the GPU result
  double expected = 0;     //!< the CPU reference
  double abs_err = 0;      //!< |got - expected|
  double bound = 0;        //!< tolerance used (0 when exact)
  std::string message;     //!< one line saying what was compared and why it failed, if it did
};

}  // namespace harness
