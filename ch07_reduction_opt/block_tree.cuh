//! @file block_tree.cuh
//! @brief The block's shared-memory tree, unrolled from the block size at compile time (sequential
//! addressing, the partial kept in a register): the tree of stages 5 and 6, and the levels above
//! the last warp in stages 7 and 8.
#pragma once
#include <cuda_runtime.h>

namespace ch07 {

//! The block tree from stride Block/2 down to stride `Last` (inclusive), unrolled: at each stride s,
//! threads tid < s set sdata[tid] = sum = sum + sdata[tid + s], then the block synchronises.
//! @tparam T element type
//! @tparam Block threads per block (power of two)
//! @tparam Last smallest stride folded (a power of two >= 1)
//! @param[in,out] sdata Block elements of shared memory holding each thread's partial; a barrier
//!                must separate their writes from this call
//! @param[in] tid threadIdx.x
//! @param[in] sum this thread's partial (equal to sdata[tid])
//! @return the thread's partial after the last level; in thread 0 after Last = 1, the block's sum
template <class T, int Block, int Last>
__device__ __forceinline__ T unrolled_tree(T* sdata, unsigned tid, T sum) {
#pragma unroll
  for (int s = Block / 2; s >= Last; s >>= 1) {
    if (tid < static_cast<unsigned>(s)) sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  return sum;
}

}  // namespace ch07
