//! @file block_sum_one_barrier.cuh
//! @brief A block's sum with warp shuffles, one round through shared memory and a single barrier:
//! the block sum of stages 9 to 11.
#pragma once
#include <cuda_runtime.h>

#include "warp_sum.cuh"

namespace ch07 {

//! Block sum with warp shuffles and a single barrier: each warp reduces by shuffles (warp_sum: one
//! REDUX instruction for an int sum on sm_80 and newer), lane 0 of each
//! warp writes one value to shared memory, one __syncthreads(), then warp 0 reduces those values.
//! @tparam T element type
//! @tparam Block threads per block (power of two, 32..1024); every thread must call
//! @param[in] sum this thread's partial
//! @return in thread 0, the block's sum
template <class T, int Block>
__device__ __forceinline__ T block_sum_one_barrier(T sum) {
  constexpr int kWarps = Block / 32;
  __shared__ T warp_sums[kWarps];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  sum = warp_sum(sum);
  if constexpr (kWarps == 1) {
    return sum;
  } else {
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) sum = warp_sum(lane < kWarps ? warp_sums[lane] : T(0));
    return sum;
  }
}

}  // namespace ch07
