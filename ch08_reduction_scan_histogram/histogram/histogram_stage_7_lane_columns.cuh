//! @file histogram_stage_7_lane_columns.cuh
//! @brief Histogram stage 7: one shared histogram per block laid out in lane columns, so that a
//! warp's 32 atomics always fall in 32 different banks, whatever the data; plus one add for a
//! 16-byte vector whose samples share a bin.
//!
//! Changed against stage 4: where a counter lives. Stage 4 gives each warp its own copy of the bins
//! (counter of bin b at word b): a warp's atomicAdd touches the words of 32 random bins, and bins
//! b and b + 32 share a bank, so on well-mixed data an atomic instruction costs about as many
//! shared-memory wavefronts as the most crowded bank has lanes (3 to 4 for 32 random bins of 256,
//! by arithmetic; measured below).
//! Here the block keeps `copies` histograms of `bins` rows by 32
//! columns: lane l of every warp counts bin b in word (b * 32 + l) of its copy (warp w uses copy
//! w % copies). Word b * 32 + l is in bank l, so the 32 lanes of a warp are always in 32 different
//! banks and at 32 different addresses: one wavefront per atomic instruction, on uniform, one-bin or
//! any data. Warps of one block share a copy, so on a hot bin their atomics meet on one word;
//! `copies` > 1 gives them different words (what that is worth on your GPU: histogram_stage_7 --copies).
//! Also from stage 6: a 16-byte vector whose 16 bytes are equal (8-bit samples, 256 bins over
//! [0, 256)) is counted with one atomicAdd of 16: runs in the data cost one update instead of 16.
//! The fold: thread b adds row b over the 32 columns of every copy, starting at column b % 32, so
//! that the 32 threads of a warp read 32 different banks, and issues one global atomic per
//! non-empty bin. Loads: stage 4's grid-stride loop over 16-byte vectors, four in flight.
//! Cost: copies x bins x 128 bytes of shared memory per block, copies = min(--copies, Block / 32):
//! 32 KiB at the defaults (256 bins, one copy, block 256). Blocks per SM follow from the SM's shared
//! memory divided by a block's (plus the driver's reserve per block), and from the registers: 256
//! threads x the kernel's registers per thread against the SM's 65,536; the lower of the two is the
//! occupancy (cudaOccupancyMaxActiveBlocksPerMultiprocessor computes it, and the grid is that many
//! blocks per SM). The device's shared memory per block decides how many bins fit, checked before
//! any launch. `--copies 2` at 256 bins needs 64 KiB at block 256, which every reader's GPU gives a
//! block. `--copies 4` at 256 bins needs 128 KiB at block 128 or 256: an A100 or an H100/H200 runs it at block 256 without --block; a T4 or an RTX card gives a
//! block less, so there the default block is halved until it fits (harness::default_block_of with
//! the device's limits): block 64, two warps, so 2 copies (64 KiB), and an explicit `--block 128` or
//! `256` is refused before any launch with the advice `--block 64`.
//! What the profiler shows against stage 4 on uniform data (scripts/maintainers/check_profile_claims.py, 4 -> 7;
//! the figures: README.md): the same shared atomic instructions (one per sample), and shared-memory
//! wavefronts per atomic down to 1 (no bank conflicts). Its time against the streaming read's: the
//! last rows of docs/results/H200/ch08/histogram/histogram_ladder_2e30_uint8_uniform.md.
//! Shared counters are 32-bit: no block is given more than 2^31 samples (histogram_grid.hpp).
//! Source: beyond the chapter: privatisation laid out against bank conflicts (the transposed,
//! per-lane sub-histograms of Podlozhnyuk, "Histogram calculation in CUDA", NVIDIA, 2007); the
//! single-bin vector test of stage 6.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "histogram_stage_4_vector_loads.cuh"  // its Stage record, which stage 7 starts from
#include "histogram_vector_loads.cuh"
#include "kernel_support.cuh"
#include "stage.hpp"

namespace ch08 {

//! `copies` histograms of `bins` rows x 32 lane columns of 32-bit counters in shared memory:
//! the counter of bin b, lane l, copy c at word (c * bins + b) * 32 + l (always bank l).
struct LaneColumnHistograms {
  unsigned* all;   //!< every copy
  unsigned* mine;  //!< the calling thread's column of its warp's copy: add (bin << 5) to reach a bin
  int bins;        //!< rows per copy
  int copies;      //!< copies per block

  //! Bytes of shared memory for `copies` copies of `bins` bins.
  static __host__ __device__ std::size_t bytes(int copies, int bins) {
    return static_cast<std::size_t>(copies) * static_cast<std::size_t>(bins) * 32 * sizeof(unsigned);
  }
  //! Views `smem` (bytes(copies, bins) bytes) as the block's copies; warp w counts into copy w % copies.
  __device__ __forceinline__ LaneColumnHistograms(unsigned* smem, int bins_, int copies_)
      : all(smem),
        mine(smem + static_cast<std::size_t>((threadIdx.x / 32) % copies_) * bins_ * 32 + threadIdx.x % 32),
        bins(bins_),
        copies(copies_) {}
  //! Every thread of the block zeroes its share; a barrier must follow.
  __device__ __forceinline__ void zero() const {
    const int total = copies * bins * 32;
    for (int k = threadIdx.x; k < total; k += blockDim.x) all[k] = 0;
  }
  //! Adds `k` samples to bin `bin` (>= 0) in the calling lane's column: bank = lane, always.
  __device__ __forceinline__ void add(int bin, unsigned k = 1) const { atomicAdd(mine + (bin << 5), k); }
  //! After a barrier: thread b adds bin b's 32 x copies counters (columns rotated by b so that a
  //! warp's reads fall in 32 banks) and issues one global atomic per non-empty bin.
  __device__ __forceinline__ void fold(harness::Count* out) const {
    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
      unsigned count = 0;
      for (int c = 0; c < copies; ++c) {
        const unsigned* row = all + (static_cast<std::size_t>(c) * bins + b) * 32;
        for (int l = 0; l < 32; ++l) count += row[(l + b) & 31];
      }
      if (count != 0) atomicAdd(&out[b], harness::Count{count});
    }
  }
};

//! Counts one 16-byte vector into the lane columns: with one add of 16 when all 16 bytes are
//! equal (8-bit samples, identity bins), else sample by sample.
template <class T, class Map>
__device__ __forceinline__ void count_vector_in_columns(const uint4& v, const Map& map, const LaneColumnHistograms& h) {
  if constexpr (std::is_same_v<Map, harness::IdentityBins>) {
    const unsigned rep = __byte_perm(v.x, 0, 0x0000);  // byte 0 in all four byte lanes
    if (v.x == rep && v.y == rep && v.z == rep && v.w == rep) {
      h.add(static_cast<int>(v.x & 0xFFu), 16u);
      return;
    }
  }
  for_each_in_vector<T>(v, [&](T x) {
    const int bin = harness::bin_of(map, x);
    if (bin >= 0) h.add(bin);
  });
}

//! Stage 7: lane-column shared histograms, 16-byte loads, one add per single-byte vector.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (histogram_bins.cuh)
//! @param[in] in n samples (aligned to sizeof(T); any 16-byte alignment)
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in] copies histograms per block (>= 1); warp w counts into copy w % copies
//! @param[in,out] out map.count() 64-bit counters, zeroed before the launch
//! Launch: any grid (default: resident blocks); dynamic shared memory
//! LaneColumnHistograms::bytes(copies, map.count()). Barriers: 2.
template <class T, class Map>
__global__ void histogram_stage_7(const T* __restrict__ in, std::size_t n, Map map, int copies,
                                  harness::Count* __restrict__ out) {
  extern __shared__ unsigned smem[];
  const LaneColumnHistograms hist(smem, map.count(), copies);
  hist.zero();
  __syncthreads();
  for_each_vector(
      in, n, [&](const uint4& v) { count_vector_in_columns<T>(v, map, hist); },
      [&](T x) {
        const int bin = harness::bin_of(map, x);
        if (bin >= 0) hist.add(bin);
      });
  __syncthreads();
  hist.fold(out);
}

//! Copies of stage 7's histogram per block: 1 (the default; `histogram_stage_7 --copies 2|4` for
//! measuring hot-bin data), never more than the block's warps.
inline int lane_column_copies(const harness::HistogramArgs& a, int requested) {
  return std::max(1, std::min(requested, a.block / 32));
}

//! Calls `f(kernel, T{}, map, smem_bytes)` with stage 7's kernel at the arguments' type and range,
//! for `copies` copies.
template <class F>
void with_stage_7_kernel(const harness::HistogramArgs& a, int copies, F&& f) {
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) {
      f(histogram_stage_7<T, decltype(map)>, t, map, LaneColumnHistograms::bytes(copies, a.bins));
    });
  });
}

//! Shared memory of stage 7 with `Copies` copies requested: what its launch asks for (dynamic; no
//! static shared memory), LaneColumnHistograms::bytes(lane_column_copies(a, Copies), bins) =
//! copies x bins x 128 bytes.
template <int Copies>
std::size_t lane_column_smem(const harness::HistogramArgs& a) {
  return LaneColumnHistograms::bytes(lane_column_copies(a, Copies), a.bins);
}

//! Grid of stage 7 at `copies` copies: resident blocks of its kernel with its shared memory.
template <int Copies>
std::size_t histogram_stage_7_grid(const harness::HistogramArgs& a) {
  const int copies = lane_column_copies(a, Copies);
  return harness::resident_grid(a, samples_per_vector(a), [copies](const auto& args, auto&& f) {
    with_stage_7_kernel(args, copies, f);
  });
}

//! Zeroes the histogram and launches stage 7's kernel on `grid` blocks with `copies` copies per
//! block (stage 8 launches the same kernel on its own grid).
inline void launch_lane_columns(const harness::HistogramArgs& a, int copies, std::size_t grid) {
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(harness::Count), a.stream));
  with_stage_7_kernel(a, copies, [&](auto kernel, auto t, auto map, std::size_t smem) {
    using T = decltype(t);
    harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
    kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, copies, a.output<harness::Count>());
  });
}

//! Zeroes the histogram and launches stage 7 with `Copies` copies per block on its grid.
template <int Copies>
void launch_histogram_stage_7(const harness::HistogramArgs& a) {
  launch_lane_columns(a, lane_column_copies(a, Copies), histogram_stage_7_grid<Copies>(a));
}

//! Stage 7 as the harness sees it, with `Copies` copies per block (1: the ladder's).
template <int Copies = 1>
harness::Stage<harness::Histogram> histogram_stage_7_stage() {
  harness::Stage<harness::Histogram> s = histogram_stage_4_stage();
  s.name = "histogram_stage_7";
  s.label = Copies == 1 ? "lane-column counters"
                        : "lane-column counters, " + std::to_string(Copies) + " copies (at most block / 32)";
  s.change = "one shared histogram per block in lane columns (bin b of lane l at word 32b + l): a warp's atomics "
             "never share a bank; one add per 16-byte vector of equal bytes";
  s.source = "beyond the chapter: bank-conflict-free privatisation (Podlozhnyuk 2007, per-lane sub-histograms)";
  // Its own shared memory, not stage 4's: copies x bins x 128 bytes (lane_column_smem). Where no
  // block fits the bins, stage 4 (per-warp copies, 4 bytes per bin at block 32) is what to run.
  // Its default block stays 256; where that does not fit the GPU (4 copies on a T4 or an RTX card)
  // the harness halves it (default_block_of(stage, args, limits)): block 64, 2 copies.
  s.shared_bytes = lane_column_smem<Copies>;
  s.instead = "histogram_stage_4";
  s.grid_for = histogram_stage_7_grid<Copies>;
  s.launch = launch_histogram_stage_7<Copies>;
  return s;
}

}  // namespace ch08
