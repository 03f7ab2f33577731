//! @file ch08_reduce_stages.hpp
//! @brief Chapter 8's reduction stages as one list, for the ladder and the tests. Each stage lives
//! in its own header (`reduce_stage_<N>_<idea>.cuh`: the kernel, its two-pass launch, its Stage
//! value); this list only collects them. Every stage reduces float, double or int with sum, max or
//! min, block sizes 32..1024, and finishes with a one-block second pass (no atomics:
//! deterministic). Int sums are exact: accumulated in long long, output int64.
#pragma once
#include <string>
#include <vector>

#include "reduce_problem.hpp"

//! Chapter 8: reduction (sections 8.2 to 8.6), scan and histogram.
namespace ch08 {

//! Every reduction stage of the chapter, in ladder order.
std::vector<harness::Stage<harness::Reduce>> all_reduce_stages();

//! The reduction stage called `name` ("reduce_stage_0" .. "reduce_stage_5").
//! @throws std::out_of_range for an unknown name
harness::Stage<harness::Reduce> reduce_stage_named(const std::string& name);

//! Stage 4 with each block's partial added to the result by atomicAdd instead of the second pass:
//! the non-deterministic contrast of section 8.6 ("Determinism") that atomic_vs_deterministic
//! times against stage 4. Sum only; not in the ladder (reduce_stage_4_block_reduce.cuh).
harness::Stage<harness::Reduce> reduce_stage_4_atomic_finish();

}  // namespace ch08
