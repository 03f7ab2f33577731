#include "inputs.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "dtype.hpp"
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

int significand_bits(DType t) {
  switch (t) {
    case DType::f32: return 24;
    case DType::f64: return 53;
    case DType::i32: return 31;
    case DType::i64: return 63;
    case DType::u8: return 8;
  }
  return 0;
}

double exact_nonzero_probability(std::size_t n, int bits) {
  const double limit = std::ldexp(1.0, bits - 1);
  return (n == 0 || static_cast<double>(n) <= limit) ? 1.0 : limit / static_cast<double>(n);
}

namespace {

// The `exact` distribution's probability of a nonzero element for n elements of T.
struct ExactParams {
  double p = 1;
};

template <class T>
ExactParams exact_params(std::size_t n) {
  return ExactParams{exact_nonzero_probability(n, significand_bits(dtype_of<T>()))};
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
      // +1 or -1 (bit 0 of the hash) with probability p, else 0 (u53 comes from the top bits).
      if (u53 >= ex.p) return T(0);
      return static_cast<T>((h & 1) ? 1 : -1);
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

std::vector<unsigned char> generate_bytes(DType type, std::size_t n, const std::string& dist,
                                          std::uint64_t seed) {
  std::vector<unsigned char> host(n * dtype_size(type));
  const Dist d = parse_dist(dist);
  with_input_type(type, [&](auto t) {
    using T = decltype(t);
    fill_host(reinterpret_cast<T*>(host.data()), n, d, seed);
  });
  return host;
}

void require_exact_data(DType type, const void* host, std::size_t n) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<double> parts((n + kChunk - 1) / kChunk);
  std::atomic<bool> integral{true};
  with_input_type(type, [&](auto t) {
    using T = decltype(t);
    const T* a = static_cast<const T*>(host);
    parallel_chunks(n, kChunk, [&](std::size_t b, std::size_t e, std::size_t c) {
      double s = 0;
      for (std::size_t i = b; i < e; ++i) {
        const double v = static_cast<double>(a[i]);
        if (v != std::floor(v)) integral = false;
        s += std::fabs(v);
      }
      parts[c] = s;
    });
  });
  double total = 0;
  for (double p : parts) total += p;
  if (!integral || total >= std::ldexp(1.0, significand_bits(type)))
    throw std::logic_error("the exact input is not exact data: sum|a| = " + std::to_string(total) +
                           (integral ? "" : ", with non-integer values") + ", limit 2^" +
                           std::to_string(significand_bits(type)));
}

template float generate_value<float>(Dist, std::uint64_t, std::size_t, std::size_t);
template double generate_value<double>(Dist, std::uint64_t, std::size_t, std::size_t);
template int generate_value<int>(Dist, std::uint64_t, std::size_t, std::size_t);
template void fill_host<float>(float*, std::size_t, Dist, std::uint64_t);
template void fill_host<double>(double*, std::size_t, Dist, std::uint64_t);
template void fill_host<int>(int*, std::size_t, Dist, std::uint64_t);

}  // namespace harness
