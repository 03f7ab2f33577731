//! @file reduce_stage_6_binned.cuh
//! @brief Stage 6 (past the chapter: its "Determinism" made to hold for any block size, grid and
//! GPU): the binned sum. Every float or double is split against one fixed grid of exponents and
//! its pieces are added, exactly, to integers; the result has the same bits for every block size,
//! grid, GPU and order of the input.
//!
//! Changed against stage 5: stage 5 is deterministic only run to run. Its fold order follows the
//! block and the grid (grid-stride order, the shuffle tree, the partials), so `--block 512` or a GPU
//! with another SM count (another full wave) rounds differently and changes the last bits. Stage 6
//! keeps stage 5's loop shape (16-byte loads, kVectorLoads in flight, a scalar head and tail) and
//! changes what each element does: instead of one add into an accumulator, a *deposit* of the
//! paper's pre-rounding (harness::binned_deposit, common/reduce/binned_sum.hpp): three bins of
//! a level fixed by the largest |x|, 11 floating-point instructions per element, every addition
//! exact. Per batch of kVectorLoads vectors one max of |x| against the level's limit (a larger
//! value or an infinity takes the rare path, binned_thread_add); every binned_deposits_per_flush
//! deposits the bins move to 64-bit integers. The block merges its threads' integers at the
//! block's highest level (two barriers), the second pass merges the blocks' and rounds once.
//! Only the sum of float and double: int sums are already exact (stage 5), max and min need no
//! rounding (stage 5).
//!
//! What the profiler should show against stage 5: the same global loads (LDG.E.128, kVectorLoads
//! per loop trip) and DRAM bytes; about ten times the floating-point instructions per element
//! (FADD and FFMA, or DADD and DFMA), issued from registers without waiting on memory; two
//! barriers per block instead of one; the time within a few percent of stage 5's where the
//! floating-point pipes keep up with the loads (the README's binned-sum page has the counts from
//! the SASS and says where they do).
//!
//! Source: P. Ahrens, J. Demmel, H. D. Nguyen, "Algorithms for Efficient Reproducible Floating Point
//! Summation", ACM TOMS 46(3), 2020: sections 3 and 4 (the binned format, deposit, renormalisation
//! by a carry, the index of the largest value), with this tutorial's choices: the bins in a fixed
//! scaled frame (rounding constants known at compile time), 64-bit integer carries instead of the
//! paper's carry fields, and a level that rises in whole bins.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "binned_sum.hpp"
#include "block_folds.cuh"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "kernel_support.cuh"
#include "reduce_second_pass.cuh"
#include "reduce_stage_5_vectorized.cuh"
#include "vec16.cuh"

#if defined(__CUDA_FTZ) && __CUDA_FTZ
#error "reduce_stage_6 needs subnormals (nvcc --ftz=false, the default): a flushed subnormal changes the bits"
#endif

namespace ch08 {

//! One thread's binned sum while it reads: its partial (level, flags, integer bins), the bins in
//! T since the last flush, and its level's scale and limit.
//! @tparam T float or double
template <class T>
struct BinnedThread {
  harness::BinnedPartial p;      //!< level, special values, integer bins
  T acc[harness::kBinnedBins];   //!< bin sums since the last flush, in units of the top bin
  T scale;                       //!< harness::binned_scale(p.level)
  T limit;                       //!< harness::binned_limit(p.level)

  //! An empty sum at the lowest level.
  __device__ __forceinline__ BinnedThread() : p(harness::binned_empty<T>()), scale(0), limit(0) {
#pragma unroll
    for (int k = 0; k < harness::kBinnedBins; ++k) acc[k] = T(0);
    set_level(p.level);
  }
  //! Moves to `level` (no higher): its scale and limit.
  __device__ __forceinline__ void set_level(int level) {
    scale = harness::binned_scale<T>(level);
    limit = harness::binned_limit<T>(level);
  }
};

//! max(m, |x|) for float or double (a NaN x is not seen: it poisons the bins, which
//! binned_flush flags).
__device__ __forceinline__ float abs_max(float m, float x) { return fmaxf(m, fabsf(x)); }
//! max(m, |x|) for double.
__device__ __forceinline__ double abs_max(double m, double x) { return fmax(m, fabs(x)); }

//! Deposits the N elements `x` (any values) into the thread's sum. The common case costs one max of
//! |x| over the batch, one comparison with the level's limit and the N deposits. Otherwise (the
//! rare path, taken at most once per level a thread passes and for each batch with an infinity):
//! NaN and infinities are flagged and replaced by 0, the level rises to that of the largest finite
//! |x| (the bins shift up, binned_raise), then the N deposits. A NaN the common case lets through
//! poisons the bins, and the next flush flags it.
//! @tparam N elements in the batch (kVectorLoads x the vector's lanes, one vector, or 1)
template <class T, int N>
__device__ __forceinline__ void binned_thread_add(BinnedThread<T>& th, T (&x)[N]) {
  T m = T(0);
#pragma unroll
  for (int j = 0; j < N; ++j) m = abs_max(m, x[j]);
  if (!(m < th.limit)) {
    m = T(0);
#pragma unroll
    for (int j = 0; j < N; ++j) {
      if (!(abs_max(T(0), x[j]) < harness::binned_infinity<T>()) || x[j] != x[j]) {  // inf or NaN
        harness::binned_special(th.p.flags, x[j]);
        x[j] = T(0);
      }
      m = abs_max(m, x[j]);
    }
    if (!(m < th.limit)) {
      harness::binned_raise(th.p, th.acc, harness::binned_level(m));
      th.set_level(th.p.level);
    }
  }
#pragma unroll
  for (int j = 0; j < N; ++j) harness::binned_deposit(th.acc, x[j], th.scale);
}

//! The lanes of the 16-byte vector v written to x[at], x[at + 1], ...
template <class T, class V, int N>
__device__ __forceinline__ void put_lanes(T (&x)[N], int at, const V& v) {
  x[at] = v.x;
  x[at + 1] = v.y;
  if constexpr (sizeof(V) == 4 * sizeof(T)) {
    x[at + 2] = v.z;
    x[at + 3] = v.w;
  }
}

//! This thread's binned sum of in[0..n): stage 5's traversal (scalar head, 16-byte vectors in
//! grid-stride order kVectorLoads at a time, then one at a time, scalar tail), each batch of
//! kVectorLoads vectors checked against the level's limit once (binned_thread_add) and deposited
//! element by element; a flush every binned_deposits_per_flush deposits.
//! @tparam T float or double
//! @param[in] in n input elements, aligned to sizeof(T)
//! @param[in] n number of elements (any value; a thread with nothing to read returns an empty sum)
//! @return the thread's partial, flushed
template <class T>
__device__ __forceinline__ harness::BinnedPartial binned_thread_sum(const T* __restrict__ in, std::size_t n) {
  using V = typename harness::Vec16<T>::type;
  constexpr int kLanes = harness::kVecItems<T>;
  constexpr int kBatch = kVectorLoads * kLanes;
  // Room left for the remainder after the main loop: kVectorLoads - 1 vectors and two scalars.
  constexpr long long kBatchesPerFlush = harness::binned_deposits_per_flush<T>() / kBatch - 1;
  static_assert(kBatchesPerFlush * kBatch + (kVectorLoads - 1) * kLanes + 2 <= harness::binned_deposits_per_flush<T>(),
                "the bins must be flushed before they can round");
  const std::size_t tid = harness::global_thread_id();
  const std::size_t stride = harness::grid_threads();

  const harness::Vec16Split<T> split = harness::vec16_split(in, n);
  const std::size_t head = split.head, nvec = split.count, tail = split.tail;
  const V* __restrict__ vin = split.vectors;

  BinnedThread<T> th;
  if (tid < head || tail + tid < n) {             // the scalars: at most one of each per thread
    T x[1] = {tid < head ? in[tid] : T(0)};
    binned_thread_add(th, x);
    x[0] = tail + tid < n ? in[tail + tid] : T(0);
    binned_thread_add(th, x);
  }

  long long batches = 0;
  std::size_t i = tid;
  for (; i + (kVectorLoads - 1) * stride < nvec; i += kVectorLoads * stride) {
    V v[kVectorLoads];
#pragma unroll
    for (int u = 0; u < kVectorLoads; ++u) v[u] = vin[i + u * stride];  // kVectorLoads loads in flight
    T x[kBatch];
#pragma unroll
    for (int u = 0; u < kVectorLoads; ++u) put_lanes(x, u * kLanes, v[u]);
    binned_thread_add(th, x);
    if (++batches == kBatchesPerFlush) {
      harness::binned_flush(th.p, th.acc);
      batches = 0;
    }
  }
  for (; i < nvec; i += stride) {
    T x[kLanes];
    put_lanes(x, 0, vin[i]);
    binned_thread_add(th, x);
  }
  harness::binned_flush(th.p, th.acc);
  return th.p;
}

//! The sum of the warp's 32 partials, all at one level, into lane 0: integers and flags, by
//! __shfl_down_sync (exact, so the tree's shape does not matter).
__device__ __forceinline__ harness::BinnedPartial binned_warp_merge(harness::BinnedPartial p) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
#pragma unroll
    for (int k = 0; k < harness::kBinnedBins; ++k) p.bins[k] += __shfl_down_sync(kFullWarp, p.bins[k], offset);
    p.flags |= __shfl_down_sync(kFullWarp, p.flags, offset);
  }
  return p;
}

//! The block's binned sum: its highest level (a warp max by shuffles, one value per warp through
//! shared memory, barrier 1), every thread's bins brought to it (binned_align), then the integers
//! added as stage 4's block_fold adds values (warp shuffles, one partial per warp, barrier 2,
//! warp 0). Call at most once per kernel; every thread of the block must call.
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @return in thread 0, the block's partial (other threads: unspecified)
template <int Block>
__device__ __forceinline__ harness::BinnedPartial binned_block_merge(harness::BinnedPartial p) {
  static_assert(Block >= 32 && Block <= 1024 && Block % 32 == 0, "whole warps, at most 32 of them");
  constexpr int kWarps = Block / 32;
  __shared__ int warp_levels[kWarps];
  __shared__ harness::BinnedPartial warp_partials[kWarps];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  int level = p.level;
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) level = max(level, __shfl_xor_sync(kFullWarp, level, offset));
  if (lane == 0) warp_levels[warp] = level;
  __syncthreads();
#pragma unroll
  for (int w = 0; w < kWarps; ++w) level = max(level, warp_levels[w]);
  harness::binned_align(p, level);
  p = binned_warp_merge(p);
  if (lane == 0) warp_partials[warp] = p;
  __syncthreads();
  if (warp == 0) {
    if (lane < kWarps) {
      p = warp_partials[lane];
    } else {
      p.flags = 0;
#pragma unroll
      for (int k = 0; k < harness::kBinnedBins; ++k) p.bins[k] = 0;
    }
    p = binned_warp_merge(p);
  }
  return p;
}

//! Stage 6, first pass: each thread's binned sum (binned_thread_sum), merged per block
//! (binned_block_merge); one partial per block.
//! @tparam T float or double
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] in n input elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[out] partials gridDim.x binned partials (32 bytes each)
//! Launch: any number of blocks (default: one full wave, capped at ceil(n / Block)); the result
//! does not depend on it. Barriers per block: 2.
//! Source: Ahrens, Demmel, Nguyen (ACM TOMS 2020), sections 3-4, fed by stage 5's loop.
template <class T, int Block>
__global__ void __launch_bounds__(Block)
    reduce_stage_6(const T* __restrict__ in, std::size_t n, harness::BinnedPartial* __restrict__ partials) {
  const harness::BinnedPartial p = binned_block_merge<Block>(binned_thread_sum(in, n));
  if (threadIdx.x == 0) partials[blockIdx.x] = p;
}

//! Stage 6, second pass: one block merges the `count` partials (thread t: partials t, t + Block,
//! ..., each brought to the higher level first, binned_merge), binned_block_merge, and thread 0
//! writes the value (harness::binned_value: the same function the CPU version ends with).
//! @tparam T float or double
//! @tparam Block threads of the one block (kSecondPassBlock)
//! @param[in] partials count partials of the first pass
//! @param[in] count number of partials (>= 1)
//! @param[out] out one T: the sum
template <class T, int Block>
__global__ void __launch_bounds__(Block)
    reduce_stage_6_finish(const harness::BinnedPartial* __restrict__ partials, std::size_t count, T* __restrict__ out) {
  harness::BinnedPartial p = harness::binned_empty<T>();
  for (std::size_t i = threadIdx.x; i < count; i += Block) harness::binned_merge(p, partials[i]);
  p = binned_block_merge<Block>(p);
  if (threadIdx.x == 0) *out = harness::binned_value<T>(p);
}

// ---- How stage 6 is launched -----------------------------------------------------------------

//! Calls f(T{}, integral_constant<int, Block>{}) for float or double and a block size 32..1024.
template <class F>
void dispatch_binned(harness::DType type, int block, F&& f) {
  harness::with_block_size(block, [&](auto b) {
    if (type == harness::DType::f64) f(double{}, b);
    else f(float{}, b);
  });
}

//! Stage 6's grid: --grid if given, else one full wave of its kernel (harness::occupancy_grid),
//! at least one element per thread.
inline std::size_t reduce_stage_6_grid(const harness::ReduceArgs& a) {
  if (a.grid != 0) return a.grid;
  std::size_t grid = 0;
  dispatch_binned(a.type, a.block, [&](auto t, auto block) {
    grid = harness::occupancy_grid(reinterpret_cast<const void*>(&reduce_stage_6<decltype(t), decltype(block)::value>),
                                   a.block, a.n, 1);
  });
  return grid;
}

//! Launches stage 6 on a.stream: reduce_stage_6_grid(a) blocks of reduce_stage_6, each writing a
//! 32-byte partial to the workspace, then one block of reduce_stage_6_finish. No atomics, and no
//! result depends on the grid or the block size.
//! @param[in] a n > 0; type float/double; op sum; block a power of two from 32 to 1024; the input
//!            aligned to sizeof(T); a workspace of grid x sizeof(harness::BinnedPartial) bytes
inline void launch_reduce_stage_6(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_6_grid(a);
  dispatch_binned(a.type, a.block, [&](auto t, auto block) {
    using T = decltype(t);
    constexpr int B = decltype(block)::value;
    auto* partials = a.scratch<harness::BinnedPartial>();
    reduce_stage_6<T, B><<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, partials);
    CUDA_CHECK_LAUNCH();
    reduce_stage_6_finish<T, kSecondPassBlock><<<1, kSecondPassBlock, 0, a.stream>>>(partials, grid, a.output<T>());
  });
}

//! Stage 6 as the harness runs it: the program `reduce_stage_6`, the ladder, the tests and
//! atomic_vs_deterministic's table of bits. Sum of float and double; its check on data that is not
//! exact is bit equality with the CPU's binned sum (Reduce::Caps::binned).
inline harness::Stage<harness::Reduce> reduce_stage_6_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "reduce_stage_6";
  s.label = "binned sum: same bits on any grid";
  s.change = "each element split against a fixed grid of exponents into three bins and added exactly (binned "
             "pre-rounding), merged as integers: the same bits for any block size, grid, GPU and order";
  s.source = "chapter 8, section 8.6 (Determinism), completed by Ahrens, Demmel, Nguyen, ACM TOMS 2020";
  s.types = {harness::DType::f32, harness::DType::f64};
  s.caps.ops = {harness::Op::sum};
  s.caps.binned = true;
  s.instead = "reduce_stage_5 (int sums are exact there, and max and min never round)";
  s.deterministic = true;
  s.grid_stride = true;
  s.grid_for = reduce_stage_6_grid;
  s.workspace_bytes = [](const harness::ReduceArgs& a) { return reduce_stage_6_grid(a) * sizeof(harness::BinnedPartial); };
  s.launch = launch_reduce_stage_6;
  return s;
}

}  // namespace ch08
