//! @file histogram_bins.cuh
//! @brief Which bin a sample falls into: the one formula the GPU stages, the CPU reference, the
//! input generators and (by construction) CUB's DeviceHistogram::HistogramEven all use.
//!
//! A histogram of `bins` even bins over [lower, upper). The formula is defined once, here, as
//! `bin_of(map, x)`, callable from host and device code; it returns the bin (0 .. bins-1) or -1 for
//! a sample that is not counted. The host prepares a *bin map* once per launch with make_bin_map<T>
//! (validating the range), and the kernels and the reference evaluate the same map.
//!
//! **Integer samples (unsigned char, int).** lower and upper must be integers with
//! INT_MIN <= lower < upper <= INT_MAX (CUB's level type for them is int). With d = x - lower
//! computed in 64 bits (it never overflows) and range = upper - lower:
//!     counted iff 0 <= d < range,   bin = floor(d * bins / range)   (exact integer arithmetic).
//! Negative samples are ordinary values: -5 with lower = -10 is d = 5, never a wrapped high bin;
//! below `lower`, d is negative and the sample is not counted. The quotient is computed in 32 bits
//! when (range - 1) * bins < 2^32 and in 64 bits otherwise; both give the exact floor, so the result
//! is the same bits as CUB's `(uint64)(x - lower) * bins / (upper - lower)`. When bins == range
//! every bin is one value wide and bin = d (no division): with 8-bit samples, 256 bins over
//! [0, 256) this is the identity, bin = x. Kernels use IdentityBins for that case (no arithmetic at
//! all); a CPU test checks it against the general formula for all 256 values.
//!
//! **Float samples.** lower and upper are rounded to float (lo, hi; hi > lo required). Exactly as
//! CUB computes it (cub/device/dispatch/dispatch_histogram.cuh, ScaleTransform, CUDA 13.0):
//!     scale = float(bins) / (hi - lo)              (float division, once, on the host)
//!     counted iff lo <= x < hi (NaN fails both)     bin = int((x - lo) * scale)  (float, truncated)
//! Each operation is one IEEE float operation rounded to nearest (the device code uses __fsub_rn and
//! __fmul_rn, so the compiler cannot fuse or reorder them), so host and device agree bit for bit.
//! Rounding has two visible effects, both identical to CUB:
//! - near an inner bin edge a sample can land one bin to either side of the exact real-number
//!   answer floor((x - lower) * bins / (upper - lower));
//! - a sample just below hi can compute bin == bins. CUB counts such a sample nowhere (it goes
//!   to a padding counter that is never written out); bin_of returns -1 for it as well, and the
//!   reference counts it among the dropped samples. So CUB's output can be checked exactly.
#pragma once
#include <climits>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>

#include "errors.hpp"
#include "histogram_problem.hpp"

#if defined(__CUDACC__)
//! Marks a function callable from host and device code (plain `inline` for a host-only compiler).
#define HIST_HD __host__ __device__ __forceinline__
#else
//! Marks a function callable from host and device code (plain `inline` for a host-only compiler).
#define HIST_HD inline
#endif

namespace harness {

//! 8-bit samples, 256 bins over [0, 256): bin = x. Equal to the IntBins formula for that range
//! (bins == range, lower == 0); kept as its own type so that kernels compile it to nothing.
struct IdentityBins {
  //! Number of bins (always 256).
  HIST_HD int count() const { return 256; }
};

//! How an integer sample (unsigned char or int) maps to a bin. Built by make_bin_map.
struct IntBins {
  //! How the quotient floor(d * bins / range) is computed; every mode gives the exact floor.
  enum Mode : int {
    unit = 0,    //!< bins == range: bin = d
    narrow = 1,  //!< (range - 1) * bins < 2^32: 32-bit multiply and divide
    wide = 2     //!< otherwise: 64-bit multiply and divide
  };
  long long lower = 0;                //!< first counted value
  unsigned long long range = 256;     //!< upper - lower, 1 .. 2^32 - 1
  int bins = 256;                     //!< number of bins, >= 1
  int mode = unit;                    //!< see Mode
  //! Number of bins.
  HIST_HD int count() const { return bins; }
};

//! How a float sample maps to a bin (CUB's formula, see the file comment). Built by make_bin_map.
struct FloatBins {
  float lower = 0;    //!< lo = float(lower): first counted value
  float upper = 1;    //!< hi = float(upper): first value past the range
  float scale = 1;    //!< float(bins) / (hi - lo), rounded to float
  int bins = 1;       //!< number of bins, >= 1
  //! Number of bins.
  HIST_HD int count() const { return bins; }
};

//! The bin map type of a sample type: FloatBins for float, IntBins for unsigned char and int.
template <class T>
using bin_map_t = std::conditional_t<std::is_same_v<T, float>, FloatBins, IntBins>;

//! Bin of an 8-bit sample under the identity map: x itself (always counted).
HIST_HD int bin_of(IdentityBins, unsigned char x) { return x; }

//! Bin of an integer sample, or -1 when x is outside [lower, upper).
//! @tparam T unsigned char or int
//! @param[in] m the map (make_bin_map)
//! @param[in] x the sample
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
HIST_HD int bin_of(const IntBins& m, T x) {
  // d = x - lower in 64 bits; a sample below lower gives a "negative" d that wraps to a huge
  // unsigned value, so the one comparison rejects both ends of the range.
  const unsigned long long d =
      static_cast<unsigned long long>(static_cast<long long>(x) - m.lower);
  if (d >= m.range) return -1;
  if (m.mode == IntBins::unit) return static_cast<int>(d);
  if (m.mode == IntBins::narrow)
    return static_cast<int>(static_cast<unsigned>(d) * static_cast<unsigned>(m.bins) /
                            static_cast<unsigned>(m.range));
  return static_cast<int>(d * static_cast<unsigned long long>(m.bins) / m.range);
}

//! Bin of a float sample, or -1 when it is not counted (outside [lo, hi), NaN, or rounding to
//! bin == bins just below hi, as CUB).
//! @param[in] m the map (make_bin_map<float>)
//! @param[in] x the sample
HIST_HD int bin_of(const FloatBins& m, float x) {
  if (!(x >= m.lower && x < m.upper)) return -1;  // NaN compares false: not counted
#if defined(__CUDA_ARCH__)
  const float scaled = __fmul_rn(__fsub_rn(x, m.lower), m.scale);
#else
  const float d = x - m.lower;
  const float scaled = d * m.scale;
#endif
  const int b = static_cast<int>(scaled);  // scaled >= 0: truncation is floor
  return b < m.bins ? b : -1;
}

//! True for 8-bit samples with 256 bins over exactly [0, 256), where bin_of is the identity.
inline bool is_byte_identity(DType type, int bins, double lower, double upper) {
  return type == DType::u8 && bins == 256 && lower == 0.0 && upper == 256.0;
}

//! Builds the bin map of sample type T, checking the range.
//! @tparam T unsigned char, int or float
//! @param[in] bins number of bins (>= 1)
//! @param[in] lower first counted value
//! @param[in] upper first value past the range
//! @throws UsageError when bins < 1, a limit is not finite, lower >= upper, or (integer samples)
//!         a limit is not an integer in [INT_MIN, INT_MAX], or (float) float(lower) >= float(upper)
//!         or the scale is not finite.
template <class T>
bin_map_t<T> make_bin_map(int bins, double lower, double upper) {
  if (bins < 1) throw UsageError("the number of bins must be at least 1, not " + std::to_string(bins));
  if (!std::isfinite(lower) || !std::isfinite(upper))
    throw UsageError("the histogram range [lower, upper) must be finite");
  if (!(lower < upper))
    throw UsageError("the histogram range needs lower < upper (got [" + std::to_string(lower) +
                     ", " + std::to_string(upper) + "))");
  if constexpr (std::is_same_v<T, float>) {
    FloatBins m;
    m.lower = static_cast<float>(lower);
    m.upper = static_cast<float>(upper);
    if (!(m.lower < m.upper))
      throw UsageError("lower and upper round to the same float; widen the range");
    const float width = m.upper - m.lower;  // in float, as CUB
    m.scale = static_cast<float>(bins) / width;
    if (!std::isfinite(width) || !std::isfinite(m.scale) || !(m.scale > 0))
      throw UsageError("the float range [lower, upper) is too wide or too narrow for " +
                       std::to_string(bins) + " bins");
    m.bins = bins;
    return m;
  } else {
    static_assert(std::is_same_v<T, int> || std::is_same_v<T, unsigned char>,
                  "sample types: unsigned char, int, float");
    if (lower != std::floor(lower) || upper != std::floor(upper) || lower < INT_MIN ||
        upper > INT_MAX)
      throw UsageError("integer samples need integer limits in [" + std::to_string(INT_MIN) +
                       ", " + std::to_string(INT_MAX) + "]");
    IntBins m;
    m.lower = static_cast<long long>(lower);
    m.range = static_cast<unsigned long long>(static_cast<long long>(upper) - m.lower);
    m.bins = bins;
    if (static_cast<unsigned long long>(bins) == m.range) m.mode = IntBins::unit;
    else if ((m.range - 1) * static_cast<unsigned long long>(bins) <= 0xFFFFFFFFull)
      m.mode = IntBins::narrow;
    else m.mode = IntBins::wide;
    return m;
  }
}

//! Calls `f(map)` with the bin map the kernels use for sample type T and the arguments' range:
//! IdentityBins for 8-bit samples with 256 bins over [0, 256), make_bin_map<T>(...) otherwise.
//! @tparam T unsigned char, int or float
//! @tparam F a generic callable taking IdentityBins, IntBins and FloatBins
//! @throws UsageError as make_bin_map
template <class T, class F>
void with_bin_map(const HistogramArgs& a, F&& f) {
  if constexpr (std::is_same_v<T, unsigned char>) {
    if (is_byte_identity(DType::u8, a.bins, a.lower, a.upper)) {
      f(IdentityBins{});
      return;
    }
  }
  f(make_bin_map<T>(a.bins, a.lower, a.upper));
}

}  // namespace harness
