#include "inputs.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
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

std::size_t exact_data_limit(int bits) {
  const int log2_limit = 2 * bits - 12;
  if (log2_limit >= 64) return std::numeric_limits<std::size_t>::max();
  return std::size_t{1} << log2_limit;
}

namespace {

template <class T>
T value_at(Dist dist, std::uint64_t seed, std::size_t i) {
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
      // +1 or -1: the sign is bit 0 of the hash, an independent fair coin for every element.
      return static_cast<T>((h & 1) ? 1 : -1);
  }
  return T{};
}

}  // namespace

template <class T>
T generate_value(Dist dist, std::uint64_t seed, std::size_t i, std::size_t /*n*/) {
  return value_at<T>(dist, seed, i);
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
  parallel_chunks(n, std::size_t{1} << 20, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) out[i] = value_at<T>(dist, seed, i);
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
  const int bits = significand_bits(type);
  auto fail = [&](const std::string& why) {
    throw std::logic_error("the exact input is not exact data: " + why);
  };
  if (n > exact_data_limit(bits))
    fail("n = " + std::to_string(n) + " is past 2^" + std::to_string(2 * bits - 12) +
         ", the largest n whose partial sums are promised exact in " + dtype_name(type));
  // Per chunk: is every value +1 or -1, the chunk's sum, and the lowest and highest prefix sum
  // inside it; the chunks are then joined in order to give every prefix sum of the whole input.
  struct Part {
    bool ok = true;
    long long sum = 0, lo = 0, hi = 0;
  };
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<Part> parts((n + kChunk - 1) / kChunk);
  with_input_type(type, [&](auto t) {
    using T = decltype(t);
    const T* a = static_cast<const T*>(host);
    parallel_chunks(n, kChunk, [&](std::size_t b, std::size_t e, std::size_t c) {
      Part p;
      for (std::size_t i = b; i < e; ++i) {
        const T v = a[i];
        if (v == T(1)) ++p.sum;
        else if (v == T(-1)) --p.sum;
        else p.ok = false;
        p.lo = std::min(p.lo, p.sum);
        p.hi = std::max(p.hi, p.sum);
      }
      parts[c] = p;
    });
  });
  long long prefix = 0, worst = 0;
  for (const Part& p : parts) {
    if (!p.ok) fail("a value other than +1 or -1");
    worst = std::max({worst, std::llabs(prefix + p.lo), std::llabs(prefix + p.hi)});
    prefix += p.sum;
  }
  if (worst >= (1ll << (bits - 1)))
    fail("a prefix sum reaches " + std::to_string(worst) + ", not below 2^" + std::to_string(bits - 1));
}

template float generate_value<float>(Dist, std::uint64_t, std::size_t, std::size_t);
template double generate_value<double>(Dist, std::uint64_t, std::size_t, std::size_t);
template int generate_value<int>(Dist, std::uint64_t, std::size_t, std::size_t);
template void fill_host<float>(float*, std::size_t, Dist, std::uint64_t);
template void fill_host<double>(double*, std::size_t, Dist, std::uint64_t);
template void fill_host<int>(int*, std::size_t, Dist, std::uint64_t);

}  // namespace harness
