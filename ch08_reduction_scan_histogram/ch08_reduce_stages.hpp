//! @file ch08_reduce_stages.hpp
//! @brief Chapter 8's reduction stages as harness::ReduceImpl values, for the stage programs, the
//! ladder and the tests. Every stage reduces float, double or int with sum, max or min, block sizes
//! 32..1024 (powers of two), writes one partial per block and finishes with a one-block second pass
//! (no atomics: deterministic). Int sums are exact: accumulated in long long, output int64.
#pragma once
#include <vector>

#include "reduce_impl.hpp"

namespace ch08 {

harness::ReduceImpl reduce_stage_0_impl();  //!< one thread does it all (section 8.2)
harness::ReduceImpl reduce_stage_1_impl();  //!< shared-memory tree, one element per thread (8.3)
harness::ReduceImpl reduce_stage_2_impl();  //!< thread coarsening, grid-stride loop (8.4)
harness::ReduceImpl reduce_stage_3_impl();  //!< tree to one warp, then warp shuffles (8.5)
harness::ReduceImpl reduce_stage_4_impl();  //!< complete block reduction, one barrier (8.6)

//! Every reduction stage of the chapter, in ladder order.
std::vector<harness::ReduceImpl> all_reduce_stages();

}  // namespace ch08
