//! @file reduce_stage_7_one_launch.cuh
//! @brief Stage 7 (past the chapter's sections): one launch per reduction at every size, for sum,
//! max and min. Stage 5's loop and block reduction; the second pass replaced by the last block's
//! fold; a grid sized to n, so that at small n one block does it all.
//!
//! Below about 2^22 elements stages 4 and 5 take a few microseconds whatever n: the bytes do not
//! decide, the launches do. Each run enqueues two kernels (the first pass, then the one-block second
//! pass), and the second cannot start before the first has ended. CUB's DeviceReduce launches one
//! kernel when one block covers n and two above. Changed against stage 5:
//!   - no second pass. Each block stores its value and takes a ticket; the block that draws the last
//!     ticket folds the partials and writes the result (fold_in_last_block, last_block_fold.cuh),
//!     and takes the tickets back off the counter, so that no zeroing launch is needed either;
//!   - one block when it is enough, in a kernel of its own (reduce_stage_7_one_block, as CUB has a
//!     single-tile kernel): its value is the result, written directly, with no partial, no ticket and
//!     no finish code; when n is exactly its full tile (Block threads x four 16-byte vectors) and the
//!     input 16-byte aligned, each thread's four loads need no index test; without --block the block
//!     widens up to 1024 threads to keep one block while one trip of 1024 threads covers n, and is
//!     1024 again from 64 MiB of input (reduce_stage_7_block);
//!   - a grid sized to n: one block per Block x 64 bytes of input (one trip of stage 5's loop per
//!     thread: kVectorLoads 16-byte loads; two trips from 4 MiB of input on, which halves the blocks
//!     and the finish's partials and tickets), growing with n only up to one full wave of resident
//!     blocks. At small n every load of the run is in flight at once (a thread with less than a whole
//!     trip reads its vectors one at a time, in the loop's second part); at large n the grid is
//!     stage 5's.
//! Every n and any element-aligned address, as stage 5 (the same loop). The fold order is fixed by n,
//! the alignment, the block and the grid: the same bits on every run.
//! What the profiler should show against stage 5: one kernel per run (Nsight Systems; the ladder's
//! `launches` column counts a run's graph nodes), a grid of one block up to Block x 64 bytes of
//! input; at large n the same DRAM throughput. The timings beside CUB: README.md of this folder.
//! Source: this tutorial, chapter 7's stage 12 (reduce_kernel_12_small_inputs.cuh) brought to
//! chapter 8's operators; its self-resetting ticket (a fetch_sub, not the store of 0 of the CUDA
//! samples' threadFenceReduction: last_block_finish.cuh says why).
//! dispatch and two_pass_caps come from reduce_second_pass.cuh, which holds what every chapter-8
//! stage shares (the second-pass kernel among it, unused here).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "barrier_policy.cuh"
#include "block_folds.cuh"
#include "grid_stride.cuh"
#include "last_block_fold.cuh"
#include "reduce_ops.cuh"
#include "reduce_problem.hpp"
#include "reduce_second_pass.cuh"
#include "reduce_stage_5_vectorized.cuh"

namespace ch08 {

//! Stage 7 on more than one block: stage 5's fold and block reduction, then the last block folds
//! the partials (fold_in_last_block).
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] in n input elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x accumulators of scratch
//! @param[in,out] tickets the ticket counter: zero before the launch and after it
//! @param[out] out one accumulator: the result (written, not accumulated: no zeroing)
//! @param[in] op the operator
//! Launch: at most 2^31 - 1 blocks (one block works too, but launch_reduce_stage_7 gives one block
//! reduce_stage_7_one_block); two launches on one workspace must not run at once.
//! Registers: capped at a full SM's worth (harness::full_sm_blocks: 32 per thread where 2048 threads
//! fit), as stage 8. Without the cap nvcc gives the float sum at block 256 40 registers (six resident
//! blocks per SM instead of eight); with it the schedule of every instantiation changes, for better
//! or worse by type (docs/results/H100/loop_variants/README.md, "Registers").
template <class T, class Op, int Block>
__global__ void __launch_bounds__(Block, harness::full_sm_blocks(Block))
    reduce_stage_7(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* partials, unsigned* tickets,
                   accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  PlainBarrier sync;
  const Acc v = block_fold<Acc, Block>(grid_stride_fold_vec16(in, n, op), op, sync);
  fold_in_last_block<Acc, Block>(v, partials, tickets, out, op);
}

//! Elements in one block's full tile: Block threads x kVectorLoads 16-byte vectors.
template <class T, int Block>
inline constexpr std::size_t kFullTile = std::size_t{Block} * kVectorLoads * harness::kVecItems<T>;

//! One block's full tile with no index test: thread t folds vectors t, t + Block, t + 2 Block and
//! t + 3 Block of `in`, all four loads issued first, folded as grid_stride_fold_vec16 folds a thread's
//! one trip (the same bits).
//! @param[in] in kFullTile<T, Block> elements, 16-byte aligned (the caller checks both)
//! @param[in] op the operator
//! @return the thread's partial, of type accumulator_t<Op, T>
template <class T, class Op, int Block>
__device__ __forceinline__ accumulator_t<Op, T> full_tile_fold(const T* __restrict__ in, Op op) {
  using Acc = accumulator_t<Op, T>;
  using V = typename harness::Vec16<T>::type;
  const V* __restrict__ vin = reinterpret_cast<const V*>(in);
  V v[kVectorLoads];
#pragma unroll
  for (int u = 0; u < kVectorLoads; ++u) v[u] = __ldg(vin + threadIdx.x + u * Block);
  static_assert(kVectorLoads == 4, "the line below folds exactly four vectors");
  return op(op(fold_lanes<Acc>(v[0], op), fold_lanes<Acc>(v[1], op)),
            op(fold_lanes<Acc>(v[2], op), fold_lanes<Acc>(v[3], op)));
}

//! Stage 7 on one block: the block's value is the result, written directly, with no partial, no
//! ticket and no finish code. When n is exactly one full tile (kFullTile<T, Block>) and the input
//! 16-byte aligned, each thread loads its four vectors with no index test, head or tail
//! (full_tile_fold, as CUB's single-tile kernel treats a full tile); any other n takes stage 5's
//! loop. Either way the same fold order, so the same bits.
//! @param[in] in n input elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] out one accumulator: the result
//! @param[in] op the operator
//! Launch: one block of Block threads.
template <class T, class Op, int Block>
__global__ void __launch_bounds__(Block)
    reduce_stage_7_one_block(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  const bool full_tile = n == kFullTile<T, Block> && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const Acc t = full_tile ? full_tile_fold<T, Op, Block>(in, op) : grid_stride_fold_vec16(in, n, op);
  PlainBarrier sync;
  const Acc v = block_fold<Acc, Block>(t, op, sync);
  if (threadIdx.x == 0) *out = v;
}

// ---- How stage 7 is launched -----------------------------------------------------------------

//! Bytes of one trip of stage 5's loop: what a thread of stage 7 reads before the grid grows with n
//! below harness::kTwoTripBytes of input (twice that from there: harness::one_launch_bytes_per_thread).
inline constexpr std::size_t kStage7BytesPerThread = kVectorLoads * 16;

//! Stage 7's grid: the user's --grid if given, else one block per Block x 64 bytes of input (one trip
//! of the loop per thread; two trips, Block x 128 bytes, from harness::kTwoTripBytes of input on:
//! harness::one_launch_bytes_per_thread), at most one full wave of resident blocks (resident_grid_for).
inline std::size_t reduce_stage_7_grid(const harness::ReduceArgs& a) {
  return resident_grid_for(
      a,
      [](auto t, auto op, auto block) {
        return reinterpret_cast<const void*>(&reduce_stage_7<decltype(t), decltype(op), decltype(block)::value>);
      },
      harness::one_launch_bytes_per_thread(a, kStage7BytesPerThread));
}

//! Inputs of at least this many bytes (2^24 floats) take stage 7's blocks of 1024 threads.
inline constexpr std::size_t kStage7WideBlockBytes = std::size_t{1} << 26;

//! Stage 7's block when --block is not given. Below kStage7WideBlockBytes, harness::one_trip_block
//! with one trip of kStage7BytesPerThread: one block for the whole input while a block of up to 1024
//! threads covers it in one trip, else 256. One block has no partials and no ticket, and a block's
//! barrier costs far less than the last-block finish, so at n between 256 and 1024 trips' worth of
//! bytes one wide block beats several of 256. From kStage7WideBlockBytes on, 1024: the same threads
//! in a wave (two blocks per SM instead of eight), but each SM's threads read 16 KiB of each trip's
//! span in one piece instead of eight pieces of 4 KiB (the block sweep in
//! docs/results/H100/reduce_stage_7_blocks/ times both; the README of this folder, "Stage 7").
//! @return threads per block: 256, 512 or 1024
inline int reduce_stage_7_block(const harness::ReduceArgs& a, const harness::DeviceLimits&) {
  const std::size_t bytes = a.n * harness::dtype_size(a.type);
  if (bytes >= kStage7WideBlockBytes) return 1024;
  return harness::one_trip_block(bytes, kStage7BytesPerThread);
}

//! Stage 7's workspace on `grid` blocks: the ticket counter, then one partial per block.
inline std::size_t reduce_stage_7_workspace(const harness::ReduceArgs& a) {
  return ticket_workspace_bytes(a, reduce_stage_7_grid(a));
}

//! Launches stage 7 on a.stream: one launch of reduce_stage_7 on reduce_stage_7_grid(a) blocks, the
//! partials after the ticket counter; on a grid of one block, reduce_stage_7_one_block instead.
//! Nothing else is enqueued: the counter was left at zero by the previous launch (or by whoever
//! prepared the workspace), and the result needs no zeroing.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            the input aligned to sizeof(T); workspace of reduce_stage_7_workspace(a) bytes whose
//!            first kTicketBytes are zero
inline void launch_reduce_stage_7(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_7_grid(a);
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    if (grid == 1) {  // the whole input in one block: its value is the result
      reduce_stage_7_one_block<T, Op, B><<<1, B, 0, a.stream>>>(a.input<T>(), a.n, a.output<Acc>(), op);
      return;
    }
    unsigned* tickets = a.scratch<unsigned>();
    Acc* partials = ticket_partials<Acc>(a);
    reduce_stage_7<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, tickets, a.output<Acc>(), op);
  });
}

//! Summation depth of stage 7: stage 5's thread and block tree, then the last block's ceil(grid /
//! Block) partials per thread and its tree.
inline double reduce_stage_7_depth(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_7_grid(a);
  return harness::reduce_depth(reduce_stage_5_per_thread(a, grid), a.block, 0) + last_block_depth(a, grid);
}

//! Stage 7 as the harness runs it: the program `reduce_stage_7`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_7_stage() {
  harness::Stage<harness::Reduce> s = harness::stage_of_card<harness::Reduce>(
      {"reduce_stage_7", "one launch at every size",
       "no second pass: the last block to finish folds the partials and resets its ticket; one block in a kernel "
       "of its own (no ticket, no index test on a full tile) when one block covers n; a grid of one 64-byte trip "
       "per thread (two from 4 MiB), up to one wave",
       "chapter 8, past section 8.6: chapter 7's stage 12 with chapter 8's operators"});
  s.caps = two_pass_caps();
  s.deterministic = true;
  s.grid_stride = true;
  s.grid_for = reduce_stage_7_grid;
  s.block_for = reduce_stage_7_block;
  s.workspace_bytes = reduce_stage_7_workspace;
  s.workspace_zeroed_bytes = kTicketBytes;
  s.depth = reduce_stage_7_depth;
  s.launch = launch_reduce_stage_7;
  return s;
}

}  // namespace ch08
