//! @file histogram_reference.hpp
//! @brief The CPU reference histogram (exact 64-bit counts, and how many samples were dropped) and
//! the check of a GPU histogram against it (every bin equal).
#pragma once
#include <cstddef>
#include <vector>

#include "dtype.hpp"
#include "histogram_problem.hpp"
#include "verify.hpp"

namespace harness {

//! A histogram computed on the CPU with the shared bin function (histogram_bins.cuh).
struct HistogramReference {
  std::vector<Count> counts;  //!< one exact count per bin
  Count counted = 0;          //!< sum of counts
  //! Samples not counted: outside [lower, upper), NaN, and (float) samples just below upper whose
  //! rounded bin is `bins` (as CUB; see histogram_bins.cuh). counted + dropped == n.
  Count dropped = 0;
};

//! Histogram of n samples of type T over `bins` bins of [lower, upper), in parallel over fixed
//! chunks of the input (each chunk counts privately, then the chunk counts are added: integer sums,
//! so the result does not depend on the order).
//! @tparam T unsigned char, int or float
//! @throws UsageError for a bad range (see make_bin_map)
template <class T>
HistogramReference reference_histogram(const T* samples, std::size_t n, int bins, double lower,
                                       double upper);

//! Same, with the sample type chosen at run time (u8, i32, f32); `samples` is a host array.
HistogramReference reference_histogram(DType type, const void* samples, std::size_t n, int bins,
                                       double lower, double upper);

//! Checks, without a GPU, that samples of `type` (u8, i32, f32) can be binned into `bins` bins of
//! [lower, upper): the rules of make_bin_map (histogram_bins.cuh).
//! @throws UsageError when they cannot (for example a non-integer limit for integer samples)
void validate_bin_range(DType type, int bins, double lower, double upper);

//! Compares a GPU histogram with the reference: every bin must be equal (CheckKind::exact).
//! On failure, first_bad is the first wrong bin, got / expected its two counts, and the message
//! names that bin and both totals (with the reference's dropped count).
//! @param[in] got host copy of the GPU's `got_bins` counts
//! @param[in] got_bins number of counts at `got` (must equal the reference's bins)
//! @param[in] ref the reference
Verification check_histogram(const Count* got, std::size_t got_bins, const HistogramReference& ref);

//! Same for a vector of counts.
inline Verification check_histogram(const std::vector<Count>& got, const HistogramReference& ref) {
  return check_histogram(got.data(), got.size(), ref);
}

}  // namespace harness
