//! @file vec16.cuh
//! @brief The 16-byte vector of an element type (float4, int4, double2) and its sum: what the
//! vectorised stages of chapters 7 and 8 load and store with one 16-byte access.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

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

//! n elements at `in` seen as 16-byte vectors: `head` scalars up to the first 16-byte boundary,
//! `count` whole vectors from `vectors`, then the scalars from element `tail` to n (fewer than one
//! vector). Every element is in exactly one of the three parts; any element-aligned `in` works.
template <class T>
struct Vec16Split {
  std::size_t head;                         //!< scalars before the first 16-byte boundary (<= n)
  std::size_t count;                        //!< whole vectors after them
  const typename Vec16<T>::type* vectors;   //!< in + head, 16-byte aligned
  std::size_t tail;                         //!< index of the first scalar after the vectors
};

//! Splits in[0..n) into a scalar head, 16-byte vectors and a scalar tail (Vec16Split).
//! @param[in] in n elements, aligned to sizeof(T)
//! @param[in] n number of elements (any value)
template <class T>
__device__ __forceinline__ Vec16Split<T> vec16_split(const T* in, std::size_t n) {
  using V = typename Vec16<T>::type;
  const auto misalign = reinterpret_cast<std::uintptr_t>(in) % sizeof(V);
  std::size_t head = misalign == 0 ? 0 : (sizeof(V) - misalign) / sizeof(T);
  if (head > n) head = n;
  const std::size_t count = (n - head) / kVecItems<T>;
  return {head, count, reinterpret_cast<const V*>(in + head), head + count * kVecItems<T>};
}

}  // namespace harness
