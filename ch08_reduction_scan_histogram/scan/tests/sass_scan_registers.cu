//! @file sass_scan_registers.cu
//! @brief Test-only: the instantiations of the vectorised single-pass scan (stages 5-7's kernel)
//! whose registers and spills the pages quote, for the register check
//! (ch08_reduction_scan_histogram/scan/tests/sass_claims.json, test cpu.sass_claims_ch08_scan).
//!
//! Stage 6 and 7 run 8 16-byte vectors per thread at block 256 by default and accept blocks up to
//! 512; stage 7's `occ62` and `occ75` knobs add `__launch_bounds__` minimum blocks (5 and 6 at block
//! 256). This file instantiates those forms, and the 8-vector kernel at block 1024 (the block the
//! stages refuse), so that `ptxas -v` reports each one's registers and spills. Nothing runs them.
#include "scan_stage_5_vectorized.cuh"

namespace ch08 {

// Stage 7's default and its occ62 / occ75 forms (block 256, aligned input, streaming hints).
template __global__ void scan_single_pass_vec<float, 256, 8, true, StreamingCache, SpinWait, 0>(
    const float*, float*, std::size_t, unsigned*, TileStatus<float>, bool);
template __global__ void scan_single_pass_vec<float, 256, 8, true, StreamingCache, SpinWait, 5>(
    const float*, float*, std::size_t, unsigned*, TileStatus<float>, bool);
template __global__ void scan_single_pass_vec<float, 256, 8, true, StreamingCache, SpinWait, 6>(
    const float*, float*, std::size_t, unsigned*, TileStatus<float>, bool);
// The 8-vector kernel at block 1024 (stage 6 allows at most 512): float fits, double does not.
template __global__ void scan_single_pass_vec<float, 1024, 8, true, DefaultCache>(
    const float*, float*, std::size_t, unsigned*, TileStatus<float>, bool);
template __global__ void scan_single_pass_vec<double, 1024, 8, true, DefaultCache>(
    const double*, double*, std::size_t, unsigned*, TileStatus<double>, bool);

}  // namespace ch08
