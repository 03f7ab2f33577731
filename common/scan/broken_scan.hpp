//! @file broken_scan.hpp
//! @brief Deliberately broken scans for the self-test: every output shifted by one, or input
//! elements lost (lost_elements.hpp). The check must fail each one, at every n and seed; if one
//! ever passes, the check cannot fail and proves nothing.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "lost_elements.hpp"
#include "scan/cub_scan.hpp"

namespace harness {

//! The arguments with the other scan asked: inclusive for exclusive and the other way round.
inline ScanArgs flipped_scan(const ScanArgs& a) {
  ScanArgs b = a;
  b.inclusive = !a.inclusive;
  return b;
}

//! CUB's scan asked the wrong question: the inclusive scan where the exclusive one is asked
//! (out[i] = correct[i + 1]) and the exclusive scan where the inclusive one is asked
//! (out[i] = correct[i - 1], out[0] = 0). Program: scan_broken --bug shifted.
inline Stage<Scan> broken_shifted_scan_stage() {
  Stage<Scan> s = cub_scan_stage();
  s.name = "scan_broken";
  s.label = "broken: shifted by one";
  s.change = "deliberately wrong for the self-test: inclusive where exclusive is asked and the other way round";
  s.source = "the harness self-test";
  s.workspace_bytes = [inner = s.workspace_bytes](const ScanArgs& a) { return inner(flipped_scan(a)); };
  s.launch = [](const ScanArgs& a) { launch_cub_scan(flipped_scan(a)); };
  return s;
}

//! Workspace bytes of broken_lost_scan_stage's copy of the input (0 where it scans the input itself).
inline std::size_t lost_scan_copy_bytes(const ScanArgs& a, Lost lost) {
  const bool copies = lost == Lost::first || lost == Lost::block_firsts;
  return copies ? (a.n * dtype_size(a.type) + 255) / 256 * 256 : 0;
}

//! Enqueues CUB's scan with the input elements `Lost` names lost (see broken_lost_scan_stage).
template <Lost L>
void launch_lost_scan(const ScanArgs& a) {
  const LostElements keep = lost_elements(L, a.n, static_cast<std::size_t>(a.block));
  ScanArgs b = a;
  const std::size_t copy = lost_scan_copy_bytes(a, L);
  b.workspace = static_cast<unsigned char*>(a.workspace) + copy;
  b.workspace_size = a.workspace_size - copy;
  if (copy > 0) {
    const std::size_t size = dtype_size(a.type);
    auto* in = static_cast<unsigned char*>(a.workspace);
    CUDA_CHECK(cudaMemcpyAsync(in, a.in, a.n * size, cudaMemcpyDeviceToDevice, a.stream));
    if (keep.begin > 0) CUDA_CHECK(cudaMemsetAsync(in, 0, keep.begin * size, a.stream));
    for (int k = 0; k < keep.num_skipped; ++k)
      CUDA_CHECK(cudaMemsetAsync(in + keep.skipped[k] * size, 0, size, a.stream));
    b.in = in;
  } else {
    b.n = keep.end;
    if (b.n == 0) return;  // nothing left to scan: every output keeps the poison
  }
  launch_cub_scan(b);
}

//! CUB's scan, losing input elements as `lost` says (blocks of a.block elements):
//! - first, block_firsts: the scan runs on a copy of the input (in the workspace) whose lost
//!   elements are zero, so every later prefix misses them;
//! - last, last_three: the scan runs on the first n - 1 (n - 3) elements only, so the last
//!   outputs are never written (they keep the poison).
//! Program: scan_broken --bug skip-first|drop-last|drop-last-3|skip-block-firsts.
inline Stage<Scan> broken_lost_scan_stage(Lost lost) {
  const Stage<Scan> cub = cub_scan_stage();
  Stage<Scan> s = cub;
  s.name = "scan_broken";
  s.label = "broken: " + lost_label(lost, "element");
  s.change = "deliberately wrong for the self-test: CUB's scan with input elements lost";
  s.source = "the harness self-test";
  s.workspace_bytes = [inner = cub.workspace_bytes, lost](const ScanArgs& a) {
    return lost_scan_copy_bytes(a, lost) + inner(a);
  };
  s.launch = with_lost(lost, [](auto bug) { return &launch_lost_scan<decltype(bug)::value>; });
  return s;
}

//! The command-line names of scan_broken's bugs: shifted, then lost_names().
inline std::vector<std::string> scan_bug_names() {
  std::vector<std::string> names{"shifted"};
  for (const std::string& n : lost_names()) names.push_back(n);
  return names;
}

//! Every broken scan, in the order of scan_bug_names().
inline std::vector<Stage<Scan>> broken_scan_stages() {
  return {broken_shifted_scan_stage(), broken_lost_scan_stage(Lost::first),
          broken_lost_scan_stage(Lost::last), broken_lost_scan_stage(Lost::last_three),
          broken_lost_scan_stage(Lost::block_firsts)};
}

}  // namespace harness
