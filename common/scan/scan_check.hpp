//! @file scan_check.hpp
//! @brief The CPU reference of a scan and the check of a GPU scan against it, without storing an
//! n-element reference: the input and the GPU output are walked together, chunk by chunk.
//!
//! The reference prefix is carried in a wide type: long double for float and double inputs (64
//! significand bits on x86-64, so every partial sum of exact data, and of float data in general, is
//! exact), int64 for int inputs. Int scans are defined to wrap modulo 2^32, like the GPU's 32-bit
//! add (and CUB's int scan): the check compares the low 32 bits of the int64 prefix with the output.
//!
//! Walking order (parallel, reproducible): the input is cut into fixed chunks; pass 1 sums each
//! chunk (and its absolute values) on every core; a serial pass turns the chunk sums into chunk
//! offsets; pass 2 walks each chunk again from its offset, element by element, and hands every
//! expected prefix to a visitor. The chunks do not depend on the thread count.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "dtype.hpp"
#include "inputs.hpp"
#include "verify.hpp"

namespace harness {

//! Elements per chunk of the parallel reference walk (the default of every function below).
inline constexpr std::size_t kScanChunk = std::size_t{1} << 20;

//! Type in which the reference prefix of a T input is carried: long double for float and double,
//! long long (int64) for int.
template <class T>
using scan_reference_t = std::conditional_t<std::is_integral_v<T>, long long, long double>;

//! What the reference says about output i: the exact (wide) prefix and the prefix of |a| over the
//! same terms, which the error bound needs.
template <class T>
struct ScanExpected {
  scan_reference_t<T> prefix = 0;  //!< a_0 + ... + a_{i-1} (exclusive) or + a_i (inclusive), in the wide type
  long double abs_prefix = 0;      //!< |a_0| + ... over the same terms
};

//! Walks the reference scan of `in[0..n)` in parallel chunks and calls
//! `visit(chunk, i, const ScanExpected<T>&)` once for every i, in increasing i within a chunk.
//! Visits of different chunks run concurrently: a visitor writes only per-chunk state.
//! @tparam T float, double or int
//! @tparam Visit callable as visit(std::size_t chunk, std::size_t i, const ScanExpected<T>&)
//! @param[in] in n input elements (host memory)
//! @param[in] n number of elements (0: nothing is visited)
//! @param[in] inclusive inclusive (out[i] includes a_i) or exclusive (out[0] = 0) scan
//! @param[in] visit the visitor
//! @param[in] chunk elements per chunk (> 0); the result does not depend on it
template <class T, class Visit>
void scan_reference_walk(const T* in, std::size_t n, bool inclusive, Visit&& visit,
                         std::size_t chunk = kScanChunk) {
  using W = scan_reference_t<T>;
  if (n == 0) return;
  const std::size_t chunks = (n + chunk - 1) / chunk;
  std::vector<W> sum(chunks);
  std::vector<long double> abs_sum(chunks);
  // Pass 1: every chunk's sum and sum of |a|.
  parallel_chunks(n, chunk, [&](std::size_t b, std::size_t e, std::size_t c) {
    W s = 0;
    long double as = 0;
    for (std::size_t i = b; i < e; ++i) {
      s += static_cast<W>(in[i]);
      as += std::fabs(static_cast<long double>(in[i]));
    }
    sum[c] = s;
    abs_sum[c] = as;
  });
  // Serial: each chunk's offset is the sum of the chunks before it (an exclusive scan of chunk sums).
  W run = 0;
  long double abs_run = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    const W s = sum[c];
    const long double as = abs_sum[c];
    sum[c] = run;
    abs_sum[c] = abs_run;
    run += s;
    abs_run += as;
  }
  // Pass 2: each chunk's running prefix from its offset.
  parallel_chunks(n, chunk, [&](std::size_t b, std::size_t e, std::size_t c) {
    ScanExpected<T> x;
    x.prefix = sum[c];
    x.abs_prefix = abs_sum[c];
    for (std::size_t i = b; i < e; ++i) {
      const W a = static_cast<W>(in[i]);
      const long double abs_a = std::fabs(static_cast<long double>(in[i]));
      if (inclusive) {
        x.prefix += a;
        x.abs_prefix += abs_a;
        visit(c, i, x);
      } else {
        visit(c, i, x);
        x.prefix += a;
        x.abs_prefix += abs_a;
      }
    }
  });
}

//! The reference scan as an array of T (int prefixes wrapped modulo 2^32, float prefixes rounded
//! once from the wide prefix). For tests and small n: the check itself never stores this array.
//! @tparam T float, double or int
//! @param[in] in n input elements
//! @param[in] n number of elements
//! @param[in] inclusive inclusive or exclusive scan
//! @param[in] chunk elements per chunk of the walk
template <class T>
std::vector<T> reference_scan(const T* in, std::size_t n, bool inclusive, std::size_t chunk = kScanChunk) {
  std::vector<T> out(n);
  scan_reference_walk(
      in, n, inclusive,
      [&](std::size_t, std::size_t i, const ScanExpected<T>& x) {
        if constexpr (std::is_integral_v<T>)
          out[i] = static_cast<T>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(x.prefix)));
        else
          out[i] = static_cast<T>(x.prefix);
      },
      chunk);
  return out;
}

//! Checks a GPU scan output against the reference, element by element.
//! - int: every output must equal the reference modulo 2^32 (CheckKind::exact).
//! - float/double with `exact_data` (Dist::exact: every partial sum is exact in T, in any order):
//!   every output must equal the reference exactly (CheckKind::exact).
//! - float/double otherwise: every |out[i] - prefix_i| must be within
//!   depth_error_bound(depth, eps(T), prefix of |a| over the same terms). A prefix is *decided* when
//!   its bound is smaller than |prefix_i| (a zero output, or a neighbour's prefix, would then fail).
//!   Any prefix past its bound fails (CheckKind::bound). If none fails, the verdict is
//!   CheckKind::bound when at least half of the prefixes are decided, else CheckKind::unchecked
//!   (ok = true, message "not checked": the bound cannot tell a right answer from a wrong one).
//! NaN and infinities: a non-finite expected or output value must match in kind (NaN with NaN, the
//! same infinity), otherwise the element fails.
//! On failure `first_bad` is the first wrong index and got / expected / abs_err / bound describe
//! it; on success they describe the element with the largest error.
//! @tparam T float, double or int
//! @param[in] in n input elements (host memory)
//! @param[in] out n GPU output elements, copied to the host
//! @param[in] n number of elements (0: ok, nothing compared)
//! @param[in] inclusive the scan that was asked for
//! @param[in] exact_data the input is Dist::exact data (demand equality for floats)
//! @param[in] depth the stage's longest addition chain (Stage::depth)
//! @param[in] chunk elements per chunk of the walk
template <class T>
Verification check_scan(const T* in, const T* out, std::size_t n, bool inclusive, bool exact_data,
                        double depth, std::size_t chunk = kScanChunk);

//! check_scan for a run-time input type (float, double or int); `in` and `out` point to n elements
//! of that type in host memory.
Verification check_scan(DType type, const void* in, const void* out, std::size_t n, bool inclusive,
                        bool exact_data, double depth, std::size_t chunk = kScanChunk);

}  // namespace harness
