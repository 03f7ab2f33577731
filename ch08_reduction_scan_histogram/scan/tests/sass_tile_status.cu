//! @file sass_tile_status.cu
//! @brief Test-only: stage 4's kernel for float and for double, whose status loads and stores the
//! scan page counts (ch08_reduction_scan_histogram/scan/tests/sass_claims.json, test
//! cpu.sass_claims_ch08_scan): a float tile's status is one 64-bit word, a double tile's one 128-bit
//! word (tile_status.cuh), each published and read as a single access. Nothing runs them.
#include "scan_stage_4_decoupled_lookback.cuh"

namespace ch08 {

template __global__ void scan_single_pass<float, 256, 8>(const float*, float*, std::size_t, unsigned*,
                                                         TileStatus<float>, bool);
template __global__ void scan_single_pass<double, 256, 4>(const double*, double*, std::size_t, unsigned*,
                                                          TileStatus<double>, bool);

}  // namespace ch08
