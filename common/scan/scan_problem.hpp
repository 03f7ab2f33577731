//! @file scan_problem.hpp
//! @brief The scan problem: n elements in, their n prefix sums out (exclusive or inclusive).
#pragma once
#include <cstddef>
#include <functional>

#include "stage.hpp"

namespace harness {

//! Launch arguments of a scan: `out` holds n elements of the input type.
struct ScanArgs : LaunchArgs {
  bool inclusive = false;  //!< out[i] = a[0] + ... + a[i] (inclusive) or + a[i-1] (exclusive, out[0] = 0)
};

//! The scan problem (chapter 8, section 8.7).
struct Scan {
  using Args = ScanArgs;  //!< launch arguments
  //! What a scan stage supports beyond types and block sizes.
  struct Caps {
    bool exclusive = true;  //!< computes exclusive scans
    bool inclusive = true;  //!< computes inclusive scans
    //! Largest n the stage accepts at a block size (a single-block stage); null means any n.
    std::function<std::size_t(int block)> max_n;
    //! The stage to use for larger n, named in the refusal message.
    const char* larger_n_stage = nullptr;
  };
};

}  // namespace harness
