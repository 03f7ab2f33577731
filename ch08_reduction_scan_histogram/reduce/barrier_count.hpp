//! @file barrier_count.hpp
//! @brief Barriers per block of chapter 8's reduction stages: the arithmetic, and a measurement
//! with the instrumented kernels (CountingBarrier) on the GPU. Answers the chapter's exercise 1.
#pragma once
#include <cstddef>

namespace ch08 {

//! Barriers one block of stage `stage` executes in its first pass, by arithmetic:
//! stage 0: 0; stages 1 and 2: log2(block); stage 3: log2(block) - 5; stages 4 and 5: 1.
//! (The second pass, one block for the whole reduction, adds log2(1024) + 1 = 11 barriers in every stage.)
//! @param[in] stage 0..5
//! @param[in] block a power of two, 32..1024
//! @return the count, or -1 for an unknown stage or block size
int expected_barriers(int stage, int block);

//! A measured barrier count of one stage at one block size.
struct BarrierCount {
  int stage = 0;            //!< 0..5
  int block = 0;            //!< threads per block
  std::size_t blocks = 0;   //!< blocks launched (all measured)
  unsigned min_per_block = 0;  //!< fewest barriers any block executed
  unsigned max_per_block = 0;  //!< most barriers any block executed
};

//! Runs the instrumented first pass of `stage` (float sum over n zeros) and reads back the number
//! of __syncthreads() thread 0 of each block passed. Grid: ceil(n / block) for stages 0..1 (stage 0:
//! 1 block), and 64 blocks for the grid-stride stages 2..5 (their count does not depend on the grid).
//! @param[in] stage 0..5
//! @param[in] block a power of two, 32..1024
//! @param[in] n input elements (> 0)
//! @throws UsageError for an unknown stage or block size; NoGpuError / CudaError from CUDA
BarrierCount measure_barriers(int stage, int block, std::size_t n);

}  // namespace ch08
