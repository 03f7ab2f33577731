//! @file cub_reduce.hpp
//! @brief The CUB baselines every reduction ladder is measured against, and the copy ceiling.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

#include "reduce_impl.hpp"

namespace harness {

//! cub::DeviceReduce::Sum / Max / Min over float, double and int, as a ReduceImpl (output type =
//! input type; ints wrap modulo 2^32 like the stages). Workspace: CUB's temporary storage.
ReduceImpl cub_reduce_impl();

//! cub::DeviceReduce::Sum of int inputs into a 64-bit (long long) output, accumulated in 64 bits:
//! the baseline for stages that sum ints exactly. Sum over int only.
ReduceImpl cub_reduce_wide_int_impl();

//! Enqueues a device-to-device copy of `bytes` bytes from `src` to `dst` on `stream`: the bandwidth
//! ceiling of a ladder (it moves 2 x bytes: a read and a write of each byte).
void copy_ceiling(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

}  // namespace harness
