//! @file inputs.hpp
//! @brief Seeded input generators. Element i is a pure function of (seed, i, n), so any element can
//! be regenerated anywhere and every run of a program with the same seed sees the same data.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <functional>
#include <vector>

#include "dtype.hpp"

namespace harness {

//! Distribution of generated inputs.
enum class Dist {
  signed_uniform,  //!< floats: multiples of 2^-23 in [-1, 1); ints: integers in [-100, 100]
  uniform,         //!< floats: multiples of 2^-24 in [0, 1); ints: integers in [0, 100]
  skewed,          //!< heavy-tailed non-negative values: 1000 * u^8 (ints rounded down)
  exact            //!< every element +1 or -1 (random signs, no zeros): see exact_data_limit
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

//! Bits of an element type's significand: 24 (float), 53 (double), 31 (int), 63 (int64), 8 (uint8).
//! Every integer of magnitude up to 2^bits is exact in the type.
int significand_bits(DType t);

//! The largest n for which `exact` data of a type with `bits` significand bits is promised exact:
//! 2^(2 bits - 12) (2^36 for float; beyond any size_t for double and int, so no limit there).
//!
//! Why exact: every element is +1 or -1, its sign an independent fair coin (a hash of seed and
//! index). A kernel adds in an order that it fixes before it sees the values (its grid, its tree,
//! the timing of its atomics: none of them looks at a value), so each partial sum it forms is a
//! sum of m <= n independent random signs, and Hoeffding's inequality gives
//! P(|partial| >= 2^bits) <= 2 exp(-2^(2 bits - 1) / n). A reduction or scan of n elements forms
//! fewer than 4n partial sums, so the chance that any of them reaches 2^bits (where float stops
//! holding every integer) is below 8n exp(-2^(2 bits - 1) / n): below 10^-800 for float at
//! n = 2^36 (256 GiB of floats, more than any GPU holds). The promise is for *data-independent*
//! orders, not for every order: a sum that added all the +1s first would reach n/2. What it buys:
//! no element is zero, so a lost, doubled or unwritten element always changes the answer, at every
//! n; an odd number of lost elements (one, three) always changes a sum, since a sum of an odd
//! number of +-1 values is odd. Two lost elements of opposite sign cancel in a sum (a scan still
//! shows them, in the outputs between them).
std::size_t exact_data_limit(int bits);

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

//! n elements of an input type (float, double or int) from `dist` (a name parse_dist accepts) and
//! `seed`, as raw bytes: what a reduction or a scan session uploads.
//! @throws UsageError for an unknown distribution or a type other than float, double or int
std::vector<unsigned char> generate_bytes(DType type, std::size_t n, const std::string& dist, std::uint64_t seed);

//! Checks that n elements of `type` at `host` are exact data (exact_data_limit): every value +1 or
//! -1, n at most exact_data_limit(significand_bits(type)), and, as a witness of the probabilistic
//! argument on the data actually used, every prefix sum in index order (the order of a scan, and
//! of a sequential sum) below 2^(significand_bits - 1) in magnitude.
//! @throws std::logic_error when they are not (a check on them would then mean nothing)
void require_exact_data(DType type, const void* host, std::size_t n);

//! Calls `body(begin, end)` over [0, n) split into fixed chunks, on up to hardware_concurrency
//! threads. Chunks do not depend on the thread count, so per-chunk results are reproducible.
//! @param[in] n number of items
//! @param[in] chunk items per chunk (> 0)
//! @param[in] body called once per chunk with its index range and chunk number
void parallel_chunks(std::size_t n, std::size_t chunk,
                     const std::function<void(std::size_t, std::size_t, std::size_t)>& body);

}  // namespace harness
