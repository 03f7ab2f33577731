// The CPU version of the binned sum (binned_sum.hpp): one thread's loop, and every core's.
// Compiled with -ffp-contract=off (common/CMakeLists.txt): a compiler that fused x · scale into the
// next addition would still give the same bits (binned_deposit is that fused form), but the file
// says exactly what runs.
#include "binned_sum.hpp"

#include <cmath>
#include <vector>

#include "inputs.hpp"

namespace harness {

template <class T>
BinnedPartial binned_partial_cpu(const T* a, std::size_t n) {
  BinnedPartial p = binned_empty<T>();
  T acc[kBinnedBins] = {};
  T scale = binned_scale<T>(p.level);
  T limit = binned_limit<T>(p.level);
  long long deposits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T x = a[i];
    if (!(std::fabs(x) < limit)) {  // a larger value (or inf, NaN): a higher level, or a flag
      if (!std::isfinite(x)) {
        binned_special(p.flags, x);
        continue;
      }
      binned_raise(p, acc, binned_level(std::fabs(x)));
      scale = binned_scale<T>(p.level);
      limit = binned_limit<T>(p.level);
      deposits = 0;
    }
    binned_deposit_scaled(acc, x * scale);
    if (++deposits == binned_deposits_per_flush<T>()) {
      binned_flush(p, acc);
      deposits = 0;
    }
  }
  binned_flush(p, acc);
  return p;
}

template <class T>
T binned_sum_cpu(const T* a, std::size_t n) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<BinnedPartial> parts((n + kChunk - 1) / kChunk);
  parallel_chunks(n, kChunk, [&](std::size_t b, std::size_t e, std::size_t c) { parts[c] = binned_partial_cpu(a + b, e - b); });
  BinnedPartial p = binned_empty<T>();
  for (const BinnedPartial& q : parts) binned_merge(p, q);
  return binned_value<T>(p);
}

template BinnedPartial binned_partial_cpu<float>(const float*, std::size_t);
template BinnedPartial binned_partial_cpu<double>(const double*, std::size_t);
template float binned_sum_cpu<float>(const float*, std::size_t);
template double binned_sum_cpu<double>(const double*, std::size_t);

}  // namespace harness
