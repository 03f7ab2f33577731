//! @file histogram_problem.hpp
//! @brief The histogram problem: n samples in, `bins` counters out.
#pragma once
#include <cstddef>

#include "stage.hpp"

namespace harness {

//! One histogram counter: 64 bits, so that every bin of every n the program accepts is exact.
using Count = unsigned long long;

//! Launch arguments of a histogram: `out` holds `bins` Count values. Samples x with
//! lower <= x < upper fall into bin floor((x - lower) * bins / (upper - lower)); others (and NaN)
//! are not counted.
struct HistogramArgs : LaunchArgs {
  int bins = 256;        //!< number of bins (>= 1)
  double lower = 0;      //!< lowest value counted
  double upper = 256;    //!< first value past the range
};

//! The histogram problem (chapter 8, section 8.8).
struct Histogram {
  using Args = HistogramArgs;  //!< launch arguments
  //! What a histogram stage supports beyond sample types and block sizes.
  struct Caps {
    int max_bins = 1 << 20;  //!< most bins the stage accepts (shared-memory stages: what fits)
  };
};

}  // namespace harness
