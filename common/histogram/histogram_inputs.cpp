// Seeded histogram inputs (see histogram_inputs.hpp).
#include "histogram_inputs.hpp"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>

#include "errors.hpp"
#include "inputs.hpp"

namespace harness {

namespace {

constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ull;  // SplitMix64's increment
constexpr double kTwoTo32 = 4294967296.0;
constexpr double kZipfExponent = 1.1;
constexpr std::size_t kImageWidth = 4096;

// A number in [0, 1) from the top 32 bits of a hash.
double unit32(std::uint64_t h) { return static_cast<double>(h >> 32) / kTwoTo32; }
// A number in [0, 1) from the low 32 bits of a hash.
double unit32_low(std::uint64_t h) { return static_cast<double>(h & 0xFFFFFFFFull) / kTwoTo32; }
// floor(top 32 bits * m / 2^32): an index in [0, m) for m < 2^32.
std::uint64_t pick(std::uint64_t h, std::uint64_t m) { return ((h >> 32) * m) >> 32; }
// Triangle wave in [0, 1], period 1: cheap and smooth enough for image-like rows.
double tri(double t) { return 1.0 - std::fabs(2.0 * (t - std::floor(t)) - 1.0); }

}  // namespace

HistDist parse_hist_dist(const std::string& s) {
  if (s == "uniform") return HistDist::uniform;
  if (s == "one-bin" || s == "one_bin") return HistDist::one_bin;
  if (s == "zipf") return HistDist::zipf;
  if (s == "image") return HistDist::image;
  if (s == "hot") return HistDist::hot;
  throw UsageError("unknown histogram distribution '" + s +
                   "': expected uniform, one-bin, zipf, image or hot");
}

const char* hist_dist_name(HistDist d) {
  switch (d) {
    case HistDist::uniform: return "uniform";
    case HistDist::one_bin: return "one-bin";
    case HistDist::zipf: return "zipf";
    case HistDist::image: return "image";
    case HistDist::hot: return "hot";
  }
  return "?";
}

int hot_bin(const HistInputSpec& spec) {
  return static_cast<int>(pick(splitmix64(spec.seed ^ 0x5BD1E9955BD1E995ull),
                               static_cast<std::uint64_t>(std::max(spec.bins, 1))));
}

template <class T>
HistogramInput<T>::HistogramInput(const HistInputSpec& spec)
    : spec_(spec), map_(make_bin_map<T>(spec.bins, spec.lower, spec.upper)) {
  if (!(spec.hot_share >= 0 && spec.hot_share <= 1))
    throw UsageError("the hot share must lie in [0, 1]");
  if (!(spec.invalid_share >= 0 && spec.invalid_share <= 1))
    throw UsageError("the share of invalid samples must lie in [0, 1]");
  base_ = splitmix64(spec.seed ^ 0x243F6A8885A308D3ull);
  hot_ = hot_bin(spec);

  if (spec.dist == HistDist::zipf) {
    const int b = spec.bins;
    zipf_cdf_.resize(b);
    double total = 0;
    for (int k = 0; k < b; ++k) {
      total += 1.0 / std::pow(k + 1.0, kZipfExponent);
      zipf_cdf_[k] = total;
    }
    for (double& c : zipf_cdf_) c /= total;
    if (!zipf_cdf_.empty()) zipf_cdf_.back() = 1.0;  // no rounding gap at the top
    // Ranks scattered over the bins by a seeded Fisher-Yates shuffle: the hot bins are not 0, 1, 2.
    zipf_bin_.resize(b);
    for (int k = 0; k < b; ++k) zipf_bin_[k] = k;
    std::uint64_t s = splitmix64(spec.seed ^ 0x13198A2E03707344ull);
    for (int k = b - 1; k > 0; --k) {
      s = splitmix64(s);
      std::swap(zipf_bin_[k], zipf_bin_[pick(s, static_cast<std::uint64_t>(k) + 1)]);
    }
  }

  // Values the bin function rejects, for invalid_share.
  std::vector<T> candidates;
  if constexpr (std::is_same_v<T, unsigned char>) {
    for (int x = 0; x < 256; ++x) candidates.push_back(static_cast<unsigned char>(x));
  } else if constexpr (std::is_same_v<T, int>) {
    const long long lo = map_.lower;
    const long long hi = map_.lower + static_cast<long long>(map_.range);
    for (long long x : {static_cast<long long>(INT_MIN), static_cast<long long>(INT_MAX), lo - 1,
                        lo - 1000, hi, hi + 1, hi + 1000})
      if (x >= INT_MIN && x <= INT_MAX) candidates.push_back(static_cast<int>(x));
  } else {
    const float lo = map_.lower, hi = map_.upper, inf = std::numeric_limits<float>::infinity();
    candidates = {std::numeric_limits<float>::quiet_NaN(), inf, -inf, std::nextafter(lo, -inf),
                  hi, std::nextafter(hi, inf), lo - (hi - lo), hi + (hi - lo), -FLT_MAX, FLT_MAX};
  }
  for (T x : candidates)
    if (bin_of(map_, x) < 0) invalid_values_.push_back(x);
  if (spec.invalid_share > 0 && invalid_values_.empty())
    throw UsageError("every value of this sample type lies inside [lower, upper): no invalid samples possible");
}

template <class T>
int HistogramInput<T>::target_bin(std::size_t i) const {
  const std::uint64_t h = splitmix64(base_ + static_cast<std::uint64_t>(i) * kGamma);
  return target_from(i, h, splitmix64(h ^ 0xD1B54A32D192ED03ull));
}

template <class T>
int HistogramInput<T>::target_from(std::size_t i, std::uint64_t h, std::uint64_t h2) const {
  if (spec_.invalid_share > 0 && unit32_low(h2) < spec_.invalid_share) return -1;
  const auto bins = static_cast<std::uint64_t>(spec_.bins);
  switch (spec_.dist) {
    case HistDist::uniform: return static_cast<int>(pick(h, bins));
    case HistDist::one_bin: return hot_;
    case HistDist::hot: {
      if (bins == 1 || unit32_low(h) < spec_.hot_share) return hot_;
      const int r = static_cast<int>(pick(h, bins - 1));  // uniform over the other bins
      return r < hot_ ? r : r + 1;
    }
    case HistDist::zipf: {
      const double u = static_cast<double>(h >> 11) * 0x1.0p-53;
      const auto it = std::upper_bound(zipf_cdf_.begin(), zipf_cdf_.end(), u);
      const auto rank = std::min<std::size_t>(it - zipf_cdf_.begin(), zipf_cdf_.size() - 1);
      return zipf_bin_[rank];
    }
    case HistDist::image: {
      const double x = static_cast<double>(i % kImageWidth);
      const double y = static_cast<double>(i / kImageWidth);
      const double a = unit32(base_), b = unit32_low(base_);
      const double smooth = 0.15 + 0.35 * tri(x / 2900.0 + a) +
                            0.30 * tri(y / 1700.0 + b) * tri(x / 800.0 + y / 3100.0 + a * b);
      const double noise = (unit32(h) + unit32(h2) - 1.0) * 0.04;  // triangular, +-0.04
      const double v = std::min(std::max(smooth + noise, 0.0), 1.0 - 1e-12);
      return static_cast<int>(v * static_cast<double>(bins));
    }
  }
  return 0;
}

template <class T>
T HistogramInput<T>::value_in_bin(int bin, std::uint64_t h) const {
  if constexpr (std::is_same_v<T, float>) {
    // The middle 7/8 of the bin, computed in double, rounded once to float.
    const double lo = map_.lower, hi = map_.upper;
    const double f = 0.0625 + 0.875 * unit32(h);
    return static_cast<float>(lo + (bin + f) * (hi - lo) / spec_.bins);
  } else {
    // Integers v with floor((v - lower) * bins / range) == bin: [first(bin), first(bin + 1)),
    // first(b) = ceil(b * range / bins). Empty when bins > range; then the bin's first value.
    const std::uint64_t r = map_.range, b = static_cast<std::uint64_t>(spec_.bins);
    auto first = [&](std::uint64_t k) { return (k * r + b - 1) / b; };
    const std::uint64_t f0 = first(static_cast<std::uint64_t>(bin));
    const std::uint64_t width = first(static_cast<std::uint64_t>(bin) + 1) - f0;
    long long v = map_.lower + static_cast<long long>(f0 + (width > 0 ? pick(h, width) : 0));
    if constexpr (std::is_same_v<T, unsigned char>) v = std::min(std::max(v, 0LL), 255LL);
    return static_cast<T>(v);
  }
}

template <class T>
T HistogramInput<T>::sample(std::size_t i) const {
  const std::uint64_t h = splitmix64(base_ + static_cast<std::uint64_t>(i) * kGamma);
  const std::uint64_t h2 = splitmix64(h ^ 0xD1B54A32D192ED03ull);
  const int bin = target_from(i, h, h2);
  if (bin < 0) return invalid_values_[pick(h, invalid_values_.size())];
  return value_in_bin(bin, h2);
}

template <class T>
void fill_histogram_input(T* out, std::size_t n, const HistInputSpec& spec) {
  const HistogramInput<T> gen(spec);
  parallel_chunks(n, std::size_t{1} << 20, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) out[i] = gen.sample(i);
  });
}

template class HistogramInput<unsigned char>;
template class HistogramInput<int>;
template class HistogramInput<float>;
template void fill_histogram_input<unsigned char>(unsigned char*, std::size_t, const HistInputSpec&);
template void fill_histogram_input<int>(int*, std::size_t, const HistInputSpec&);
template void fill_histogram_input<float>(float*, std::size_t, const HistInputSpec&);

}  // namespace harness
