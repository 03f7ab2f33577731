//! @file reduce_kernel_12_small_inputs.cuh
//! @brief Stage 12 (past the article): for small inputs, where the launches and not the bytes
//! decide: one launch per run and nothing else, and a grid sized so that each thread makes one trip
//! (two from 4 MiB of input on).
//!
//! Below about 2^20 elements a run of stages 9 to 11 takes a few microseconds whatever n: the bytes
//! do not decide it. small_inputs.md sets those times (the small-input ladder) beside what one
//! launch costs (the program launch_cost), with the GPU each was measured on. Stage 11
//! enqueues two operations per run: a memset of its ticket counter, then the kernel;
//! CUB's DeviceReduce launches two kernels above a few thousand items. Changed against stage 11:
//!   - no zeroing launch. The block that draws the last ticket takes the grid's tickets back off the counter
//!     (finish_in_last_block with TicketReset::by_last_block, last_block_finish.cuh), so the next
//!     launch on the same workspace finds it zero. The workspace's ticket must be zero before the
//!     first launch: the harness zeroes it once when it prepares the workspace
//!     (Stage::workspace_zeroed_bytes), never between runs;
//!   - one block when it is enough, in a kernel of its own (reduce_kernel_12_one_block, as CUB has a
//!     single-tile kernel). With one block there is nothing to combine: the block's sum is the
//!     result, written directly: no partial, no ticket, no finish code; when n is exactly the block's
//!     full tile (Block threads x four 16-byte vectors) and the data 16-byte aligned, the loads need
//!     no index test;
//!   - a grid sized for latency: each thread reads one trip of kUnroll 16-byte loads (64 bytes: 16
//!     floats) and the grid grows with n only up to one full wave of resident blocks (stage 11's
//!     rule, with that smaller share per thread), so at small n every load of the run is in flight at
//!     once and no thread waits for a second trip; from 4 MiB of input each thread reads two trips
//!     (harness::one_launch_bytes_per_thread), half the blocks and half the partials to fold;
//!   - the first trip first: each thread issues its first trip's loads before the scalar head and
//!     the loop's bookkeeping (thread_sum_vectorized<kUnroll, true>), since at small n that trip is
//!     all it reads;
//!   - a block chosen by n (reduce_kernel_12_block): one block of up to 1024 threads while one trip
//!     per thread covers the input (up to 16 Ki floats), else 256 threads, whose blocks spread the
//!     input over four times as many SMs as blocks of 1024 would.
//! Every n is handled as in stages 9 to 11 (any n, any element-aligned address; grid-stride, so a
//! full wave still covers n past 2^31).
//! What the profiler should show: one kernel per run and no memset (Nsight Systems);
//! at n up to Block x
//! 16 floats, a grid of one block and no atomic; above, at most one wave of blocks. Launches per
//! run, beside CUB's: `reduce_ladder --small` (its `launches` column counts the graph nodes of one
//! run).
//! Source: this tutorial; the self-resetting counter as in the CUDA samples' threadFenceReduction
//! (whose last block resets its global retirement count to 0 for the next launch).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda_check.hpp"
#include "block_sum_one_barrier.cuh"
#include "last_block_finish.cuh"
#include "reduce_grids.cuh"
#include "reduce_problem.hpp"
#include "thread_sum_vectorized.cuh"
#include "vector_loads.cuh"

namespace ch07 {

//! Stage 12 on more than one block: stage 11's accumulation (the first trip first) and block sum,
//! then the last-block finish that leaves the ticket counter zero for the next launch.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x elements of scratch, one per block
//! @param[in,out] retired the ticket counter: zero before the launch, and zero again after it (the
//!                last block resets it); in the workspace, so launches on different workspaces
//!                never share it
//! @param[out] result one element: the sum (written, not accumulated: no zeroing needed)
//! Launch: at most 2^31 - 1 blocks (one works too, but launch_reduce_kernel_12 gives one block
//! reduce_kernel_12_one_block); two launches on one workspace must not run at once.
template <class T, int Block>
__global__ void __launch_bounds__(Block)
    reduce_kernel_12(const T* __restrict__ data, std::size_t n, T* partials, unsigned* retired, T* result) {
  const T sum = block_sum_one_barrier<T, Block>(thread_sum_vectorized<kUnroll, true>(data, n));
  finish_in_last_block<T, Block, TicketReset::by_last_block>(sum, partials, retired, result);
}

//! Elements in one block's full tile: Block threads x kUnroll 16-byte vectors.
template <class T, int Block>
inline constexpr std::size_t kFullTile = std::size_t{Block} * kUnroll * harness::kVecItems<T>;

//! Stage 12 on one block: the block's sum is the result, written directly, with no partial, no
//! ticket and no finish code. When n is exactly one full tile (kFullTile<T, Block>) and the data
//! 16-byte aligned, each thread loads its kUnroll vectors t, t + Block, ... with no index test,
//! head or tail (as CUB's single-tile kernel treats a full tile) and adds them as
//! thread_sum_vectorized adds one trip (the same bits); any other n takes thread_sum_vectorized.
//! The block sum is block_sum_one_barrier's, whose warp sums are warp_sum: for int the block sum's
//! two warp sums are two REDUX.SUM instructions and no shuffle (reduce_kernel_12_one_block<int, 256>).
//! For float it keeps the shuffles: 15 SHFL, five per warp sum and five in the copy of the second
//! that nvcc keeps for a diverged warp (tests/sass_claims.json checks both counts).
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] result one element: the sum
//! Launch: one block of Block threads.
template <class T, int Block>
__global__ void __launch_bounds__(Block) reduce_kernel_12_one_block(const T* __restrict__ data, std::size_t n, T* result) {
  using V = typename Vec16<T>::type;
  T sum;
  if (n == kFullTile<T, Block> && reinterpret_cast<std::uintptr_t>(data) % sizeof(V) == 0) {
    const V* __restrict__ vdata = reinterpret_cast<const V*>(data);
    V v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = vdata[threadIdx.x + u * Block];  // no index test
    sum = Vec16<T>::sum(v[0]);
#pragma unroll
    for (int u = 1; u < kUnroll; ++u) sum += Vec16<T>::sum(v[u]);
  } else {
    sum = thread_sum_vectorized<kUnroll, true>(data, n);
  }
  sum = block_sum_one_barrier<T, Block>(sum);
  if (threadIdx.x == 0) *result = sum;
}

// ---- How stage 12 is launched ----------------------------------------------------------------

//! Bytes of one trip of thread_sum_vectorized (kUnroll 16-byte loads): what a thread of stage 12
//! reads before the grid grows with n below harness::kTwoTripBytes of input (twice that from there).
inline constexpr std::size_t kStage12BytesPerThread = kUnroll * 16;

//! Stage 12's grid: the user's --grid if given, else one block per Block x kStage12BytesPerThread
//! bytes of input (twice that from harness::kTwoTripBytes on: harness::one_launch_bytes_per_thread),
//! at most one full wave of resident blocks of its kernel (occupancy_grid_for).
inline std::size_t reduce_kernel_12_grid(const harness::ReduceArgs& a) {
  return occupancy_grid_for(
      a,
      [](auto t, auto block) {
        return reinterpret_cast<const void*>(&reduce_kernel_12<decltype(t), decltype(block)::value>);
      },
      harness::one_launch_bytes_per_thread(a, kStage12BytesPerThread));
}

//! Stage 12's block when --block is not given: harness::one_trip_block with one trip of
//! kStage12BytesPerThread (chapter 8's stage 7 follows the same rule). One block of up to 1024 threads
//! while it covers n in one trip, else 256. From 2^16 floats on, blocks of 1024 would put the input on a
//! quarter of the SMs that blocks of 256 use; the block sweep in docs/results/H100/block_sweep/ times
//! both.
//! @return threads per block: 256, 512 or 1024
inline int reduce_kernel_12_block(const harness::ReduceArgs& a, const harness::DeviceLimits&) {
  return harness::one_trip_block(a.n * harness::dtype_size(a.type), kStage12BytesPerThread);
}

//! Launches stage 12 on a.stream: one launch of reduce_kernel_12 on reduce_kernel_12_grid(a) blocks,
//! its partials after the ticket counter; on a grid of one block, reduce_kernel_12_one_block instead.
//! Nothing else is enqueued: the counter is left zero by the previous launch (or by whoever prepared
//! the workspace), and the result needs no zeroing.
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or any;
//!            workspace of last_block_workspace(a, grid) bytes whose first kTicketBytes are zero
inline void launch_reduce_kernel_12(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_kernel_12_grid(a);
  unsigned* retired = a.scratch<unsigned>();
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* partials = reinterpret_cast<T*>(a.scratch<unsigned char>() + kTicketBytes);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      if (grid == 1)  // the whole input in one block: its sum is the result
        reduce_kernel_12_one_block<T, B><<<1, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>());
      else
        reduce_kernel_12<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, retired, a.output<T>());
    });
  });
}

//! Stage 12 as the harness runs it: the program `reduce_kernel_12`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_12_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_kernel_12";
  s.label = "one launch for small inputs";
  s.change = "no zeroing launch (the last block resets the ticket), one block in a kernel of its own (no ticket, no "
             "index test on a full tile) when one block covers n, "
             "a grid of one 64-byte trip per thread (two from 4 MiB) up to one wave, the first trip issued first; one "
             "block of up to 1024 threads while it covers n, else 256";
  s.source = "this tutorial (past the article); CUDA samples threadFenceReduction (self-resetting retirement count)";
  s.grid_stride = true;
  s.deterministic = true;
  s.grid_for = reduce_kernel_12_grid;
  s.block_for = reduce_kernel_12_block;
  s.workspace_bytes = [](const harness::ReduceArgs& a) { return last_block_workspace(a, reduce_kernel_12_grid(a)); };
  s.workspace_zeroed_bytes = kTicketBytes;
  s.depth = [](const harness::ReduceArgs& a) { return last_block_depth(a, reduce_kernel_12_grid(a)); };
  s.launch = launch_reduce_kernel_12;
  return s;
}

}  // namespace ch07
