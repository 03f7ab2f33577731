//! @file vec16.cuh
//! @brief The 16-byte vector of an element type (float4, int4, double2) and its sum: what the
//! vectorised stages of chapters 7 and 8 load and store with one 16-byte access.
#pragma once
#include <cuda_runtime.h>

namespace harness {

//! The 16-byte vector type used to load and store T: float4, double2 or int4.
//! @tparam T float, double or int
template <class T>
struct Vec16;
//! float: four lanes
template <>
struct Vec16<float> {
  using type = float4;  //!< vector type
  //! Sum of the lanes, in a fixed order.
  __device__ static float sum(const float4& v) { return (v.x + v.y) + (v.z + v.w); }
};
//! double: two lanes
template <>
struct Vec16<double> {
  using type = double2;  //!< vector type
  //! Sum of the lanes.
  __device__ static double sum(const double2& v) { return v.x + v.y; }
};
//! int: four lanes
template <>
struct Vec16<int> {
  using type = int4;  //!< vector type
  //! Sum of the lanes, in a fixed order.
  __device__ static int sum(const int4& v) { return (v.x + v.y) + (v.z + v.w); }
};

//! Elements in one 16-byte vector: 4 float or int, 2 double.
template <class T>
inline constexpr int kVecItems = static_cast<int>(16 / sizeof(T));

}  // namespace harness
