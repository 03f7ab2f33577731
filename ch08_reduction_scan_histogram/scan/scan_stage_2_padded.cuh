//! @file scan_stage_2_padded.cuh
//! @brief Scan stage 2: stage 1 with the shared array padded against bank conflicts.
//!
//! Changed against stage 1: one idea, the shared-memory layout. Logical slot i lives at
//! i + i / 32: one extra element after every 32, and Block + Block / 32 elements of shared memory.
//! In the tree, the right children a warp touches at one level are 2 * stride slots apart; without
//! padding, from stride 16 on they all fall in the same bank (32 banks of 4 bytes) and the warp's
//! access is replayed once per distinct address. The padding shifts every group of 32 slots by one
//! bank, so those accesses spread over several banks (at stride 16, over all 32).
//! Everything else (kernels, passes, workspace, depth) is stage 1's: this file reuses
//! scan_tile_blelloch, add_tile_offsets and launch_three_pass_blelloch from scan_stage_1_three_pass.cuh
//! with the PaddedForBanks layout.
//! What the profiler shows against stage 1: shared-memory bank conflicts
//! (l1tex__data_bank_conflicts_pipe_lsu_mem_shared) fall in pass 1; shared instructions, barriers
//! and DRAM traffic stay the same. How far the conflicts fall: docs/results/H200/profile/
//! ch08-scan_profile_claims.md; against the expectation that the 4n transfers bound it, the time
//! falls too (the `step` of stage 2 in the scan README's ladder).
//! Source: the padding of Harris, Sengupta and Owens, "Parallel Prefix Sum (Scan) with CUDA", GPU
//! Gems 3, chapter 39 (CONFLICT_FREE_OFFSET).
#pragma once
#include "scan_stage_1_three_pass.cuh"

namespace ch08 {

//! Padded shared-memory layout: logical slot i lives in shared element i + i / 32.
struct PaddedForBanks {
  //! Shared element holding logical slot i.
  __host__ __device__ static constexpr int slot(int i) { return i + i / 32; }
  //! Shared elements needed for `tile` logical slots.
  __host__ __device__ static constexpr int slots(int tile) { return tile + tile / 32; }
};

//! Launches stage 2: stage 1's three passes with the padded layout.
inline void launch_scan_stage_2(const harness::ScanArgs& a) {
  launch_three_pass_blelloch<PaddedForBanks>(a);
}

//! Stage 2: three-pass Blelloch with a padded shared array.
inline harness::Stage<harness::Scan> scan_stage_2_stage() {
  harness::Stage<harness::Scan> s = scan_stage_1_stage();
  s.name = "scan_stage_2";
  s.label = "padded against bank conflicts";
  s.change = "shared slot i moves to i + i / 32, so a warp's tree accesses spread over the banks";
  s.source = "Harris, Sengupta and Owens, GPU Gems 3, ch. 39 (CONFLICT_FREE_OFFSET); chapter 8, section 8.7";
  s.launch = launch_scan_stage_2;
  return s;
}

}  // namespace ch08
