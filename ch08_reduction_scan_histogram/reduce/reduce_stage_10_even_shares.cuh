//! @file reduce_stage_10_even_shares.cuh
//! @brief Stage 10 (past the chapter's sections): stage 7 with CUB's schedule for large inputs. The
//! input is cut into tiles of Block x kVectorLoads 16-byte vectors; each block folds one contiguous
//! run of whole tiles (an even share), and the grid holds several waves of resident blocks instead
//! of one.
//!
//! The stage asks whether CUB's schedule is what a large reduction needs to keep up with CUB. Stage 7
//! runs one wave of blocks, each thread striding over the whole
//! input in grid-sized steps; CUB splits the input into tiles, gives each block a contiguous run of
//! them, and launches up to five waves' worth of blocks (its "subscription factor"), so that blocks
//! start and end at different times across the run. Changed against stage 7:
//!   - the thread's loop: tile by tile through the block's own share, kVectorLoads vectors Block apart
//!     per tile (each warp reads 512 contiguous bytes per load, the block Block x 64 bytes per tile:
//!     16 KiB at block 256), only the last tile of the input guarded (even_share_fold);
//!   - the grid: one block per tile, at most kStage10Waves waves of resident blocks
//!     (reduce_stage_10_grid);
//!   - the block: 256 without --block (CUB's for these reductions), where stage 7 takes 1024 from
//!     64 MiB of input on;
//!   - the finish, the one-block case and the ticket are stage 7's (fold_in_last_block); stage 7's
//!     32-register cap is not: it makes eight blocks of 256 fit an SM in stage 7's one wave, and five
//!     waves do not need it (README.md of this folder, "Stage 10", times stage 10 with it and without).
//! Every n and any element-aligned address: the scalar head and tail as in stage 5. The fold order is
//! fixed by n, the alignment, the block and the grid: the same bits on every run.
//! What to compare in the profiler against stage 7 at 2^28 floats: the bytes read, the blocks, the
//! DRAM throughput. The experiment behind the stage, what it measures against stage 7 and CUB, and
//! why the size rule does not name it: README.md of this folder, "Stage 10".
//! Source: CUB's DeviceReduce (GridEvenShare and the subscription factor of its dispatch, CCCL
//! `cub/grid/grid_even_share.cuh`), written here in the tutorial's terms; stage 7 for the rest.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "barrier_policy.cuh"
#include "block_folds.cuh"
#include "device_info.hpp"
#include "kernel_support.cuh"
#include "last_block_fold.cuh"
#include "reduce_ops.cuh"
#include "reduce_problem.hpp"
#include "reduce_second_pass.cuh"
#include "reduce_stage_5_vectorized.cuh"
#include "reduce_stage_7_one_launch.cuh"
#include "vec16.cuh"

namespace ch08 {

//! Waves of resident blocks stage 10's grid may hold: CUB's subscription factor for DeviceReduce.
inline constexpr std::size_t kStage10Waves = 5;

//! This thread's fold of its block's even share: the tiles [tiles x b / G, tiles x (b + 1) / G) of
//! block b in a grid of G, a tile being Block x kVectorLoads 16-byte vectors, of which thread t folds
//! vectors t, t + Block, t + 2 Block and t + 3 Block, the four loads issued before any is folded,
//! each into its own accumulator. Only the input's last tile can be partial, so only it tests each
//! vector's index. Then the scalar head and tail (fewer than one vector each), folded by the first
//! threads of the grid, as in stage 5.
//! @tparam Block threads per block, equal to blockDim.x
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @param[in] in n input elements, aligned to sizeof(T), not written while the kernel runs
//! @param[in] n number of elements (any value)
//! @param[in] op the operator
//! @return the thread's partial, of type accumulator_t<Op, T>
//! Source: CUB's GridEvenShare (cub/grid/grid_even_share.cuh) with stage 5's loads.
template <int Block, class T, class Op>
__device__ __forceinline__ accumulator_t<Op, T> even_share_fold(const T* __restrict__ in, std::size_t n, Op op) {
  using Acc = accumulator_t<Op, T>;
  using V = typename harness::Vec16<T>::type;
  constexpr std::size_t kTile = static_cast<std::size_t>(Block) * kVectorLoads;  // vectors per tile

  const harness::Vec16Split<T> split = harness::vec16_split(in, n);
  const std::size_t nvec = split.count;
  const V* __restrict__ vin = split.vectors;
  const std::size_t tiles = (nvec + kTile - 1) / kTile;
  const std::size_t first = tiles * blockIdx.x / gridDim.x;  // this block's share: [first, last)
  const std::size_t last = tiles * (blockIdx.x + 1) / gridDim.x;

  Acc acc[kVectorLoads];
#pragma unroll
  for (int u = 0; u < kVectorLoads; ++u) acc[u] = Op::template identity<Acc>();
  for (std::size_t t = first; t < last; ++t) {
    const std::size_t base = t * kTile + threadIdx.x;
    if (base + (kVectorLoads - 1) * Block < nvec) {  // a whole tile's four vectors for this thread
      V v[kVectorLoads];
#pragma unroll
      for (int u = 0; u < kVectorLoads; ++u) v[u] = __ldg(vin + base + u * Block);  // four loads in flight
#pragma unroll
      for (int u = 0; u < kVectorLoads; ++u) acc[u] = op(acc[u], fold_lanes<Acc>(v[u], op));
    } else {  // the input's last tile: each vector if it exists
#pragma unroll
      for (int u = 0; u < kVectorLoads; ++u)
        if (base + u * Block < nvec) acc[u] = op(acc[u], fold_lanes<Acc>(__ldg(vin + base + u * Block), op));
    }
  }

  const std::size_t tid = harness::global_thread_id();
  if (tid < split.head) acc[0] = op(acc[0], static_cast<Acc>(__ldg(in + tid)));
  if (split.tail + tid < n) acc[0] = op(acc[0], static_cast<Acc>(__ldg(in + split.tail + tid)));

  static_assert(kVectorLoads == 4, "the line below folds exactly four accumulators");
  return op(op(acc[0], acc[1]), op(acc[2], acc[3]));
}

//! Stage 10: each block folds its even share of tiles (even_share_fold), then stage 7's block fold and
//! finish: with one block its value is the result, with more the last block folds the partials.
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] in n input elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x accumulators of scratch (unused with one block)
//! @param[in,out] tickets the ticket counter: zero before the launch and after it (unused with one block)
//! @param[out] out one accumulator: the result (written, not accumulated: no zeroing)
//! @param[in] op the operator
//! Launch: at most 2^31 - 1 blocks (more blocks than tiles leave some with nothing to read); two
//! launches on one workspace must not run at once.
//! Registers: as nvcc allocates them (no minimum of resident blocks, unlike stage 7).
template <class T, class Op, int Block>
__global__ void __launch_bounds__(Block)
    reduce_stage_10(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* partials, unsigned* tickets,
                    accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  PlainBarrier sync;
  const Acc v = block_fold<Acc, Block>(even_share_fold<Block>(in, n, op), op, sync);
  if (gridDim.x == 1) {  // the whole input in one block: its value is the result
    if (threadIdx.x == 0) *out = v;
    return;
  }
  fold_in_last_block<Acc, Block>(v, partials, tickets, out, op);
}

// ---- How stage 10 is launched ----------------------------------------------------------------

//! Tiles of stage 10 for `a`: ceil(n x sizeof(T) / (Block x 64 bytes)), at least 1 (the head and
//! tail of an input shorter than one vector still need a block).
inline std::size_t reduce_stage_10_tiles(const harness::ReduceArgs& a) {
  const std::size_t tile_bytes = static_cast<std::size_t>(a.block) * kVectorLoads * 16;
  const std::size_t bytes = a.n * harness::dtype_size(a.type);
  return bytes == 0 ? 1 : (bytes + tile_bytes - 1) / tile_bytes;
}

//! Stage 10's grid: the user's --grid if given, else one block per tile, at most kStage10Waves waves of
//! resident blocks of its kernel (harness::resident_blocks: SMs x blocks per SM, from the device).
inline std::size_t reduce_stage_10_grid(const harness::ReduceArgs& a) {
  if (a.grid != 0) return a.grid;
  std::size_t wave = 0;
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    wave = harness::resident_blocks(
        reinterpret_cast<const void*>(&reduce_stage_10<decltype(t), decltype(op), decltype(block)::value>), a.block);
  });
  return std::min(reduce_stage_10_tiles(a), kStage10Waves * wave);
}

//! Stage 10's workspace: the ticket counter, then one partial per block.
inline std::size_t reduce_stage_10_workspace(const harness::ReduceArgs& a) {
  return ticket_workspace_bytes(a, reduce_stage_10_grid(a));
}

//! Launches stage 10 on a.stream: one launch of reduce_stage_10 on reduce_stage_10_grid(a) blocks, the
//! partials after the ticket counter, as stage 7 (nothing else enqueued).
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            the input aligned to sizeof(T); workspace of reduce_stage_10_workspace(a) bytes whose
//!            first kTicketBytes are zero
inline void launch_reduce_stage_10(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_10_grid(a);
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    constexpr int B = decltype(block)::value;
    unsigned* tickets = a.scratch<unsigned>();
    Acc* partials = ticket_partials<Acc>(a);
    reduce_stage_10<T, Op, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials, tickets, a.output<Acc>(), op);
  });
}

//! Summation depth of stage 10: a thread's ceil(tiles / grid) folds into each of its four accumulators
//! (each vector's lanes first), the accumulators, head and tail, the block tree; then the last
//! block's ceil(grid / Block) partials per thread and its tree.
inline double reduce_stage_10_depth(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_10_grid(a);
  const double per_block = std::ceil(static_cast<double>(reduce_stage_10_tiles(a)) / static_cast<double>(grid));
  const double per_thread = per_block + 2 + 2 + 2;  // tiles, a vector's lanes, four accumulators, head and tail
  return harness::reduce_depth(per_thread, a.block, 0) + last_block_depth(a, grid);
}

//! Stage 10 as the harness runs it: the program `reduce_stage_10`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_10_stage() {
  harness::Stage<harness::Reduce> s = harness::stage_of_card<harness::Reduce>(
      {"reduce_stage_10", "even shares over five waves",
       "each block folds a contiguous run of whole tiles (Block x 64 bytes each), on up to five waves of "
       "resident blocks; stage 7's block fold and last-block finish",
       "chapter 8, past section 8.6: CUB's GridEvenShare schedule with stage 7's finish"});
  s.caps = two_pass_caps();
  s.deterministic = true;
  s.grid_stride = true;  // honours --grid: any number of blocks splits the tiles evenly
  s.grid_for = reduce_stage_10_grid;
  s.workspace_bytes = reduce_stage_10_workspace;
  s.workspace_zeroed_bytes = kTicketBytes;
  s.depth = reduce_stage_10_depth;
  s.launch = launch_reduce_stage_10;
  return s;
}

}  // namespace ch08
