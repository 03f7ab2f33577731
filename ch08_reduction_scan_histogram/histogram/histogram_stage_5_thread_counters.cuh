//! @file histogram_stage_5_thread_counters.cuh
//! @brief Histogram stage 5: an answer to contention. Every thread counts into its own 8-bit
//! counters in shared memory, with plain loads and stores: no atomics and no bank conflicts,
//! whatever the data.
//!
//! Changed against stage 4: the per-warp sub-histograms (one atomic per sample; on uniform data
//! several shared-memory passes per atomic instruction, lanes of a warp hitting different words of
//! one bank; lanes on one counter take one pass, as stages 1 and 2 show on one-bin data; the passes
//! per instruction: docs/results/H100/profile/ch08-histogram_profile_claims.md) become per-thread
//! byte counters.
//! Thread t owns one byte per bin. Four bins share a 32-bit word, and word r of thread t sits at
//! word index r * Block + t, so a warp's 32 lanes always touch 32 different banks (bank = t mod 32)
//! whatever bins they hit, and no other thread ever touches them: a sample costs one byte load, one
//! add and one byte store (LDS.U8 / STS.U8), never an atomic. A byte wraps after 255; when an add
//! carries it past 255 the thread adds 256 to a 32-bit spill counter of that bin (a shared atomic,
//! at most once per 256 samples of one thread in one bin). At the end, warp w adds bin b's bytes
//! over all threads plus its spill counter (conflict-free reads, one warp sum:
//! harness::warp_sum_unsigned) and issues one global atomic per non-empty bin.
//! Cost: one byte per bin per thread plus the spills, bins x Block + 4 x bins bytes of shared
//! memory per block (thread_counter_bytes), opted in past the default 48 KiB; at most 256 bins and
//! Block 256. Block 256 needs 66,560 bytes (64 KiB of bytes plus 1 KiB of spills), 1 KiB more than
//! a T4's 65,536; every other reader's GPU gives a block that much. So, without --block, the stage
//! runs at 256 where the GPU holds it and at 128 (33,792 bytes) where it does not
//! (harness::default_block_of halves the block until the shared memory fits); an explicit
//! `--block 256` on a T4 is refused before any launch with the advice `--block 128`. The bytes per
//! thread do not depend on the block, so shared memory lets as many threads be resident per SM at
//! block 128 as at 256 (twice as many blocks, each zeroing and folding half as many bytes, and
//! twice the global atomics of the folds, grid x bins).
//! The increments of one thread run in order (the compiler cannot prove two samples hit different
//! bytes), so each sample waits for the previous one's shared load. Resident warps would hide it, but
//! the bytes cost occupancy: the profiler shows achieved occupancy well below stage 4's and `wait`
//! (a fixed-latency dependency) as the top stall, and stage 5 is slower than stage 4 (README.md
//! gives the figures, from scripts/maintainers/check_profile_claims.py and scripts/maintainers/step_causes.py).
//! What the profiler shows against stage 4 (scripts/maintainers/check_profile_claims.py, 4 -> 5): shared atomics
//! (ATOMS) leave the loop (only spills remain), replaced by byte loads and stores with almost no
//! bank conflicts; occupancy falls (shared memory limited). Uniform and one-bin data run at the same
//! speed in the ladders; in a short run one-bin data is faster, and its fold issues one global
//! atomic per block (one non-empty bin) instead of one per bin (both measured by the profile
//! claims; README.md gives the figures).
//! Shared counters: bytes plus 32-bit spills; a block counts fewer than 2^31 + 2^14 + 46 samples
//! (histogram_grid.hpp), so spill + bytes < 2^32.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "histogram_vector_loads.cuh"
#include "kernel_support.cuh"
#include "stage.hpp"
#include "thread_counters.cuh"

namespace ch08 {

//! Stage 5: 16-byte loads (stage 4's loop), per-thread byte counters in shared memory.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (histogram_bins.cuh), at most kThreadCounterMaxBins bins
//! @tparam Block threads per block, 32 .. 256
//! @param[in] in n samples (aligned to sizeof(T))
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in,out] out map.count() 64-bit counters, zeroed before the launch
//! Launch: any grid (default: resident blocks); dynamic shared memory
//! ThreadCounters<Block>::smem_bytes(map.count()). Barriers per block: 2.
template <class T, class Map, int Block>
__global__ void __launch_bounds__(Block) histogram_stage_5(const T* __restrict__ in, std::size_t n,
                                                           Map map, harness::Count* __restrict__ out) {
  extern __shared__ unsigned smem[];
  const ThreadCounters<Block> counters(smem, map.count());
  counters.zero();
  __syncthreads();
  auto count = [&](T x) {
    const int bin = harness::bin_of(map, x);
    if (bin >= 0) counters.add(bin, 1u);
  };
  for_each_vector(in, n, [&](const uint4& v) { for_each_in_vector<T>(v, count); }, count);
  __syncthreads();
  counters.fold(out);
}

//! Calls `f(kernel, T{}, map, smem_bytes)` with stage 5's kernel at the arguments' type, range and block.
template <class F>
void with_stage_5_kernel(const harness::HistogramArgs& a, F&& f) {
  with_thread_counter_config(a, [&](auto t, auto map, auto block, std::size_t smem) {
    f(histogram_stage_5<decltype(t), decltype(map), decltype(block)::value>, t, map, smem);
  });
}

//! Grid of stage 5: resident blocks of its kernel with its shared memory, at most one vector per thread.
inline std::size_t histogram_stage_5_grid(const harness::HistogramArgs& a) {
  return harness::resident_grid(a, samples_per_vector(a), [](const auto& args, auto&& f) { with_stage_5_kernel(args, f); });
}

//! Zeroes the histogram and launches stage 5.
inline void launch_histogram_stage_5(const harness::HistogramArgs& a) {
  const std::size_t grid = histogram_stage_5_grid(a);
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  with_stage_5_kernel(a, [&](auto kernel, auto t, auto map, std::size_t smem) {
    using T = decltype(t);
    harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
    kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, a.output<harness::Count>());
  });
}

//! Stage 5 as the harness sees it.
inline harness::Stage<harness::Histogram> histogram_stage_5_stage() {
  harness::Stage<harness::Histogram> s;
  s.name = "histogram_stage_5";
  s.label = "per-thread byte counters";
  s.change = "every thread counts into its own 8-bit counters in shared memory (plain load/add/store, bank = lane): no atomics, no bank conflicts on any data";
  s.source = "beyond the chapter: per-thread packed counters (privatisation down to the thread)";
  s.types = {harness::DType::u8, harness::DType::i32, harness::DType::f32};
  s.min_block = 32;
  s.max_block = kThreadCounterMaxBlock;
  s.grid_stride = true;
  s.deterministic = true;
  s.caps.max_bins = kThreadCounterMaxBins;
  s.shared_bytes = thread_counter_smem;
  s.grid_for = histogram_stage_5_grid;
  s.launch = launch_histogram_stage_5;
  return s;
}

}  // namespace ch08
