//! @file reduce_kernel_3_strided_index.cuh
//! @brief Stage 3 (article section 6): map consecutive threads to the active slots (strided index).
//!
//! Changed against stage 2: instead of asking "is my index a multiple of 2s?", thread tid works on
//! slot idx = 2 * s * tid. The active threads are now tids 0, 1, 2, ... (contiguous), so whole warps
//! are either all active or all idle until fewer than 32 threads remain: no divergence, and no %.
//! What the profiler shows: the article promises less branch divergence. With nvcc 13 on sm_90
//! there is none to remove: the modulo test of stage 2 is predicated, not branched (0 divergent
//! branch targets in both stages). What does change: whole warps now drop out of each level, so
//! fewer shared-memory instructions are issued, while the kernel gets longer: 92 SASS instructions
//! against stage 2's 72, 16 LDS against 8 (both operands of each level come from shared memory,
//! where stage 2 kept its own in a register), 14 registers against 10 (test cpu.sass_claims_ch07,
//! sm_90, float, block 256, partials finish). And
//! the index 2 * s * tid puts several lanes of a warp in one bank (32 banks of 4 bytes: word w is in
//! bank w % 32). At s = 1 lanes 0 and 16 read words 0 and 32, both bank 0: 2-way; at s = 2 lanes 0,
//! 8, 16 and 24 read words 0, 32, 64, 96: 4-way; at s = 4, 8-way. The conflict counter jumps (the
//! chapter README has the counters).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_finish.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Interleaved tree where thread tid adds sdata[idx + s] into sdata[idx], idx = 2 * s * tid.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @tparam F Finish::atomic (the article) or Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] out atomic: one element, zeroed before the launch, receives the sum;
//!                partials: gridDim.x elements, block b writes its sum to out[b]
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 6.
template <class T, int Block, Finish F>
__global__ void reduce_kernel_3(const T* __restrict__ data, std::size_t n, T* out) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  sdata[tid] = (i < n) ? data[i] : T(0);
  __syncthreads();

  for (unsigned s = 1; s < Block; s *= 2) {
    const unsigned idx = 2 * s * tid;
    if (idx < Block) sdata[idx] += sdata[idx + s];
    __syncthreads();
  }
  if (tid == 0) {
    if constexpr (F == Finish::atomic) atomicAdd(out, sdata[0]);  // the article: into the one result
    else out[blockIdx.x] = sdata[0];                               // its own slot, for the second pass
  }
}

// ---- How stage 3 is launched -----------------------------------------------------------------

//! Launches stage 3 with finish F on a.stream: atomic: zeroes the one-element result (every
//! block adds into it), then ceil(n / Block) blocks of Block threads, one element per thread.
//! partials: the same blocks write their sums to the workspace, then reduce_partials folds them.
//! @tparam F Finish::atomic or Finish::partials
//! @param[in] a n > 0, type float/double/int, block a power of two the stage accepts
//!            (partials: a workspace of one element per block)
template <Finish F>
void launch_reduce_kernel_3(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* out = block_sums_target<F, T>(a);  // atomic: the zeroed result; partials: the workspace
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_3<T, B, F><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, out);
    });
    finish_block_sums<F, T>(a, grid);  // partials: the second pass; atomic: nothing
  });
}

//! Stage 3 with finish F as the harness runs it: the program `reduce_kernel_3` (`--finish`), the
//! ladder and the tests.
template <Finish F>
harness::Stage<harness::Reduce> reduce_kernel_3_stage() {
  return finish_stage<F>(
      {"reduce_kernel_3", "strided index",
       "thread tid works on slot 2*s*tid: active threads are contiguous, no divergent warps (but bank conflicts)",
       "article section 6"},
      one_element_per_thread_grid, one_element_per_thread, launch_reduce_kernel_3<F>);
}

}  // namespace ch07
