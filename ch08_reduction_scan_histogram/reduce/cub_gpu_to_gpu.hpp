//! @file cub_gpu_to_gpu.hpp
//! @brief CUB's own reproducible sum, `cub::DeviceReduce` with
//! `cuda::execution::determinism::gpu_to_gpu` (CCCL 3.1, a binned accumulator after the same paper
//! as reduce_stage_6), as a row of reduce_ladder_ch08: the library baseline for stage 6. Built only
//! where CMake was given CCCL 3.1's headers (`-DTUTORIAL_CCCL31_INCLUDE=FOLDER`; CUDA 13.0 ships
//! CCCL 3.0, which does not have it); elsewhere the row is skipped with one line saying so.
#pragma once
#include "reduce_problem.hpp"

namespace ch08 {

//! The stage "cub_gpu_to_gpu": float and double sums, n < 2^31 (CUB's deterministic reduce takes
//! 32-bit offsets). Its workspace is CUB's temporary storage, asked for once per shape, so the timed
//! runs allocate nothing. Where this build has no CCCL 3.1 its `unavailable` says how to build it.
harness::Stage<harness::Reduce> cub_gpu_to_gpu_stage();

}  // namespace ch08
