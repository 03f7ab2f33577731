//! @file reduce_kernel_6_last_warp_unrolled.cuh
//! @brief Stage 6 (article section 9): once 32 or fewer threads are active, finish inside warp 0
//! without __syncthreads(). Two forms: the legacy `volatile` one and the one correct on Volta+.
//!
//! Changed against stage 5: the last five levels (strides 16..1) stop calling __syncthreads(),
//! which waits for the whole block although only warp 0 still works.
//!
//! The legacy form (`warp_reduce_volatile`, as in the article and Harris's slides) relies on the 32
//! lanes of a warp executing in lockstep, and on `volatile` to force every read and write through
//! shared memory. Since Volta, independent thread scheduling means lanes of a warp are not
//! guaranteed to run in lockstep: a lane may read sdata[tid + 16] before the lane that owns it has
//! written its new value. The CUDA programming guide classifies this as a data race; it usually
//! gives the right answer on today's hardware, which is what makes it dangerous.
//! compute-sanitizer --tool racecheck reports these hazards for the legacy form.
//!
//! The correct form (`warp_reduce_syncwarp`) keeps the partial in a register and separates each
//! write from the partner's read, and each read from the next write, with __syncwarp().
//! What the profiler shows: barriers per block fall from log2(Block) + 1 to log2(Block) - 5 (9 -> 3
//! at block 256: the strides 32 and below no longer synchronise the block).
//! Uses stage 5's unrolled_tree (block_tree.cuh) for the levels down to stride 64.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "block_tree.cuh"
#include "reduce_finish.cuh"
#include "reduce_problem.hpp"

namespace ch07 {

//! Legacy warp-synchronous tail (pre-Volta idiom): lanes of warp 0 add through a volatile pointer
//! with no synchronisation. A data race on Volta and later; kept to show the hazard.
//! @tparam T element type
//! @tparam Block threads per block (>= 64, so that sdata[tid + 32] exists)
//! @param[in,out] sdata shared partials; sdata[0..63] valid and published by a __syncthreads()
//! @param[in] tid lane (< 32)
template <class T, int Block>
__device__ __forceinline__ void warp_reduce_volatile(volatile T* sdata, unsigned tid) {
  static_assert(Block >= 64, "the legacy warp tail reads sdata[tid + 32]");
  sdata[tid] = sdata[tid] + sdata[tid + 32];
  sdata[tid] = sdata[tid] + sdata[tid + 16];
  sdata[tid] = sdata[tid] + sdata[tid + 8];
  sdata[tid] = sdata[tid] + sdata[tid + 4];
  sdata[tid] = sdata[tid] + sdata[tid + 2];
  sdata[tid] = sdata[tid] + sdata[tid + 1];
}

//! Warp-synchronous tail that is correct under independent thread scheduling: each level writes
//! the lane's partial, __syncwarp(), reads the partner's, __syncwarp().
//! @tparam T element type
//! @tparam Block threads per block (>= 64)
//! @param[in,out] sdata shared partials; sdata[0..63] valid and published by a __syncthreads()
//! @param[in] tid lane (< 32); all 32 lanes of warp 0 must call it
//! @param[in] sum this lane's partial (equal to sdata[tid])
//! @return in lane 0, the block's sum
template <class T, int Block>
__device__ __forceinline__ T warp_reduce_syncwarp(T* sdata, unsigned tid, T sum) {
  static_assert(Block >= 64, "the warp tail reads sdata[tid + 32]");
  sum += sdata[tid + 32];
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    sdata[tid] = sum;
    __syncwarp();
    sum += sdata[tid + offset];
    __syncwarp();
  }
  return sum;
}

//! Which warp tail stage 6 uses.
enum class LastWarp {
  legacy_volatile,  //!< the article's form: racy since Volta
  syncwarp          //!< correct on every architecture
};

//! Stage 6: unrolled tree down to stride 64, then warp 0 finishes without block barriers.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 64..1024, equal to blockDim.x
//! @tparam Tail which warp tail (see LastWarp)
//! @tparam F Finish::atomic (the article) or Finish::partials
//! @param[in] data n elements
//! @param[in] n number of elements
//! @param[in,out] out atomic: one element, zeroed before the launch, receives the sum;
//!                partials: gridDim.x elements, block b writes its sum to out[b]
//!
//! Launch: ceil(n / Block) blocks of Block threads. Source: article section 9.
template <class T, int Block, LastWarp Tail, Finish F>
__global__ void reduce_kernel_6(const T* __restrict__ data, std::size_t n, T* out) {
  __shared__ T sdata[Block];
  const unsigned tid = threadIdx.x;
  const std::size_t i = harness::global_thread_id();
  T sum = (i < n) ? data[i] : T(0);
  sdata[tid] = sum;
  __syncthreads();
  sum = unrolled_tree<T, Block, 64>(sdata, tid, sum);
  if (tid < 32) {
    if constexpr (Tail == LastWarp::legacy_volatile) {
      warp_reduce_volatile<T, Block>(sdata, tid);
      if (tid == 0) sum = sdata[0];  // the block's sum, as the article reads it for its atomicAdd
    } else {
      sum = warp_reduce_syncwarp<T, Block>(sdata, tid, sum);
    }
    if (tid == 0) {
      if constexpr (F == Finish::atomic) atomicAdd(out, sum);  // the article: into the one result
      else out[blockIdx.x] = sum;                               // its own slot, for the second pass
    }
  }
}

// ---- How stage 6 is launched -----------------------------------------------------------------

//! Launches stage 6 with warp tail `Tail` and finish F on a.stream: atomic: zeroes the one-element
//! result (every block adds into it), then ceil(n / Block) blocks of Block threads (Block >= 64:
//! the tail reads sdata[tid + 32]); partials: the same blocks write their sums to the workspace,
//! then reduce_partials folds them.
//! @tparam Tail LastWarp::syncwarp or LastWarp::legacy_volatile
//! @tparam F Finish::atomic or Finish::partials
//! @param[in] a n > 0, type float/double/int, block a power of two from 64 to 1024
//!            (partials: a workspace of one element per block)
template <LastWarp Tail, Finish F>
void launch_reduce_kernel_6(const harness::ReduceArgs& a) {
  const std::size_t grid = harness::blocks_for(a.n, a.block);
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* out = block_sums_target<F, T>(a);  // atomic: the zeroed result; partials: the workspace
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      if constexpr (B >= 64)  // block 32 is refused before launch (min_block)
        reduce_kernel_6<T, B, Tail, F><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, out);
    });
    finish_block_sums<F, T>(a, grid);  // partials: the second pass; atomic: nothing
  });
}

//! Stage 6 as the harness runs it, with warp tail `Tail` and finish F.
//! @tparam Tail LastWarp::syncwarp (the program's default) or LastWarp::legacy_volatile
//! @tparam F Finish::atomic (the program's default) or Finish::partials
template <LastWarp Tail, Finish F>
harness::Stage<harness::Reduce> reduce_kernel_6_stage() {
  const harness::StageCard card =
      Tail == LastWarp::syncwarp
          ? harness::StageCard{"reduce_kernel_6", "last warp unrolled (__syncwarp)",
                               "strides 16..1 run in warp 0 without __syncthreads; __syncwarp orders each step "
                               "(correct on Volta+)",
                               "article section 9"}
          : harness::StageCard{"reduce_kernel_6_volatile", "last warp unrolled (legacy volatile)",
                               "strides 16..1 run in warp 0 through a volatile pointer with no synchronisation (a "
                               "race since Volta)",
                               "article section 9"};
  harness::Stage<harness::Reduce> s =
      finish_stage<F>(card, one_element_per_thread_grid, one_element_per_thread, launch_reduce_kernel_6<Tail, F>);
  s.min_block = 64;  // the tail reads sdata[tid + 32]
  return s;
}

}  // namespace ch07
