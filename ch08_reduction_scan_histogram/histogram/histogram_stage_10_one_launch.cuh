//! @file histogram_stage_10_one_launch.cuh
//! @brief Histogram stage 10 (past the chapter's sections): stage 9 in one launch. No memset of the
//! bins before the kernel: one block writes its counts as the result; several blocks add into a
//! workspace histogram that the block drawing the last ticket copies to the output and zeroes again.
//!
//! Every stage before this one enqueues two operations per run: a memset of the output bins (the
//! blocks add into them with atomics, so they must start at zero), then the kernel; CUB enqueues
//! three. At small n a run is a few microseconds whatever its size, and the launches decide, as in
//! chapter 7's stage 12 and the reduction's stage 7. Changed against stage 9 (same kernel body, same
//! grid rule):
//!   - one block when the grid is one block: its per-warp copies summed bin by bin are the result,
//!     stored to every output bin (empty bins included), so nothing needs zeroing and no atomic goes
//!     to global memory;
//!   - with several blocks, the blocks add their counts into a histogram in the workspace (not the
//!     output), every thread fences its atomics, and thread 0 takes a ticket (an acquire-release
//!     fetch_add, as reduce stage 7's fold_in_last_block). The block that draws the last ticket copies
//!     the workspace histogram to the output and zeroes it, and takes the grid's tickets back off
//!     the counter: every complete launch leaves the workspace as it found it, all zeros.
//! Workspace: kTicketBytes of ticket counter, then bins 64-bit counters; all of it zero before the
//! first launch (the harness zeroes it once: Stage::workspace_zeroed_bytes), never between runs.
//! Source: this tutorial: chapter 8's reduction stage 7 (its self-resetting ticket) applied to the
//! privatised histogram of section 8.8.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda_check.hpp"
#include "histogram_bins.cuh"
#include "histogram_grid.hpp"
#include "histogram_problem.hpp"
#include "histogram_sample_type.hpp"
#include "histogram_stage_4_vector_loads.cuh"   // for_each_vector's use, per_warp_smem, stage 4's record
#include "histogram_stage_8_balanced_grid.cuh"  // balanced_grid
#include "histogram_vector_loads.cuh"
#include "last_ticket.cuh"
#include "stage.hpp"
#include "warp_histograms.cuh"

namespace ch08 {

//! Bytes at the start of stage 10's workspace that hold its ticket counter (16: the bins after it
//! stay aligned for their 64-bit counters).
inline constexpr std::size_t kHistogramTicketBytes = 16;

//! Stage 10: stage 4's counting into per-warp copies, then one block's store or the last block's
//! copy of the workspace histogram.
//! @tparam T sample type: unsigned char, int or float
//! @tparam Map bin map (histogram_bins.cuh)
//! @param[in] in n samples (aligned to sizeof(T); any 16-byte alignment)
//! @param[in] n number of samples
//! @param[in] map the bin map
//! @param[in,out] work map.count() 64-bit counters of workspace: zero when the kernel starts, zero
//!                again when it ends (unused with one block)
//! @param[in,out] tickets the ticket counter: zero before the launch and after it (unused with one block)
//! @param[out] out map.count() 64-bit counters: the histogram (written, not accumulated: no zeroing)
//! Launch: any grid; dynamic shared memory as stage 4 (per_warp_smem). Two launches on one workspace
//! must not run at once.
//! Why the last block sees every count: each thread's atomics into `work` come before its
//! __threadfence, which comes before the block's barrier and so before thread 0's release (the
//! ticket's fetch_add); the tickets form one release sequence on the counter, so the acquire of the
//! thread that draws the last ticket sees every block's atomics, and the next barrier hands that to
//! its block. The zeroing stores of the last block reach the next launch through the kernel boundary.
template <class T, class Map>
__global__ void histogram_stage_10(const T* __restrict__ in, std::size_t n, Map map, harness::Count* work,
                                   unsigned* tickets, harness::Count* __restrict__ out) {
  extern __shared__ unsigned smem[];
  const WarpHistograms hist(smem, map.count());
  hist.zero();
  __syncthreads();
  auto count = [&](T x) {
    const int bin = harness::bin_of(map, x);
    if (bin >= 0) hist.add(bin);
  };
  for_each_vector(in, n, [&](const uint4& v) { for_each_in_vector<T>(v, count); }, count);
  __syncthreads();
  const int bins = map.count();
  if (gridDim.x == 1) {  // the whole input in one block: its counts are the histogram
    for (int b = threadIdx.x; b < bins; b += blockDim.x) out[b] = harness::Count{hist.block_count(b)};
    return;
  }
  hist.fold(work);   // one global atomic per non-empty bin, into the workspace
  __threadfence();   // this thread's atomics before the barrier, and so before the block's ticket
  __syncthreads();   // every thread is done with the copies: smem[0] may hold thread 0's answer
  if (threadIdx.x == 0) {
    const bool last = harness::draw_ticket_is_last<harness::TicketReset::by_last_block>(tickets);
    smem[0] = last ? 1u : 0u;  // no static shared memory: the stage asks for exactly stage 4's bytes
  }
  __syncthreads();
  if (smem[0] == 0) return;
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    out[b] = __ldcg(work + b);  // read at L2, where the atomics were performed
    work[b] = 0;                // ready for the next launch
  }
}

// ---- How stage 10 is launched ----------------------------------------------------------------

//! Calls `f(kernel, T{}, map, smem_bytes)` with stage 10's kernel at the arguments' type and range.
template <class F>
void with_stage_10_kernel(const harness::HistogramArgs& a, F&& f) {
  harness::with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_bin_map<T>(a, [&](auto map) { f(histogram_stage_10<T, decltype(map)>, t, map, per_warp_smem(a)); });
  });
}

//! Grid of stage 10: stage 9's rule (about sqrt(n / bins) blocks, balanced_grid) on the resident
//! blocks of stage 10's own kernel.
inline std::size_t histogram_stage_10_grid(const harness::HistogramArgs& a) {
  const std::size_t wave =
      harness::resident_grid(a, samples_per_vector(a), [](const auto& args, auto&& f) { with_stage_10_kernel(args, f); });
  return balanced_grid(a, wave);
}

//! Stage 10's workspace in bytes: the ticket counter, then one 64-bit counter per bin.
inline std::size_t histogram_stage_10_workspace(const harness::HistogramArgs& a) {
  return kHistogramTicketBytes + static_cast<std::size_t>(a.bins) * sizeof(harness::Count);
}

//! Launches stage 10 on a.stream: one launch of histogram_stage_10 on histogram_stage_10_grid(a)
//! blocks, and nothing else (no memset: the output is written, the workspace left as found).
//! @param[in] a as stage 4; workspace of histogram_stage_10_workspace(a) bytes, all zero
inline void launch_histogram_stage_10(const harness::HistogramArgs& a) {
  const std::size_t grid = histogram_stage_10_grid(a);
  unsigned* tickets = a.scratch<unsigned>();
  harness::Count* work = reinterpret_cast<harness::Count*>(a.scratch<unsigned char>() + kHistogramTicketBytes);
  with_stage_10_kernel(a, [&](auto kernel, auto t, auto map, std::size_t smem) {
    using T = decltype(t);
    harness::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem);
    kernel<<<grid, a.block, smem, a.stream>>>(a.input<T>(), a.n, map, work, tickets, a.output<harness::Count>());
  });
}

//! Stage 10 as the harness sees it: stage 9 in one launch.
inline harness::Stage<harness::Histogram> histogram_stage_10_stage() {
  harness::Stage<harness::Histogram> s = histogram_stage_4_stage();
  s.name = "histogram_stage_10";
  s.label = "one launch";
  s.change = "stage 9 without the memset: one block stores its counts as the result; several add into a "
             "workspace histogram that the last block to take a ticket copies out and zeroes";
  s.source = "this tutorial: the reduction's stage 7 (self-resetting ticket) applied to section 8.8's histogram";
  s.grid_for = histogram_stage_10_grid;
  s.workspace_bytes = histogram_stage_10_workspace;
  s.workspace_zeroed_bytes = harness::kWholeWorkspace;  // the ticket, then the bins: all zero between launches
  s.launch = launch_histogram_stage_10;
  return s;
}

}  // namespace ch08
