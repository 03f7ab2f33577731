//! @file scan_stage_7_streaming.cuh
//! @brief Scan stage 7: stage 6 with streaming cache hints on the data: loads with
//! ld.global.cs (__ldcs) and stores with st.global.cs (__stcs), "evict first".
//!
//! Changed against stage 6: one idea, the cache policy of the data. Every input byte is read once
//! and every output byte written once, yet with the default policy both pass through L2 as if they
//! would be used again, competing with the few bytes that are: the status words every look-back
//! reads, which must stay in L2 for the spinning loads to be cheap. Marking the data as streaming
//! lets L2 evict it first. The kernel and launch are stage 5's with the StreamingCache policy and
//! stage 6's 8 vectors per thread.
//! What the profiler shows against stage 6: L2 hit rate of the status loads rises (or stays), DRAM
//! bytes unchanged; the time moves only if L2 pressure was slowing the look-back.
//! Determinism: as stage 4 (not promised for float and double; ints always the same).
//! Source: CUDA C++ Programming Guide, "Load Functions Using Cache Hints" (__ldcs, __stcs); PTX ISA,
//! cache operators (.cs).
#pragma once
#include "scan_stage_6_more_items.cuh"

namespace ch08 {

//! Streaming loads and stores: cache at all levels, likely accessed once (evict first).
struct StreamingCache {
  //! __ldcs(p)
  template <class V>
  __device__ static V load(const V* p) { return __ldcs(p); }
  //! __stcs(p, v)
  template <class V>
  __device__ static void store(V* p, const V& v) { __stcs(p, v); }
};

//! Launches stage 7.
inline void launch_scan_stage_7(const harness::ScanArgs& a) {
  launch_single_pass_vec<kStage6Vectors, StreamingCache>(a);
}

//! Stage 7: stage 6 with streaming cache hints.
inline harness::Stage<harness::Scan> scan_stage_7_stage() {
  harness::Stage<harness::Scan> s = single_pass_vec_stage<kStage6Vectors, StreamingCache>();
  s.name = "scan_stage_7";
  s.label = "streaming cache hints";
  s.change = "data loads and stores marked evict-first (__ldcs, __stcs), so L2 keeps the look-back status";
  s.source = "CUDA C++ Programming Guide, load and store functions using cache hints";
  s.launch = launch_scan_stage_7;
  return s;
}

}  // namespace ch08
