//! @file 02_last_warp_syncwarp.cuh
//! @brief Exercise ch07/02: the legacy last-warp unroll made correct on Volta and later (exercise: fill in the TODO(student) parts).
//!
//! Goal: the article's last-warp unroll (stage 6's legacy form) adds sdata[tid + 16], + 8, ... + 1
//! through a volatile pointer with no synchronisation, trusting the 32 lanes of a warp to run in
//! lockstep. Since Volta they need not (independent thread scheduling): a lane may read its
//! partner's slot before the partner wrote it. Write the tail so that it is correct under the CUDA
//! memory model: the partial stays in a register, and __syncwarp() separates each write from the
//! partner's read and each read from the next write.
//! Builds on: stage 6 (ch07_reduction_opt/reduce_kernel_6_last_warp_unrolled.cuh).
//! Build and check: scripts/exercise.sh ch07/02
//!   (or: cmake --build build --target exercise_ch07_02 && ctest --test-dir build -L exercise -R ch07_02)
//! A right answer: the check passes for every size, block 64..1024 and float / double / int. A
//! right sum is not the whole answer here (the racy form usually sums right too): the program is
//! only correct if compute-sanitizer --tool racecheck reports no hazards on it, which
//! scripts/maintainers/run_sanitizers.py checks for stage 6.
//!
//! Stuck? The solved file, with why it works: solutions/ch07/02_last_warp_syncwarp.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"
#include "block_tree.cuh"

namespace ex07 {

//! Warp-synchronous tail, correct on every architecture. All 32 lanes of warp 0 must call it.
//! @param[in,out] sdata shared partials; sdata[0..63] valid and published by a __syncthreads()
//! @param[in] tid lane (< 32)
//! @param[in] sum this lane's partial (equal to sdata[tid])
//! @return in lane 0, the block's sum
template <class T>
__device__ __forceinline__ T warp_tail_syncwarp(T* sdata, unsigned tid, T sum) {
  sum += sdata[tid + 32];
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    // TODO(student): one level of the tail, correct under the CUDA memory model: publish,
    // synchronise the warp, add the partner's partial, synchronise again. Hints:
    // exercises/README.md, exercise ch07/02. As written the loop does nothing: lane 0 returns
    // sdata[0] + sdata[32] only.
  }
  return sum;
}

//! Stage 6's kernel: one element per thread, the tree down to stride 64, then warp 0 finishes.
template <class T, int Block>
__global__ void ex02_kernel(const T* __restrict__ data, std::size_t n, T* result) {
  static_assert(Block >= 64, "the warp tail reads sdata[tid + 32]");
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  T sum = (i < n) ? data[i] : T(0);
  sdata[tid] = sum;
  __syncthreads();
  sum = ch07::unrolled_tree<T, Block, 64>(sdata, tid, sum);
  if (tid < 32) {
    sum = warp_tail_syncwarp(sdata, tid, sum);
    if (tid == 0) atomicAdd(result, sum);
  }
}

//! Zeroes the result, then ceil(n / block) blocks of ex02_kernel (block >= 64).
inline void launch_ex02(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      if constexpr (B >= 64)  // block 32 is refused before launch (min_block)
        ex02_kernel<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
    });
  });
}

//! The exercise as the harness runs it.
inline harness::Stage<harness::Reduce> ex02_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "ch07_02_last_warp_syncwarp";
  s.label = "exercise: last warp with __syncwarp";
  s.change = "strides 32..1 run in warp 0 without __syncthreads; __syncwarp orders each step";
  s.source = "exercises/ch07/02_last_warp_syncwarp.cuh";
  s.min_block = 64;
  s.depth = [](const harness::ReduceArgs& a) {
    return harness::reduce_depth(1, a.block, static_cast<double>(harness::blocks_for(a.n, a.block)));
  };
  s.launch = launch_ex02;
  return s;
}

}  // namespace ex07
