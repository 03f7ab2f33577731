#include "dtype.hpp"

namespace harness {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::f32: return "float";
    case DType::f64: return "double";
    case DType::i32: return "int";
    case DType::i64: return "int64";
    case DType::u8: return "uint8";
  }
  return "?";
}

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::f32: return 4;
    case DType::f64: return 8;
    case DType::i32: return 4;
    case DType::i64: return 8;
    case DType::u8: return 1;
  }
  return 0;
}

DType parse_dtype(const std::string& s) {
  if (s == "float" || s == "f32") return DType::f32;
  if (s == "double" || s == "f64") return DType::f64;
  if (s == "int" || s == "i32") return DType::i32;
  if (s == "uint8" || s == "u8") return DType::u8;
  throw UsageError("unknown --type '" + s + "': expected float, double, int or uint8");
}

const char* op_name(Op op) {
  switch (op) {
    case Op::sum: return "sum";
    case Op::max: return "max";
    case Op::min: return "min";
  }
  return "?";
}

Op parse_op(const std::string& s) {
  if (s == "sum") return Op::sum;
  if (s == "max") return Op::max;
  if (s == "min") return Op::min;
  throw UsageError("unknown --op '" + s + "': expected sum, max or min");
}

}  // namespace harness
