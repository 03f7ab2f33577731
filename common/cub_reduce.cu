#include <cub/device/device_reduce.cuh>

#include "cub_reduce.hpp"
#include "cuda_check.hpp"

namespace harness {

namespace {

// One call of CUB for (T, op); with temp == nullptr it only sets temp_bytes.
template <class T, class OutT>
void cub_call(void* temp, std::size_t& temp_bytes, const ReduceArgs& a) {
  const T* in = static_cast<const T*>(a.in);
  OutT* out = static_cast<OutT*>(a.out);
  const auto n = static_cast<long long>(a.n);
  switch (a.op) {
    case Op::sum: CUDA_CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, a.stream)); break;
    case Op::max: CUDA_CHECK(cub::DeviceReduce::Max(temp, temp_bytes, in, out, n, a.stream)); break;
    case Op::min: CUDA_CHECK(cub::DeviceReduce::Min(temp, temp_bytes, in, out, n, a.stream)); break;
  }
}

std::size_t cub_temp_bytes(const ReduceArgs& a, bool wide) {
  std::size_t bytes = 0;
  ReduceArgs q = a;
  q.in = nullptr;
  q.out = nullptr;
  if (wide) cub_call<int, long long>(nullptr, bytes, q);
  else with_input_type(a.type, [&](auto t) { cub_call<decltype(t), decltype(t)>(nullptr, bytes, q); });
  return bytes;
}

}  // namespace

ReduceImpl cub_reduce_impl() {
  ReduceImpl impl;
  impl.name = "cub::DeviceReduce";
  impl.label = "CUB";
  impl.change = "the library baseline (CCCL's CUB, shipped with the CUDA Toolkit)";
  impl.source = "CUB, cub::DeviceReduce";
  impl.ops = {Op::sum, Op::max, Op::min};
  impl.grid_for = [](const ReduceArgs&) { return std::size_t{1}; };  // CUB chooses its own grid
  impl.workspace_bytes = [](const ReduceArgs& a) { return cub_temp_bytes(a, false); };
  impl.launch = [](const ReduceArgs& a) {
    std::size_t bytes = a.workspace_size;
    with_input_type(a.type, [&](auto t) { cub_call<decltype(t), decltype(t)>(a.workspace, bytes, a); });
  };
  return impl;
}

ReduceImpl cub_reduce_wide_int_impl() {
  ReduceImpl impl = cub_reduce_impl();
  impl.name = "cub::DeviceReduce (int64 sum)";
  impl.types = {DType::i32};
  impl.ops = {Op::sum};
  impl.out_type = [](DType, Op) { return DType::i64; };
  impl.workspace_bytes = [](const ReduceArgs& a) { return cub_temp_bytes(a, true); };
  impl.launch = [](const ReduceArgs& a) {
    std::size_t bytes = a.workspace_size;
    cub_call<int, long long>(a.workspace, bytes, a);
  };
  return impl;
}

void copy_ceiling(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
}

}  // namespace harness
