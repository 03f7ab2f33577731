#include "inputs.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "errors.hpp"

namespace harness {

Dist parse_dist(const std::string& s) {
  if (s == "signed") return Dist::signed_uniform;
  if (s == "uniform") return Dist::uniform;
  if (s == "skewed") return Dist::skewed;
  if (s == "exact") return Dist::exact;
  throw UsageError("unknown --dist '" + s + "': expected signed, uniform, skewed or exact");
}

const char* dist_name(Dist d) {
  switch (d) {
    case Dist::signed_uniform: return "signed";
    case Dist::uniform: return "uniform";
    case Dist::skewed: return "skewed";
    case Dist::exact: return "exact";
  }
  return "?";
}

std::uint64_t exact_max_value(std::size_t n, int mantissa_bits) {
  const double limit = std::ldexp(1.0, mantissa_bits);
  if (n == 0) return 1000;
  const double k = std::floor((limit - 1.0) / static_cast<double>(n));
  if (k < 1.0) return 0;
  return static_cast<std::uint64_t>(std::min(k, 1000.0));
}

namespace {

template <class T>
constexpr int mantissa_bits() {
  if constexpr (std::is_same_v<T, float>) return 24;
  else if constexpr (std::is_same_v<T, double>) return 53;
  else return 31;
}

}  // namespace

namespace {

// Parameters of the `exact` distribution for n elements of T: the largest value k, or (k = 0) the
// probability of a one in the sparse variant.
struct ExactParams {
  std::uint64_t k = 0;
  double p = 0;
};

template <class T>
ExactParams exact_params(std::size_t n) {
  ExactParams e;
  e.k = exact_max_value(n, mantissa_bits<T>());
  if (e.k == 0) e.p = std::ldexp(1.0, mantissa_bits<T>() - 1) / static_cast<double>(n);
  return e;
}

template <class T>
T value_at(Dist dist, std::uint64_t seed, std::size_t i, const ExactParams& ex) {
  const std::uint64_t h = splitmix64(seed * 0xD1B54A32D192ED03ull + splitmix64(i));
  const double u53 = static_cast<double>(h >> 11) * 0x1.0p-53;  // [0, 1), exact in double
  switch (dist) {
    case Dist::signed_uniform:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int>(h % 201) - 100);
      else if constexpr (std::is_same_v<T, float>)
        return static_cast<float>(static_cast<std::int64_t>(h >> 40) - (1 << 23)) * 0x1.0p-23f;
      else return 2.0 * u53 - 1.0;
    case Dist::uniform:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(h % 101);
      else if constexpr (std::is_same_v<T, float>) return static_cast<float>(h >> 40) * 0x1.0p-24f;
      else return u53;
    case Dist::skewed: {
      const double v = 1000.0 * std::pow(u53, 8.0);
      if constexpr (std::is_integral_v<T>) return static_cast<T>(v);
      else return static_cast<T>(v);
    }
    case Dist::exact:
      if (ex.k > 0) return static_cast<T>(h % (ex.k + 1));
      // Sparse ones: probability 2^(bits-1) / n keeps the expected total at half the exact limit.
      return static_cast<T>(u53 < ex.p ? 1 : 0);
  }
  return T{};
}

}  // namespace

template <class T>
T generate_value(Dist dist, std::uint64_t seed, std::size_t i, std::size_t n) {
  return value_at<T>(dist, seed, i, exact_params<T>(n));
}

void parallel_chunks(std::size_t n, std::size_t chunk,
                     const std::function<void(std::size_t, std::size_t, std::size_t)>& body) {
  const std::size_t chunks = (n + chunk - 1) / chunk;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(hw, chunks);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t c = next++; c < chunks; c = next++)
      body(c * chunk, std::min(n, (c + 1) * chunk), c);
  };
  if (workers <= 1) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  for (std::size_t w = 0; w < workers; ++w) pool.emplace_back(work);
  for (auto& t : pool) t.join();
}

template <class T>
void fill_host(T* out, std::size_t n, Dist dist, std::uint64_t seed) {
  const ExactParams ex = exact_params<T>(n);
  parallel_chunks(n, std::size_t{1} << 20, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) out[i] = value_at<T>(dist, seed, i, ex);
  });
}

template float generate_value<float>(Dist, std::uint64_t, std::size_t, std::size_t);
template double generate_value<double>(Dist, std::uint64_t, std::size_t, std::size_t);
template int generate_value<int>(Dist, std::uint64_t, std::size_t, std::size_t);
template void fill_host<float>(float*, std::size_t, Dist, std::uint64_t);
template void fill_host<double>(double*, std::size_t, Dist, std::uint64_t);
template void fill_host<int>(int*, std::size_t, Dist, std::uint64_t);

}  // namespace harness
