//! @file sass_article_unroll.cu
//! @brief Test-only: stage 5's tree written the article's way, one `if (Block >= ...)` per level,
//! for the SASS check (ch07_reduction_opt/tests/sass_claims.json, test cpu.sass_claims).
//!
//! The article unrolls the tree by hand: for each stride a block-size test that the compiler
//! decides, because Block is a template parameter. Stage 5 (reduce_kernel_5_unrolled.cuh) writes
//! the same tree as a loop over strides with `#pragma unroll`. The claim checked is that nvcc makes
//! the same instructions of both: this file instantiates both kernels for float, block 256, the
//! partials finish, and the check compares their opcode sequences one by one. Nothing runs them.
#include <cuda_runtime.h>

#include <cstddef>

#include "kernel_support.cuh"
#include "reduce_finish.cuh"
#include "reduce_kernel_5_unrolled.cuh"

namespace ch07_sass {

//! One level of the hand-unrolled tree: threads tid < S fold sdata[tid + S] into their partial and
//! store it, then the block synchronises; nothing when the block has no such level (Block < 2 S).
#define CH07_SASS_LEVEL(S)                                        \
  if (Block >= 2 * (S)) {                                         \
    if (tid < (S)) sdata[tid] = sum = sum + sdata[tid + (S)];     \
    __syncthreads();                                              \
  }

//! Stage 5 with the tree unrolled by hand, as the article writes it: load one element per thread
//! into a register and shared memory, then one block-size test per level, from stride 512 down to 1.
//! @tparam T element type
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam F ch07::Finish::atomic or ch07::Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] out atomic: the one result; partials: gridDim.x elements, one per block
template <class T, int Block, ch07::Finish F>
__global__ void article_unrolled(const T* __restrict__ data, std::size_t n, T* out) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  T sum = (i < n) ? data[i] : T(0);
  sdata[tid] = sum;
  __syncthreads();
  CH07_SASS_LEVEL(512)
  CH07_SASS_LEVEL(256)
  CH07_SASS_LEVEL(128)
  CH07_SASS_LEVEL(64)
  CH07_SASS_LEVEL(32)
  CH07_SASS_LEVEL(16)
  CH07_SASS_LEVEL(8)
  CH07_SASS_LEVEL(4)
  CH07_SASS_LEVEL(2)
  CH07_SASS_LEVEL(1)
  if (tid == 0) {
    if constexpr (F == ch07::Finish::atomic) atomicAdd(out, sum);
    else out[blockIdx.x] = sum;
  }
}
#undef CH07_SASS_LEVEL

}  // namespace ch07_sass

// The instantiations the claims compare: the hand-written form and stage 5 itself.
template __global__ void ch07_sass::article_unrolled<float, 256, ch07::Finish::partials>(const float*, std::size_t,
                                                                                        float*);
template __global__ void ch07::reduce_kernel_5<float, 256, ch07::Finish::partials>(const float*, std::size_t, float*);
