//! @file broken_scan.hpp
//! @brief A deliberately broken scan for the self-test: every output is shifted by one element.
//! The check must fail it (on exact data, on ints, and on random floats, where the first prefixes'
//! bounds are far smaller than the shift).
#pragma once
#include "scan/cub_scan.hpp"

namespace harness {

//! CUB's scan asked the wrong question: the inclusive scan where the exclusive one is asked
//! (out[i] = correct[i + 1]) and the exclusive scan where the inclusive one is asked
//! (out[i] = correct[i - 1], out[0] = 0). Program: scan_broken_shifted.
inline Stage<Scan> broken_shifted_scan_stage() {
  Stage<Scan> s = cub_scan_stage();
  s.name = "scan_broken_shifted";
  s.label = "broken: shifted by one";
  s.change = "deliberately wrong for the self-test: inclusive where exclusive is asked and the other way round";
  s.source = "the harness self-test";
  auto flip = [](const ScanArgs& a) {
    ScanArgs b = a;
    b.inclusive = !a.inclusive;
    return b;
  };
  s.workspace_bytes = [inner = s.workspace_bytes, flip](const ScanArgs& a) { return inner(flip(a)); };
  s.launch = [inner = s.launch, flip](const ScanArgs& a) { inner(flip(a)); };
  return s;
}

}  // namespace harness
