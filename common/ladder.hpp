//! @file ladder.hpp
//! @brief A chapter's ladder: every stage, the CUB baseline and a copy ceiling timed on the same
//! input in one run, printed as a Markdown table and written as CSV / JSON / Markdown.
#pragma once
#include <string>
#include <vector>

#include "reduce_impl.hpp"

namespace harness {

//! What a ladder program runs.
struct LadderSpec {
  std::string program;              //!< program name, e.g. "reduce_ladder"
  std::string title;                //!< heading of the report
  std::vector<ReduceImpl> stages;   //!< in order; step speedups compare neighbours
  ReduceImpl baseline;              //!< the CUB equivalent
  ReduceImpl wide_int_baseline;     //!< optional: baseline for stages whose int output is int64
  bool with_op = false;             //!< offer --op (sum, max, min)
};

//! Runs a ladder. Flags: --n --type [--op] --block --dist --iters --warmup --seed --max-seconds
//! --no-flush --stages (comma-separated names) --csv --json --md. Each stage runs at --block, or at
//! its minimum block size if that is larger. The table has, per stage: time (median ms), GB/s,
//! % of peak DRAM bandwidth, step speedup (previous stage's time / this time), total speedup
//! (first stage's time / this time), ratio to CUB (CUB's time / this time; above 1 is faster than
//! CUB) and the verification. The copy row counts bytes read plus bytes written.
//! @return 0 when every stage verified, 1 otherwise, 2 for bad flags, 77 without a GPU.
int ladder_main(int argc, char** argv, const LadderSpec& spec);

}  // namespace harness
