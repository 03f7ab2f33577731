//! @file histogram_sample_type.hpp
//! @brief Run-time sample type of a histogram (8-bit, int, float) to a C++ type.
//! harness::with_input_type covers the reduction's inputs (float, double, int); a histogram's
//! samples are unsigned char, int or float.
#pragma once
#include <string>

#include "dtype.hpp"
#include "errors.hpp"

namespace harness {

//! Calls `f(T{})` with T the C++ type of a histogram sample type: unsigned char (DType::u8),
//! int (DType::i32) or float (DType::f32).
//! @tparam F a generic callable taking unsigned char, int and float; all three calls return one type
//! @param[in] t the run-time sample type
//! @param[in] f called once with a value-initialised T
//! @return what `f` returns
//! @throws UsageError for any other type
template <class F>
decltype(auto) with_sample_type(DType t, F&& f) {
  switch (t) {
    case DType::u8: return f(static_cast<unsigned char>(0));
    case DType::i32: return f(int{});
    case DType::f32: return f(float{});
    default: break;
  }
  throw UsageError(std::string("unsupported histogram sample type: ") + dtype_name(t) +
                   " (use uint8, int or float)");
}

}  // namespace harness
