// Kernels for the SASS claims of chapter 8's reduction stage 8 against stage 7 (tests/sass_claims.json,
// checked by scripts/maintainers/sass_check.py without a GPU): both one-launch kernels at the default
// block, for a float sum (stage 8's 8-byte slots) and a double sum (its 16-byte slots).
#include "reduce_stage_7_one_launch.cuh"
#include "reduce_stage_8_tagged_finish.cuh"

namespace ch08 {

template __global__ void reduce_stage_7<float, Sum, 256>(const float*, std::size_t, float*, unsigned*, float*, Sum);
template __global__ void reduce_stage_7<double, Sum, 256>(const double*, std::size_t, double*, unsigned*, double*,
                                                          Sum);
template __global__ void reduce_stage_8<float, Sum, 256>(const float*, std::size_t, unsigned long long*,
                                                         TaggedSlots<float>, unsigned, float*, Sum);
template __global__ void reduce_stage_8<double, Sum, 256>(const double*, std::size_t, unsigned long long*,
                                                          TaggedSlots<double>, unsigned, double*, Sum);

}  // namespace ch08
