//! @file binned_sum.hpp
//! @brief The binned sum of float or double values: a sum whose bits do not depend on the order of
//! the additions, nor on how the input is split between threads, blocks or GPUs. One definition
//! for the GPU (chapter 8's reduce_stage_6) and the CPU (binned_sum_cpu, the reference the stage
//! is checked against bit for bit).
//!
//! The idea (Ahrens, Demmel, Nguyen, "Algorithms for Efficient Reproducible Floating Point
//! Summation", ACM TOMS 46(3), 2020, sections 3 and 4; "pre-rounding"): floating-point addition is
//! not associative only because it rounds. Split every value against one fixed grid of exponents,
//! and add each piece only to pieces of the same grid step: those additions are exact, so their
//! order does not matter.
//!
//! - **The grid.** Bin k of *level* L holds multiples of the unit u = 2^(L·W - k·W); W (kBinBits)
//!   is 13 for float and 28 for double. Levels are global: the same on every GPU, block and thread.
//! - **The level.** A sum runs at the lowest level L whose top bin holds its largest |x|:
//!   |x| < 2^(W-1) · 2^(L·W) (binned_level). It depends on the largest |x| only, which no order changes.
//! - **A deposit** (binned_deposit) rounds x to a multiple of the top bin's unit, keeps the rest
//!   for the next bin, and so on for kBinnedBins = 3 bins; what is left below the last bin's unit is
//!   dropped (rounded to nearest, ties to even, always the same way for the same x and level).
//!   Each piece is added to its bin's sum, exactly: every bin sum is an integer number of its unit.
//! - **Exactness in registers.** A thread keeps its three bin sums in T, scaled so that the top
//!   bin's unit is 1 (binned_scale): the sums stay exact while they are below 2^p (p = 24 or 53),
//!   which holds for 2^(p-W) deposits (kBinnedDepositsPerFlush); then they are moved into 64-bit
//!   integers (binned_flush). Integers add exactly in any order, so the partials of threads, blocks
//!   and GPUs merge exactly (binned_merge) once they are brought to the same level.
//! - **When a larger value comes** a thread moves to the higher level (binned_raise): its bins
//!   shift up by the difference, and the lowest ones fall off, as they would have if the larger
//!   value had come first.
//! - **The result** (binned_value) is a function of the final level and the three integers only,
//!   computed the same way on the CPU and the GPU.
//!
//! Special values: a NaN anywhere gives NaN; +inf and -inf both present give NaN; otherwise +inf (or
//! -inf) if present. A finite sum that rounds past the largest finite value gives +-inf. A zero
//! result is +0.0 (also for a sum of -0.0 values). Precision: the three bins keep between
//! 2W - 1 and 3W - 1 bits below the largest |x| (float: 25 to 38, double: 55 to 83), and levels are
//! clamped to what T can scale to (binned_min_level, binned_max_level): a float sum whose largest
//! |x| is below 2^-105 keeps its bits down to 2^-143 only. Each bin's integer counts deposits of at
//! most 2^(W-1) units, so n elements are always exact below 2^(63 - W + 1) elements
//! (binned_max_elements: float 2^51, double 2^36).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
//! Host and device (a plain `inline` for a host-only compiler).
#define BINNED_HD __host__ __device__ __forceinline__
#else
//! Host and device (a plain `inline` for a host-only compiler).
#define BINNED_HD inline
#endif

namespace harness {

//! The grid of a binned sum of T (float or double).
template <class T>
struct BinnedFormat;
//! float: W = 13 bits per bin (the paper's choice for single precision), levels -9..9 (scales
//! 2^-117..2^117).
template <>
struct BinnedFormat<float> {
  using Bits = std::uint32_t;              //!< the bits of a float
  static constexpr int kMantissa = 24;     //!< p, significand bits
  static constexpr int kExponentBias = 127;  //!< of the float format
  static constexpr int kMaxExponent = 127;  //!< of a finite float
  static constexpr int kBinBits = 13;      //!< W
  static constexpr int kMaxLevel = 9;      //!< 9 x 13 = 117: 2^(12 + 117) is past the largest float
};
//! double: W = 28 bits per bin (so that 3 bins keep at least 55 bits and the counters hold 2^36
//! elements), levels -36..36 (scales 2^-1008..2^1008).
template <>
struct BinnedFormat<double> {
  using Bits = std::uint64_t;              //!< the bits of a double
  static constexpr int kMantissa = 53;     //!< p
  static constexpr int kExponentBias = 1023;  //!< of the double format
  static constexpr int kMaxExponent = 1023;  //!< of a finite double
  static constexpr int kBinBits = 28;      //!< W
  static constexpr int kMaxLevel = 36;     //!< 36 x 28 = 1008: 2^(27 + 1008) is past the largest double
};

//! Bins per sum (the paper's K, "fold"): the top bin and two below it.
inline constexpr int kBinnedBins = 3;

//! Flags of the special values seen (BinnedPartial::flags).
enum BinnedFlag : unsigned { kBinnedNaN = 1u, kBinnedPosInf = 2u, kBinnedNegInf = 4u };

//! A binned sum as threads, blocks and GPUs hand it on: its level and the three bin sums as
//! integers (bins[k] in units of 2^(level·W - k·W)). Trivially copyable; 32 bytes.
struct BinnedPartial {
  long long bins[kBinnedBins];  //!< exact bin sums, in units of each bin
  int level;                    //!< the level; binned_min_level<T>() for an empty sum
  unsigned flags;               //!< BinnedFlag bits of the special values seen
};

//! Lowest level of T (an empty sum's level).
template <class T>
BINNED_HD constexpr int binned_min_level() { return -BinnedFormat<T>::kMaxLevel; }
//! Highest level of T: its top bin holds the largest finite value.
template <class T>
BINNED_HD constexpr int binned_max_level() { return BinnedFormat<T>::kMaxLevel; }
//! Largest n whose sum is always exact in the 64-bit bin sums: below 2^(64 - W) elements.
template <class T>
BINNED_HD constexpr std::size_t binned_max_elements() { return (std::size_t{1} << (64 - BinnedFormat<T>::kBinBits)) - 1; }
//! Deposits a thread may make before its T bin sums must move to the integers: 2^(p - W), half of
//! what keeps every bin sum below 2^p units.
template <class T>
BINNED_HD constexpr long long binned_deposits_per_flush() {
  return 1LL << (BinnedFormat<T>::kMantissa - BinnedFormat<T>::kBinBits);
}

//! The T whose bits are `bits`.
template <class T>
BINNED_HD T binned_from_bits(typename BinnedFormat<T>::Bits bits) {
  T x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

//! 2^e as T, for e in T's normal range, built from its bits (exact, no library call).
template <class T>
BINNED_HD T binned_pow2(int e) {
  using F = BinnedFormat<T>;
  return binned_from_bits<T>(static_cast<typename F::Bits>(e + F::kExponentBias) << (F::kMantissa - 1));
}

//! +infinity as T.
template <class T>
BINNED_HD T binned_infinity() {
  using F = BinnedFormat<T>;
  return binned_from_bits<T>(static_cast<typename F::Bits>(2 * F::kExponentBias + 1) << (F::kMantissa - 1));
}

//! The quiet NaN every binned sum returns (the same bits on the CPU and the GPU).
template <class T>
BINNED_HD T binned_nan() {
  using F = BinnedFormat<T>;
  return binned_from_bits<T>((static_cast<typename F::Bits>(2 * F::kExponentBias + 1) << (F::kMantissa - 1)) |
                             (static_cast<typename F::Bits>(1) << (F::kMantissa - 2)));
}

//! The scale of level L: 2^(-L·W). A value times it is in units of the level's top bin.
template <class T>
BINNED_HD T binned_scale(int level) { return binned_pow2<T>(-level * BinnedFormat<T>::kBinBits); }

//! The limit of level L: 2^(W - 1 + L·W), or +inf at the highest level (which holds every finite
//! value). A value with |x| below it can be deposited at level L.
template <class T>
BINNED_HD T binned_limit(int level) {
  using F = BinnedFormat<T>;
  const int e = F::kBinBits - 1 + level * F::kBinBits;
  return e > F::kMaxExponent ? binned_infinity<T>() : binned_pow2<T>(e);
}

//! The lowest level whose limit is above `m` (finite, >= 0): ceil((e + 2 - W) / W) for the
//! exponent e of m (m < 2^(e+1)), clamped to the levels of T. For every level L, m < binned_limit(L)
//! exactly when binned_level(m) <= L, so a thread that rises only when a value reaches its limit
//! ends at the level of its largest |x|.
template <class T>
BINNED_HD int binned_level(T m) {
  using F = BinnedFormat<T>;
  typename F::Bits bits;
  std::memcpy(&bits, &m, sizeof bits);
  const int e = static_cast<int>(bits >> (F::kMantissa - 1)) - F::kExponentBias;  // zero, subnormal: -bias
  const int a = e + 2 - F::kBinBits;
  const int level = a >= 0 ? (a + F::kBinBits - 1) / F::kBinBits : -((-a) / F::kBinBits);  // ceil(a / W)
  return level < binned_min_level<T>() ? binned_min_level<T>() : (level > binned_max_level<T>() ? binned_max_level<T>() : level);
}

//! The rounding constant of bin k in the scaled frame: 1.5 x 2^(p - 1 - k·W), whose last bit is the
//! bin's unit 2^(-k·W). c + r, rounded to nearest, is c plus r rounded to a multiple of that unit
//! (ties to even: c is an even multiple of it, so the tie goes the same way whatever the bin holds).
template <class T>
BINNED_HD constexpr T binned_rounder(int k) {
  T c = T(1.5);
  for (int e = 0; e < BinnedFormat<T>::kMantissa - 1; ++e) c *= T(2);
  for (int i = 0; i < k * BinnedFormat<T>::kBinBits; ++i) c /= T(2);
  return c;
}

//! a x b + c with one rounding (FFMA / DFMA on the GPU; std::fma on the CPU, for the tests).
BINNED_HD float binned_fma(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return __builtin_fmaf(a, b, c);
#endif
}
//! a x b + c with one rounding.
BINNED_HD double binned_fma(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return __builtin_fma(a, b, c);
#endif
}

//! Deposits x, at the level whose scale is `scale`, into the three bin sums `acc` (units: the top
//! bin's unit is 1). Precondition: |x| < binned_limit of that level (so |x · scale| < 2^(W-1)).
//! Per bin: t = c + r rounds r to the bin's unit; q = t - c is that multiple (exact); r - q is
//! what is left for the next bin (exact); acc[k] += q is exact while acc[k] stays below 2^p units.
//! The scale is folded into two FMAs: 11 floating-point instructions per element, no branch.
//! @tparam T float or double
template <class T>
BINNED_HD void binned_deposit(T (&acc)[kBinnedBins], T x, T scale) {
  constexpr T c0 = binned_rounder<T>(0), c1 = binned_rounder<T>(1), c2 = binned_rounder<T>(2);
  T t = binned_fma(x, scale, c0);  // top bin: x · scale rounded to an integer, plus c0
  T q = t - c0;
  T r = binned_fma(x, scale, -q);  // x · scale - q, exact
  acc[0] += q;
  t = r + c1;                      // second bin: units of 2^-W
  q = t - c1;
  r = r - q;
  acc[1] += q;
  t = r + c2;                      // last bin: units of 2^-2W; the rest below it is dropped
  q = t - c2;
  acc[2] += q;
}

//! binned_deposit with the scaled value xs = x · scale already formed (the CPU's form, where an
//! FMA may be a library call). The same bits as binned_deposit: x · scale is exact unless it
//! underflows, and a value that small rounds to 0 in every bin either way (binned_sum_test checks it).
template <class T>
inline void binned_deposit_scaled(T (&acc)[kBinnedBins], T xs) {
  constexpr T c0 = binned_rounder<T>(0), c1 = binned_rounder<T>(1), c2 = binned_rounder<T>(2);
  T t = xs + c0;
  T q = t - c0;
  T r = xs - q;
  acc[0] += q;
  t = r + c1;
  q = t - c1;
  r = r - q;
  acc[1] += q;
  t = r + c2;
  q = t - c2;
  acc[2] += q;
}

//! An empty binned sum of T: lowest level, no special values, zero bins.
template <class T>
BINNED_HD BinnedPartial binned_empty() {
  BinnedPartial p;
  for (int k = 0; k < kBinnedBins; ++k) p.bins[k] = 0;
  p.level = binned_min_level<T>();
  p.flags = 0;
  return p;
}

//! Records a value that is not finite (NaN, +inf, -inf) in `flags`.
template <class T>
BINNED_HD void binned_special(unsigned& flags, T x) {
  flags |= x != x ? kBinnedNaN : (x > T(0) ? kBinnedPosInf : kBinnedNegInf);
}

//! Moves the T bin sums `acc` into p's integers (each is an exact integer count of its bin's unit)
//! and zeroes them. A NaN in acc (a NaN was deposited: nothing else makes one) sets kBinnedNaN.
template <class T>
BINNED_HD void binned_flush(BinnedPartial& p, T (&acc)[kBinnedBins]) {
  if (acc[0] != acc[0]) {
    p.flags |= kBinnedNaN;
  } else {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int k = 0; k < kBinnedBins; ++k)
      p.bins[k] += static_cast<long long>(acc[k] * binned_pow2<T>(k * BinnedFormat<T>::kBinBits));
  }
  for (int k = 0; k < kBinnedBins; ++k) acc[k] = T(0);
}

//! Brings p up to `level` (>= p.level): bin k becomes bin k + (level - p.level); the bins that
//! shift past the last are dropped, as if every value had been deposited at `level`.
BINNED_HD void binned_align(BinnedPartial& p, int level) {
  static_assert(kBinnedBins == 3, "the selects below are written out for three bins");
  const int s = level - p.level;  // written out as selects: no array indexed by a run-time value
  const long long b0 = p.bins[0], b1 = p.bins[1], b2 = p.bins[2];
  p.bins[0] = s == 0 ? b0 : 0;
  p.bins[1] = s == 0 ? b1 : (s == 1 ? b0 : 0);
  p.bins[2] = s == 0 ? b2 : (s == 1 ? b1 : (s == 2 ? b0 : 0));
  p.level = level;
}

//! Flushes `acc` into p, then raises p to `level` (> p.level).
template <class T>
BINNED_HD void binned_raise(BinnedPartial& p, T (&acc)[kBinnedBins], int level) {
  binned_flush(p, acc);
  binned_align(p, level);
}

//! into += other, exactly: both at the higher of their levels, bins added as integers, flags or-ed.
BINNED_HD void binned_merge(BinnedPartial& into, BinnedPartial other) {
  if (other.level > into.level) binned_align(into, other.level);
  if (into.level > other.level) binned_align(other, into.level);
  for (int k = 0; k < kBinnedBins; ++k) into.bins[k] += other.bins[k];
  into.flags |= other.flags;
}

//! The value of a binned sum as T. The special values first (NaN; +inf and -inf: NaN; +-inf);
//! then the lower bins' carries go up (bins 1 and 2 end in [0, 2^W)), the three are combined in
//! double from the smallest (exact for float), scaled by 2^(level·W) and rounded to T.
//! Every step is an IEEE operation whose result the inputs fix, on the CPU and the GPU alike
//! (the products are by powers of two, so an FMA the compiler forms rounds the same).
template <class T>
BINNED_HD T binned_value(const BinnedPartial& p) {
  using F = BinnedFormat<T>;
  if ((p.flags & kBinnedNaN) || ((p.flags & kBinnedPosInf) && (p.flags & kBinnedNegInf))) return binned_nan<T>();
  if (p.flags & kBinnedPosInf) return binned_infinity<T>();
  if (p.flags & kBinnedNegInf) return -binned_infinity<T>();
  constexpr long long kRadix = 1LL << F::kBinBits;
  const auto low_part = [](long long b) {  // b mod 2^W, in [0, 2^W)
    return static_cast<long long>(static_cast<unsigned long long>(b) & static_cast<unsigned long long>(kRadix - 1));
  };
  const long long lo2 = low_part(p.bins[2]);
  const long long b1 = p.bins[1] + (p.bins[2] - lo2) / kRadix;  // exact division: the carry
  const long long lo1 = low_part(b1);
  const long long b0 = p.bins[0] + (b1 - lo1) / kRadix;
  const double unit = binned_pow2<double>(-F::kBinBits);
  const double below = (static_cast<double>(lo1) + static_cast<double>(lo2) * unit) * unit;  // in [0, 1)
  const double sum = (static_cast<double>(b0) + below) * binned_pow2<double>(p.level * F::kBinBits);
  if constexpr (sizeof(T) == sizeof(float)) {
    // Past the largest float by half a unit in the last place or more: +-inf (a C++ conversion of
    // a double beyond the float range is undefined, so it is spelled out).
    const double overflow = 340282356779733661637539395458142568448.0;  // 2^128 - 2^103
    if (sum >= overflow) return binned_infinity<float>();
    if (sum <= -overflow) return -binned_infinity<float>();
    return static_cast<float>(sum);
  } else {
    return sum;
  }
}

//! The binned sum of a[0..n) computed on the CPU, one thread: the CPU version of reduce_stage_6,
//! the same bits. Any split of a into pieces summed this way and merged with binned_merge gives
//! the same partial.
//! @tparam T float or double
template <class T>
BinnedPartial binned_partial_cpu(const T* a, std::size_t n);

//! The binned sum of a[0..n) on the CPU, every core (harness::parallel_chunks, merged exactly):
//! bit for bit what reduce_stage_6 returns on any GPU, block size and grid.
template <class T>
T binned_sum_cpu(const T* a, std::size_t n);

}  // namespace harness
