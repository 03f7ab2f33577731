//! @file warp_sum.cuh
//! @brief Sums through registers: a warp's 32 values with five shuffles (warp_shuffle_sum), and a
//! block's with the unrolled shared-memory tree down to stride 32 and one warp of shuffles
//! (block_sum_shuffle). Stage 7 introduces them; stage 8 reuses them; the one-barrier block sum of
//! stages 9 to 13 takes warp_sum (one REDUX instruction for an int sum on sm_80 and newer).
#pragma once
#include <cuda_runtime.h>

#include <type_traits>

#include "block_tree.cuh"
#include "kernel_support.cuh"

namespace ch07 {

//! Sum over the 32 lanes of a warp with five __shfl_down_sync steps (offsets 16, 8, 4, 2, 1).
//! @tparam T float, double or int
//! @param[in] sum this lane's value; all 32 lanes must call (full mask)
//! @return in lane 0, the warp's sum (other lanes hold partial sums)
template <class T>
__device__ __forceinline__ T warp_shuffle_sum(T sum) {
  constexpr unsigned kFullMask = 0xffffffffu;
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(kFullMask, sum, offset);
  return sum;
}

//! Sum over the 32 lanes of a warp by the hardware's own warp reduction where it has one: an int sum
//! is harness::warp_sum_unsigned (on sm_80 and newer one REDUX.SUM instruction, __reduce_add_sync,
//! modulo 2^32 like the adds it replaces), where warp_shuffle_sum takes five SHFL and five adds, each
//! waiting on the one before; float and double take warp_shuffle_sum. Used by the one-barrier block
//! sum of stages 9 to 13.
//! @tparam T float, double or int
//! @param[in] sum this lane's value; all 32 lanes must call (full mask)
//! @return in lane 0 (with REDUX: in every lane), the warp's sum
//! Source: CUDA C++ Programming Guide, "Warp Reduce Functions"; CUB's WarpReduce takes the same
//! instruction for 32-bit integers.
template <class T>
__device__ __forceinline__ T warp_sum(T sum) {
  if constexpr (std::is_same_v<T, int>)
    return static_cast<int>(harness::warp_sum_unsigned(static_cast<unsigned>(sum)));
  else
    return warp_shuffle_sum(sum);
}

//! Block sum: the unrolled shared-memory tree down to stride 32, then warp 0 shuffles.
//! @tparam T element type
//! @tparam Block threads per block (power of two, 32..1024)
//! @param[in,out] sdata Block partials in shared memory, published by a __syncthreads()
//! @param[in] tid threadIdx.x
//! @param[in] sum this thread's partial (equal to sdata[tid])
//! @return in thread 0, the block's sum
template <class T, int Block>
__device__ __forceinline__ T block_sum_shuffle(T* sdata, unsigned tid, T sum) {
  sum = unrolled_tree<T, Block, 32>(sdata, tid, sum);
  if (tid < 32) sum = warp_shuffle_sum(sum);
  return sum;
}

}  // namespace ch07
