//! @file barrier_policy.cuh
//! @brief How chapter 8's kernels call __syncthreads(): through a policy chosen at compile time, so
//! that the same kernel source can be built plainly (for timing) or instrumented to count its
//! barriers per block (for the barrier table of the README, exercise 1 of the chapter).
//!
//! The timed kernels are instantiated with PlainBarrier, whose barrier() is exactly
//! __syncthreads() and whose done() is empty: no counter, no extra register, no extra store.
//! Only the barrier-count program (reduce_barriers) instantiates CountingBarrier.
#pragma once
#include <cuda_runtime.h>

namespace ch08 {

//! The policy of every timed kernel: barrier() is __syncthreads(), nothing is counted.
struct PlainBarrier {
  //! Block-wide barrier: every thread of the block must call it (same count, same order).
  __device__ __forceinline__ void barrier() { __syncthreads(); }
  //! Nothing to record.
  __device__ __forceinline__ void done() const {}
};

//! The instrumented policy: each thread counts the barriers it passes; at the end thread 0 of each
//! block stores its count to per_block[blockIdx.x]. Since every thread of a block must pass the same
//! barriers, thread 0's count is the block's count.
struct CountingBarrier {
  unsigned* per_block = nullptr;  //!< device array with one slot per block of the launch
  unsigned count = 0;             //!< barriers passed so far by this thread (a kernel-local copy)
  //! __syncthreads(), then one more barrier counted.
  __device__ __forceinline__ void barrier() {
    __syncthreads();
    ++count;
  }
  //! Thread 0 records the block's count. Call once, at the end of the kernel, from every thread.
  __device__ __forceinline__ void done() const {
    if (threadIdx.x == 0) per_block[blockIdx.x] = count;
  }
};

}  // namespace ch08
