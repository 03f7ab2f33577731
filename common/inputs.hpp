//! @file inputs.hpp
//! @brief Seeded input generators. Element i is a pure function of (seed, i, n), so any element can
//! be regenerated anywhere and every run of a program with the same seed sees the same data.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <functional>
#include <vector>

namespace harness {

//! Distribution of generated inputs.
enum class Dist {
  signed_uniform,  //!< floats: multiples of 2^-23 in [-1, 1); ints: integers in [-100, 100]
  uniform,         //!< floats: multiples of 2^-24 in [0, 1); ints: integers in [0, 100]
  skewed,          //!< heavy-tailed non-negative values: 1000 * u^8 (ints rounded down)
  exact            //!< small non-negative integers whose every partial sum is exact in the type
};

//! Parses "signed", "uniform", "skewed" or "exact". Throws UsageError otherwise.
Dist parse_dist(const std::string& s);
//! Name of a distribution as the command line spells it.
const char* dist_name(Dist d);

//! SplitMix64 finaliser: a 64-bit hash with full avalanche (Steele, Lea and Flood, 2014).
inline std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

//! Largest value of the `exact` distribution for n elements of a type with `mantissa_bits`
//! significand bits (24 float, 53 double, 31 int): the biggest k in [1, 1000] with n * k < 2^bits,
//! or 0 when even k = 1 could overflow (then values are 1 with probability 2^(bits-1) / n, else 0,
//! which keeps the total, and so every partial sum of non-negative values, below 2^bits in practice).
std::uint64_t exact_max_value(std::size_t n, int mantissa_bits);

//! Element i of n elements of type T drawn from `dist` with `seed`.
//! @tparam T float, double or int (the instantiations in inputs.cpp)
template <class T>
T generate_value(Dist dist, std::uint64_t seed, std::size_t i, std::size_t n);

//! Fills `out[0..n)` with generate_value<T>(dist, seed, i, n), using every host core.
//! @tparam T float, double or int (the instantiations in inputs.cpp)
template <class T>
void fill_host(T* out, std::size_t n, Dist dist, std::uint64_t seed);

//! Same as fill_host into a new vector.
//! @tparam T float, double or int
template <class T>
std::vector<T> make_host_input(std::size_t n, Dist dist, std::uint64_t seed) {
  std::vector<T> v(n);
  fill_host(v.data(), n, dist, seed);
  return v;
}

//! Calls `body(begin, end)` over [0, n) split into fixed chunks, on up to hardware_concurrency
//! threads. Chunks do not depend on the thread count, so per-chunk results are reproducible.
//! @param[in] n number of items
//! @param[in] chunk items per chunk (> 0)
//! @param[in] body called once per chunk with its index range and chunk number
void parallel_chunks(std::size_t n, std::size_t chunk,
                     const std::function<void(std::size_t, std::size_t, std::size_t)>& body);

}  // namespace harness
