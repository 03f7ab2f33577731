//! @file scan_stage_6_more_items.cuh
//! @brief Scan stage 6: stage 5 with twice the items per thread: 8 vectors of 16 bytes (128 bytes,
//! 32 floats or 16 doubles) instead of 4.
//!
//! Changed against stage 5: one number, the coarsening factor. A tile at Block = 256 grows from
//! 4096 to 8192 floats, so there are half as many tiles: half the tile-counter atomics, half the
//! status words published and half the look-backs, and twice the bytes each thread has in flight
//! before its first use (8 independent 16-byte loads). The cost: more registers per thread (fewer
//! resident blocks: the occupancy at 2^26 in docs/results/H200/profile/ch08-scan_profile_claims.md;
//! blocks of at
//! most 512 threads: at 1024 the register file leaves 64 registers per thread, which the float
//! kernel fills exactly and the double one spills past; test cpu.sass_claims_ch08_scan) and a longer wait for
//! the one block per tile that waits on its look-back.
//! The kernel, the layout and the launch are stage 5's (scan_stage_5_vectorized.cuh:
//! scan_single_pass_vec, launch_single_pass_vec), instantiated with 8 vectors.
//! What the profiler shows against stage 5: launched blocks halve; registers per thread rise;
//! global load instructions per block double while load instructions per byte stay the same.
//! Determinism: as stage 4 (not promised for float and double; ints always the same).
//! Source: Merrill and Garland 2016, section 5 (tuning: items per thread); CUB's scan policies.
#pragma once
#include "scan_stage_5_vectorized.cuh"

namespace ch08 {

//! 16-byte vectors per thread of stage 6: 8 (128 bytes per thread).
inline constexpr int kStage6Vectors = 8;

//! Launches stage 6.
inline void launch_scan_stage_6(const harness::ScanArgs& a) {
  launch_single_pass_vec<kStage6Vectors, DefaultCache>(a);
}

//! Stage 6: stage 5 with 8 vectors per thread.
inline harness::Stage<harness::Scan> scan_stage_6_stage() {
  harness::Stage<harness::Scan> s = single_pass_vec_stage<kStage6Vectors, DefaultCache>();
  s.name = "scan_stage_6";
  s.label = "more items per thread";
  s.change = "8 vectors (128 bytes) per thread instead of 4: half the tiles, half the look-backs";
  s.source = "Merrill and Garland 2016, section 5 (items per thread)";
  s.launch = launch_scan_stage_6;
  return s;
}

}  // namespace ch08
