//! @file roofline_model.hpp
//! @brief The roofline model of the article's section 1: ridge point and attainable throughput.
#pragma once
#include <algorithm>

namespace harness {

//! A two-roof roofline: a compute roof (FLOP/s) and a memory roof (bytes/s).
struct Roofline {
  double peak_flops = 0;     //!< compute roof, FLOP/s
  double peak_bandwidth = 0;  //!< memory roof, bytes/s
  //! Arithmetic intensity (FLOP/byte) where the two roofs meet: peak_flops / peak_bandwidth.
  double ridge_point() const { return peak_flops / peak_bandwidth; }
  //! Highest attainable FLOP/s at arithmetic intensity `flop_per_byte`.
  double ceiling(double flop_per_byte) const {
    return std::min(peak_flops, flop_per_byte * peak_bandwidth);
  }
};

//! Arithmetic intensity of a reduction over elements of `element_bytes` bytes: one
//! operation per element read, so 1 / element_bytes FLOP/byte (0.25 for float).
inline double reduction_intensity(double element_bytes) { return 1.0 / element_bytes; }

}  // namespace harness
