//! @file histogram_inputs.hpp
//! @brief Seeded histogram inputs by name: uniform, one-bin, zipf, image, and a hot-share
//! generator for the contention sweep; for 8-bit, int and float samples, optionally with samples
//! outside the range (and NaN for float).
//!
//! Sample i is a pure function of (spec, i): it is drawn from SplitMix64 hashes of (seed, i), so
//! any sample can be regenerated anywhere, a warp's 32 samples never repeat another warp's, and
//! every run with the same seed sees the same data. Each distribution first picks a *target bin*
//! for the sample, then a value inside that bin (for float, away from the bin's edges); bin_of of
//! that value gives back the target bin (float: whenever a bin is many float ulps wide).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "histogram_bins.cuh"

namespace harness {

//! Distribution of a histogram's input.
enum class HistDist {
  uniform,  //!< every bin equally likely, each sample from its own hash: random, well mixed
  one_bin,  //!< every sample in one bin (hot_bin): the most contended input
  zipf,     //!< bin of rank k with probability ~ 1 / (k + 1)^1.1, ranks scattered over the bins
  image,    //!< rows of a smooth 4096-wide image (gradients, soft waves) plus a little noise
  hot       //!< a share `hot_share` of samples in hot_bin, the rest uniform over the other bins
};

//! Parses "uniform", "one-bin", "zipf", "image" or "hot". Throws UsageError otherwise.
HistDist parse_hist_dist(const std::string& s);
//! Name of a distribution as the command line spells it.
const char* hist_dist_name(HistDist d);

//! What to generate.
struct HistInputSpec {
  HistDist dist = HistDist::uniform;  //!< the distribution
  std::uint64_t seed = 1;             //!< seed of every hash
  int bins = 256;                     //!< bins of the histogram the input is meant for
  double lower = 0;                   //!< its range [lower, upper)
  double upper = 256;                 //!< its range [lower, upper)
  double hot_share = 1.0;             //!< HistDist::hot: share of samples in the hot bin, in [0, 1]
  //! Share of samples, in [0, 1], replaced by values that are not counted: below lower, exactly
  //! upper, above upper, the type's extremes, and for float NaN and +-inf. Zero by default.
  //! Refused (UsageError) for a type and range where every value is counted (uint8 over [0, 256)).
  double invalid_share = 0;
};

//! The bin that one-bin and hot put their samples in: a bin chosen from the seed.
int hot_bin(const HistInputSpec& spec);

//! Generator of one input: sample(i) for any i. Construction precomputes what every sample needs
//! (the Zipf table, the list of invalid values); sample() is then cheap and thread-safe.
//! @tparam T unsigned char, int or float
template <class T>
class HistogramInput {
 public:
  //! Checks the spec (range via make_bin_map, shares in [0, 1]) and precomputes tables.
  //! @throws UsageError for a bad range or share, or invalid_share > 0 where nothing is invalid
  explicit HistogramInput(const HistInputSpec& spec);
  //! The target bin of sample i, or -1 when sample i is one of the invalid samples.
  int target_bin(std::size_t i) const;
  //! Sample i.
  T sample(std::size_t i) const;
  //! The spec.
  const HistInputSpec& spec() const { return spec_; }

 private:
  int target_from(std::size_t i, std::uint64_t h, std::uint64_t h2) const;  // from sample i's two hashes
  T value_in_bin(int bin, std::uint64_t h) const;
  HistInputSpec spec_;
  bin_map_t<T> map_;
  std::uint64_t base_ = 0;
  int hot_ = 0;
  std::vector<double> zipf_cdf_;      // cumulative probability of ranks 0..bins-1
  std::vector<int> zipf_bin_;         // bin of each rank
  std::vector<T> invalid_values_;     // values bin_of rejects
};

//! Fills out[0..n) with HistogramInput<T>(spec).sample(i), using every host core.
//! @tparam T unsigned char, int or float
template <class T>
void fill_histogram_input(T* out, std::size_t n, const HistInputSpec& spec);

//! Same as fill_histogram_input into a new vector.
//! @tparam T unsigned char, int or float
template <class T>
std::vector<T> make_histogram_input(std::size_t n, const HistInputSpec& spec) {
  std::vector<T> v(n);
  fill_histogram_input(v.data(), n, spec);
  return v;
}

}  // namespace harness
