//! @file multi_gpu_kernels.hpp
//! @brief The GPU work of the multi-GPU programs, as plain host functions (compiled by nvcc in
//! multi_gpu_kernels.cu, called from the C++ programs): each GPU's shard reduced by chapter 8's
//! stage 5 (the fastest single-GPU stage of the repository that sums int exactly into int64 and is
//! deterministic: 16-byte loads, four in flight per thread; chapter 7's stage 9 is as fast but sums
//! int in int), a few partials summed on one GPU, and G arrays summed element by element on one GPU.
//! Every function enqueues on the given stream of the *current* device (cudaSetDevice first) and
//! throws harness::CudaError when a launch fails.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

#include "dtype.hpp"

namespace multi_gpu {

//! The single-GPU stage that sums each shard (reduce_shard), as the tables name it.
inline constexpr const char* kShardStage = "reduce_stage_5";

//! Most arrays sum_arrays adds in one launch (the GPUs one process drives).
inline constexpr int kMaxArrays = 16;

//! Type of a shard's sum: int64 for int input (summed exactly, as chapter 8's stages do), the
//! input type otherwise (float for float).
//! @param[in] in input type: float or int
inline harness::DType partial_type(harness::DType in) {
  return in == harness::DType::i32 ? harness::DType::i64 : in;
}

//! Workspace bytes reduce_shard needs for n elements at `block` threads per block on the current
//! device: one partial per block of stage 5's grid (0 for n = 0).
//! @param[in] type input type: float or int
//! @param[in] n elements of the shard
//! @param[in] block threads per block (a power of two, 32..1024)
std::size_t shard_workspace_bytes(harness::DType type, std::size_t n, int block);

//! Sums one GPU's shard with chapter 8's stage 5 (launch_reduce_stage_5: vectorised grid-stride
//! fold, block reduction, second pass; deterministic, no atomics) into one value of
//! partial_type(type) at `out`.
//! An empty shard (n = 0) writes 0, the sum of no elements, without a kernel.
//! @param[in] type input type: float or int
//! @param[in] in n elements on the current device
//! @param[in] n elements (any value, 0 included)
//! @param[out] out one value of partial_type(type), on the current device
//! @param[in] workspace at least shard_workspace_bytes(type, n, block) bytes on the current device
//! @param[in] block threads per block of the first pass
//! @param[in] stream a stream of the current device
void reduce_shard(harness::DType type, const void* in, std::size_t n, void* out, void* workspace,
                  int block, cudaStream_t stream);

//! Sums `count` partials (of partial type `acc`) that lie on the current device into *out, in
//! index order, with chapter 8's second pass (one block): the peer-copy contrast's last step.
//! @param[in] acc type of the partials and of the result: float or int64
//! @param[in] partials count values on the current device
//! @param[in] count number of partials (>= 1)
//! @param[out] out one value on the current device
//! @param[in] stream a stream of the current device
void sum_partials(harness::DType acc, const void* partials, int count, void* out, cudaStream_t stream);

//! out[i] = arrays[0][i] + arrays[1][i] + ... + arrays[count - 1][i] for i < m, added in that
//! order (a grid-stride loop, one thread per element at a time). All arrays on the current device.
//! @param[in] type element type: float or int (int sums wrap like int arithmetic)
//! @param[in] arrays count device pointers (a host array of them)
//! @param[in] count 1..kMaxArrays
//! @param[in] m elements per array (0: nothing is launched)
//! @param[out] out m elements; may be one of the inputs
//! @param[in] stream a stream of the current device
//! @throws harness::UsageError when count is outside 1..kMaxArrays
void sum_arrays(harness::DType type, const void* const* arrays, int count, std::size_t m, void* out,
                cudaStream_t stream);

}  // namespace multi_gpu
