//! @file streaming_read.hpp
//! @brief The histogram's bandwidth ceiling: read every sample once with 16-byte loads and write
//! almost nothing. No histogram stage can be faster than this kernel on the same bytes.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

namespace harness {

//! Enqueues a read of the `bytes` bytes at `in` (any alignment) on `stream`: a grid-stride loop of
//! 16-byte loads (__ldg of uint4, four in flight per thread), the unaligned head and tail byte by
//! byte, every value folded into a per-thread xor. A thread writes its xor to `sink[0]` only when
//! it equals `never` (pass a value the data cannot produce in practice, e.g. 0x9E3779B9), so the
//! loads cannot be optimised away and the writes are (almost) nothing.
//! Grid: the resident blocks of 256 threads (streaming_read_blocks()).
//! @param[out] sink one word of device memory
//! @throws CudaError on CUDA failures
void streaming_read(const void* in, std::size_t bytes, unsigned* sink, unsigned never,
                    cudaStream_t stream);

//! Blocks the streaming read launches: SMs x resident blocks of its kernel.
std::size_t streaming_read_blocks();

}  // namespace harness
