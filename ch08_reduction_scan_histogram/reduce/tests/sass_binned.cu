// Kernels for the SASS claims of chapter 8's binned sum (tests/sass_claims.json, checked by
// scripts/sass_check.py without a GPU): one deposit of one element, as reduce_stage_6's loop makes
// it, compiled alone so that its instructions can be counted; and stage 6's first pass itself.
// The bins come from memory and go back to it, so that no addition to a zero is folded away.
#include "binned_sum.hpp"
#include "reduce_stage_6_binned.cuh"

namespace ch08_sass {

//! One element deposited into three bins read from and written back to `bins`.
template <class T>
__global__ void binned_deposit_one(const T* __restrict__ x, T scale, T* __restrict__ bins) {
  T acc[harness::kBinnedBins] = {bins[0], bins[1], bins[2]};
  harness::binned_deposit(acc, x[0], scale);
  bins[0] = acc[0];
  bins[1] = acc[1];
  bins[2] = acc[2];
}

template __global__ void binned_deposit_one<float>(const float*, float, float*);
template __global__ void binned_deposit_one<double>(const double*, double, double*);

}  // namespace ch08_sass

// Stage 6's first pass as the ladder runs it (block 256).
template __global__ void ch08::reduce_stage_6<float, 256>(const float*, std::size_t, harness::BinnedPartial*);
template __global__ void ch08::reduce_stage_6<double, 256>(const double*, std::size_t, harness::BinnedPartial*);
