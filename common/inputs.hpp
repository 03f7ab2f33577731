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
  exact            //!< values in {-1, 0, +1} whose every partial sum is exact in the type in any order
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

//! Probability that an element of the `exact` distribution is nonzero, for n elements of a type
//! with `bits` significand bits: 1 while n <= 2^(bits-1) (every element +1 or -1, so dropping or
//! doubling any one changes the sum), else 2^(bits-1) / n, which keeps the count of nonzeros, and
//! so the magnitude of every partial sum in any order, near 2^(bits-1), far below 2^bits.
double exact_nonzero_probability(std::size_t n, int bits);

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

//! Proves that n elements of `type` at `host` are exact data: integers whose magnitudes sum to less
//! than 2^significand_bits(type), so every partial sum, in any order, is exact in the type.
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
