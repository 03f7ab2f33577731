// The GPU work of the multi-GPU programs (see multi_gpu_kernels.hpp): chapter 8's stage 5 reused for
// each GPU's shard, its second pass reused to add the partials on one GPU, and one new kernel, the
// element-wise sum of the peer-copy all-reduce.
#include "multi_gpu_kernels.hpp"

#include <string>

#include "cuda_check.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "reduce_stage_5_vectorized.cuh"

namespace multi_gpu {

namespace {

// The launch arguments of stage 5 for one shard: a sum over n elements.
harness::ReduceArgs shard_args(harness::DType type, const void* in, std::size_t n, void* out,
                               void* workspace, std::size_t workspace_bytes, int block, cudaStream_t stream) {
  harness::ReduceArgs a;
  a.type = type;
  a.op = harness::Op::sum;
  a.in = in;
  a.n = n;
  a.out = out;
  a.workspace = workspace;
  a.workspace_size = workspace_bytes;
  a.block = block;
  a.stream = stream;
  return a;
}

//! Up to kMaxArrays device pointers, passed to the kernel by value.
template <class T>
struct ArrayList {
  const T* ptr[kMaxArrays];  //!< the arrays
  int count;                 //!< how many of ptr are used
};

//! out[i] = sum over g of in.ptr[g][i], in the order g = 0, 1, ..., for i < m.
//! @tparam T float or int
//! @param[in] in in.count arrays of m elements
//! @param[in] m elements per array
//! @param[out] out m elements
//! Launch: any grid; each thread strides over the elements (the index is size_t, it never wraps).
template <class T>
__global__ void elementwise_sum(ArrayList<T> in, std::size_t m, T* out) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m; i += stride) {
    T s = in.ptr[0][i];
    for (int g = 1; g < in.count; ++g) s += in.ptr[g][i];
    out[i] = s;
  }
}

}  // namespace

std::size_t shard_workspace_bytes(harness::DType type, std::size_t n, int block) {
  if (n == 0) return 0;
  const harness::ReduceArgs a = shard_args(type, nullptr, n, nullptr, nullptr, 0, block, nullptr);
  return ch08::partials_bytes(a, ch08::reduce_stage_5_grid(a));
}

void reduce_shard(harness::DType type, const void* in, std::size_t n, void* out, void* workspace,
                  int block, cudaStream_t stream) {
  if (n == 0) {  // the sum of no elements: 0 (all-zero bits, for float and int64 alike)
    CUDA_CHECK(cudaMemsetAsync(out, 0, harness::dtype_size(partial_type(type)), stream));
    return;
  }
  const harness::ReduceArgs a =
      shard_args(type, in, n, out, workspace, shard_workspace_bytes(type, n, block), block, stream);
  ch08::launch_reduce_stage_5(a);
  CUDA_CHECK_LAUNCH();
}

void sum_partials(harness::DType acc, const void* partials, int count, void* out, cudaStream_t stream) {
  constexpr int B = ch08::kSecondPassBlock;
  if (acc == harness::DType::f32) {
    ch08::reduce_second_pass<float, ch08::Sum, B><<<1, B, 0, stream>>>(
        static_cast<const float*>(partials), static_cast<std::size_t>(count), static_cast<float*>(out), ch08::Sum{});
  } else if (acc == harness::DType::i64) {
    ch08::reduce_second_pass<long long, ch08::Sum, B><<<1, B, 0, stream>>>(
        static_cast<const long long*>(partials), static_cast<std::size_t>(count), static_cast<long long*>(out),
        ch08::Sum{});
  } else {
    throw harness::UsageError("sum_partials: partials must be float or int64");
  }
  CUDA_CHECK_LAUNCH();
}

namespace {

template <class T>
void sum_arrays_as(const void* const* arrays, int count, std::size_t m, void* out, cudaStream_t stream) {
  ArrayList<T> list{};
  list.count = count;
  for (int g = 0; g < count; ++g) list.ptr[g] = static_cast<const T*>(arrays[g]);
  constexpr int kBlock = 256;
  // One full wave of resident blocks, fewer for a small m (occupancy_grid, as chapter 8 sizes grids).
  const std::size_t grid = harness::occupancy_grid(reinterpret_cast<const void*>(&elementwise_sum<T>), kBlock, m, 1);
  elementwise_sum<T><<<static_cast<unsigned>(grid), kBlock, 0, stream>>>(list, m, static_cast<T*>(out));
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void sum_arrays(harness::DType type, const void* const* arrays, int count, std::size_t m, void* out,
                cudaStream_t stream) {
  if (count < 1 || count > kMaxArrays)
    throw harness::UsageError("sum_arrays: between 1 and " + std::to_string(kMaxArrays) + " arrays, not " +
                              std::to_string(count));
  if (m == 0) return;
  if (type == harness::DType::f32) sum_arrays_as<float>(arrays, count, m, out, stream);
  else if (type == harness::DType::i32) sum_arrays_as<int>(arrays, count, m, out, stream);
  else throw harness::UsageError("sum_arrays: float or int only");
}

}  // namespace multi_gpu
