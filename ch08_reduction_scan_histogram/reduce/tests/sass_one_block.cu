// Kernels for the SASS claims of chapter 8's stage 7 on one block (tests/sass_claims.json, checked by
// scripts/maintainers/sass_check.py without a GPU): the one-block kernel at block 256 for an int max,
// whose warps fold with REDUX (warp_reduce), and for a float max, which keeps the shuffles.
#include "reduce_stage_7_one_launch.cuh"

namespace ch08 {

template __global__ void reduce_stage_7_one_block<int, Max, 256>(const int*, std::size_t, int*, Max);
template __global__ void reduce_stage_7_one_block<float, Max, 256>(const float*, std::size_t, float*, Max);

}  // namespace ch08
