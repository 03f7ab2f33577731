//! @file reduce_kernel_11_single_pass.cuh
//! @brief Stage 11 (past the article): one launch, deterministic: the last block to finish reduces
//! the block partials.
//!
//! Changed against stage 10: blocks no longer atomicAdd their sums into the result (float atomics
//! make the order, and so the rounding, change from run to run). Each block writes its partial to
//! partials[blockIdx.x] and takes a ticket from a ticket counter with one read-modify-write,
//! `cuda::atomic_ref<unsigned, cuda::thread_scope_device>::fetch_add(1, memory_order_acq_rel)`. The
//! block that draws the last ticket knows every other partial is visible to it; it sums
//! partials[0..gridDim.x) in a fixed order and writes the result. One kernel, no
//! second pass, the same bits on every run (the grid is fixed for a given device, type, block size
//! and n). The counter lives in the workspace, not in a __device__ global, and the launch zeroes it
//! first: two launches in flight on different workspaces, or a launch after an aborted one, cannot
//! see each other's tickets.
//! The memory model (PTX ISA, "Memory Consistency Model"; the same release/acquire as scan stage 4's
//! tile status, ch08_reduction_scan_histogram/scan/tile_status.cuh). The partials are plain (weak)
//! stores and loads in different blocks; they are race-free only if each block's store happens
//! before the last block's loads, and that order has to come from the ticket:
//! - release: each block's fetch_add is a release at device scope, so its partial, stored before it
//!   by the same thread, is ordered before the ticket it publishes;
//! - acquire: the last block's fetch_add is an acquire too; it reads the value that every earlier
//!   fetch_add left (the read-modify-writes on one counter form one release sequence), so it
//!   synchronises with every block's release, and everything after it (through __syncthreads, for
//!   the block's other threads) sees every partial.
//! The older form (CUDA samples' threadFenceReduction): `__threadfence(); atomicAdd(...)` in every
//! block, then `__ldcg` loads in the last block. The fence before a relaxed atomicAdd is a release
//! pattern, so the writer's half is right; but nothing in the last block is an acquire (a relaxed
//! atomicAdd with no fence after it), so its loads are not ordered after the other blocks' stores:
//! a data race under the PTX memory model, which today's GPUs happen to run correctly. `__ldcg`
//! (read through L2) is a cache hint, not an ordering, and cannot make up for the missing acquire.
//! Source: the threadfence reduction of the CUDA programming guide (memory fence functions) and the
//! CUDA samples' threadFenceReduction, with the ticket as an acquire-release read-modify-write.
//! What the profiler shows: one kernel and no float atomics; one integer atomic and one divergent
//! branch per block (thread 0 takes the ticket), 2 barriers per block instead of 1, and a kernel a
//! little slower than stage 10's; the chapter's profiling page has the numbers. What the extra time
//! is spent on (the last block's fold of the partials, which starts after every other block has
//! taken its ticket?) was not measured apart: stages_9_11.md says how to measure it.
//! Uses stage 9's accumulation and block sum (thread_sum_vectorized.cuh, block_sum_one_barrier.cuh)
//! and stage 10's grid rule (reduce_grids.cuh); the finish (partial, ticket, last block's sum) is in
//! last_block_finish.cuh, which stage 12 shares.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "block_sum_one_barrier.cuh"
#include "last_block_finish.cuh"
#include "reduce_grids.cuh"
#include "reduce_problem.hpp"
#include "thread_sum_vectorized.cuh"

namespace ch07 {

//! Stage 11: stage 10's accumulation and block sum, then the last-block finish.
//! @tparam T float, double or int
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] data n elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x elements of scratch, one per block (their old contents are unused)
//! @param[in,out] retired the ticket counter, zeroed before the launch (in the workspace, so two
//!                launches on different workspaces never share it)
//! @param[out] result one element: the sum (written, not accumulated: no zeroing needed)
//! Launch: at most 2^31 - 1 blocks.
template <class T, int Block>
__global__ void __launch_bounds__(Block)
    reduce_kernel_11(const T* __restrict__ data, std::size_t n, T* partials, unsigned* retired, T* result) {
  const T sum = block_sum_one_barrier<T, Block>(thread_sum_vectorized(data, n));
  finish_in_last_block<T, Block, TicketReset::by_launch>(sum, partials, retired, result);
}

// ---- How stage 11 is launched ----------------------------------------------------------------

//! Stage 11's grid: one full wave of its own kernel (see occupancy_grid_for).
inline std::size_t reduce_kernel_11_grid(const harness::ReduceArgs& a) {
  return occupancy_grid_for(a, [](auto t, auto block) {
    return reinterpret_cast<const void*>(&reduce_kernel_11<decltype(t), decltype(block)::value>);
  });
}

//! Launches stage 11 on a.stream: zeroes the ticket counter at the start of the workspace, then one
//! launch of reduce_kernel_11 on reduce_kernel_11_grid(a) blocks, its partials after the counter.
//! Nothing else: the last block writes the result, so the result needs no zeroing.
//! @param[in] a n > 0, type float/double/int, block a power of two from 32 to 1024, grid 0 or any;
//!            workspace of kTicketBytes + grid x sizeof(T) bytes
inline void launch_reduce_kernel_11(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_kernel_11_grid(a);
  unsigned* retired = a.scratch<unsigned>();
  CUDA_CHECK(cudaMemsetAsync(retired, 0, sizeof(unsigned), a.stream));
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    T* partials = reinterpret_cast<T*>(a.scratch<unsigned char>() + kTicketBytes);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      reduce_kernel_11<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, retired, a.output<T>());
    });
  });
}

//! Stage 11 as the harness runs it: the program `reduce_kernel_11`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_kernel_11_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_kernel_11";
  s.label = "single pass, last block finishes";
  s.change = "blocks write partials; the last block to finish (an acquire-release ticket counter) sums them: one launch, no float atomics, deterministic";
  s.source = "CUDA programming guide, memory fence functions; CUDA samples threadFenceReduction";
  s.grid_stride = true;
  s.deterministic = true;
  s.grid_for = reduce_kernel_11_grid;
  s.workspace_bytes = [](const harness::ReduceArgs& a) { return last_block_workspace(a, reduce_kernel_11_grid(a)); };
  s.depth = [](const harness::ReduceArgs& a) { return last_block_depth(a, reduce_kernel_11_grid(a)); };
  s.launch = launch_reduce_kernel_11;
  return s;
}

}  // namespace ch07
