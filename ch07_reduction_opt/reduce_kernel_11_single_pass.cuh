//! @file reduce_kernel_11_single_pass.cuh
//! @brief Stage 11 (past the article): one launch, deterministic: the last block to finish reduces
//! the block partials.
//!
//! Changed against stage 10: blocks no longer atomicAdd their sums into the result (float atomics
//! make the order, and so the rounding, change from run to run). Each block writes its partial to
//! partials[blockIdx.x], makes it visible device-wide with __threadfence(), and takes a ticket from
//! a device-wide counter with atomicAdd. The block that draws the last ticket knows every other
//! partial is visible; it sums partials[0..gridDim.x) in a fixed order, writes the result and
//! resets the counter for the next launch. One launch, no second pass, the same bits on every run
//! (the grid is fixed for a given device, type, block size and n).
//! Source: the threadfence reduction of the CUDA programming guide (memory fence functions) and the
//! CUDA samples' threadFenceReduction.
//! What the profiler shows: one kernel and no float atomics; one integer atomic and one divergent
//! branch per block (thread 0 takes the ticket), 2 barriers per block instead of 1; on the H200 at
//! 2^24 floats the kernel takes 20.5 us against stage 10's 18.8 us.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "reduce_kernel_9_vectorized.cuh"

namespace ch07 {

//! Tickets taken by finished blocks of the single-pass stage; the last block resets it to 0.
//! Because it is one global counter, launches of stage 11 must not run concurrently on one device.
__device__ unsigned int g_stage11_retired = 0;

//! Stage 11: stage 10's accumulation and block sum, then the last-block finish.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x elements of scratch, one per block (their old contents are unused)
//! @param[out] result one element: the sum (written, not accumulated: no zeroing needed)
//! Launch: at most 2^31 - 1 blocks; one launch at a time (see g_stage11_retired).
template <class T, int Block>
__global__ void __launch_bounds__(Block)
    reduce_kernel_11(const T* __restrict__ data, std::size_t n, T* partials, T* result) {
  __shared__ bool is_last_block;
  T sum = block_sum_one_barrier<T, Block>(thread_sum_vectorized(data, n));
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();  // the partial is visible to every block before the ticket is taken
    const unsigned ticket = atomicAdd(&g_stage11_retired, 1u);
    is_last_block = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (!is_last_block) return;

  // The last block: every partial is visible. Sum them in a fixed order (L2 reads: __ldcg).
  T acc = T(0);
  for (unsigned i = threadIdx.x; i < gridDim.x; i += Block) acc += __ldcg(partials + i);
  __syncthreads();  // warp_sums of block_sum_one_barrier are reused
  acc = block_sum_one_barrier<T, Block>(acc);
  if (threadIdx.x == 0) {
    *result = acc;
    g_stage11_retired = 0;
  }
}

}  // namespace ch07
