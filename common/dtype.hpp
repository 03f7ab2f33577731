//! @file dtype.hpp
//! @brief Element types and reduction operators chosen at run time, and dispatch to templates.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "errors.hpp"

namespace harness {

//! Element type of an input or output array.
enum class DType {
  f32,  //!< float (4 bytes)
  f64,  //!< double (8 bytes)
  i32,  //!< int (4 bytes)
  i64,  //!< long long (8 bytes); used for exact integer outputs
  u8    //!< unsigned char (1 byte); histogram samples
};

//! Reduction operator.
enum class Op {
  sum,  //!< a_0 + a_1 + ... ; identity 0
  max,  //!< the largest element; identity the lowest value of the type
  min   //!< the smallest element; identity the highest value of the type
};

//! C++ type of a DType: `DTypeTraits<DType::f32>::type` is float.
//! @tparam D the element type; f32, f64, i32 and i64 each have a specialisation
template <DType D>
struct DTypeTraits;
//! float
template <>
struct DTypeTraits<DType::f32> {
  using type = float;  //!< the C++ type
};
//! double
template <>
struct DTypeTraits<DType::f64> {
  using type = double;  //!< the C++ type
};
//! int
template <>
struct DTypeTraits<DType::i32> {
  using type = int;  //!< the C++ type
};
//! long long
template <>
struct DTypeTraits<DType::i64> {
  using type = long long;  //!< the C++ type
};

//! unsigned char
template <>
struct DTypeTraits<DType::u8> {
  using type = unsigned char;  //!< the C++ type
};

//! DType of a C++ type: `dtype_of<float>()` is DType::f32.
//! @tparam T float, double, int, long long or unsigned char; any other type fails to compile (static_assert)
template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return DType::f32;
  else if constexpr (std::is_same_v<T, double>) return DType::f64;
  else if constexpr (std::is_same_v<T, int>) return DType::i32;
  else if constexpr (std::is_same_v<T, unsigned char>) return DType::u8;
  else {
    static_assert(std::is_same_v<T, long long>, "unsupported element type");
    return DType::i64;
  }
}

//! Name of a type as the command line spells it: "float", "double", "int", "int64".
const char* dtype_name(DType t);
//! Size of one element in bytes.
std::size_t dtype_size(DType t);
//! Parses "float"/"f32", "double"/"f64", "int"/"i32" (input types). Throws UsageError otherwise.
DType parse_dtype(const std::string& s);
//! Name of an operator: "sum", "max", "min".
const char* op_name(Op op);
//! Parses "sum", "max" or "min". Throws UsageError otherwise.
Op parse_op(const std::string& s);

//! Calls `f(T{})` with T the C++ type of an input DType (float, double or int).
//! @tparam F a generic callable taking float, double and int; all three calls must return one type
//! @param[in] t the run-time input type
//! @param[in] f called once with a value-initialised T
//! @return what `f` returns
//! @throws UsageError for DType::i64, which is an output type only.
template <class F>
decltype(auto) with_input_type(DType t, F&& f) {
  switch (t) {
    case DType::f32: return f(float{});
    case DType::f64: return f(double{});
    case DType::i32: return f(int{});
    default: break;
  }
  throw UsageError(std::string("unsupported input type: ") + dtype_name(t));
}

}  // namespace harness
