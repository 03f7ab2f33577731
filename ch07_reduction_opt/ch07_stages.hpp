//! @file ch07_stages.hpp
//! @brief Chapter 7's stages as harness::ReduceImpl values, for the stage programs, the ladder and
//! the tests. Every stage sums float, double or int with block sizes 32..1024 (stage 6: 64..1024).
#pragma once
#include <vector>

#include "reduce_impl.hpp"
#include "stage_driver.hpp"

//! Chapter 7: the reduction article's stages 0 to 8: kernels, launchers and ReduceImpl factories.
namespace ch07 {

harness::ReduceImpl reduce_kernel_0_impl();  //!< atomicAdd per element (article section 2)
harness::ReduceImpl reduce_kernel_1_impl();  //!< shared-memory tree, modulo branch (section 3)
harness::ReduceImpl reduce_kernel_2_impl();  //!< register accumulator (section 5)
harness::ReduceImpl reduce_kernel_3_impl();  //!< strided index (section 6)
harness::ReduceImpl reduce_kernel_4_impl();  //!< sequential addressing (section 7)
harness::ReduceImpl reduce_kernel_5_impl();  //!< unrolled by compile-time block size (section 8)
harness::ReduceImpl reduce_kernel_6_legacy_impl();    //!< last warp unrolled, volatile (section 9)
harness::ReduceImpl reduce_kernel_6_syncwarp_impl();  //!< last warp unrolled, __syncwarp (section 9)
harness::ReduceImpl reduce_kernel_7_impl();  //!< warp shuffle (section 10)
harness::ReduceImpl reduce_kernel_8_impl();  //!< thread coarsening, grid-stride loop (section 11)
harness::ReduceImpl reduce_kernel_9_impl();   //!< 16-byte loads, independent accumulators (past the article)
harness::ReduceImpl reduce_kernel_10_impl();  //!< grid from the occupancy API (past the article)
harness::ReduceImpl reduce_kernel_11_impl();  //!< single launch, last block finishes, deterministic

//! Stage 6's program: `--last-warp syncwarp` (default) or `--last-warp volatile`.
harness::StageProgram reduce_kernel_6_program();

//! Every stage of the chapter, in ladder order (stage 6 in both forms).
std::vector<harness::ReduceImpl> all_stages();

}  // namespace ch07
