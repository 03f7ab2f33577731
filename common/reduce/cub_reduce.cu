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

Stage<Reduce> cub_reduce_stage() {
  Stage<Reduce> s;
  s.name = "cub::DeviceReduce";
  s.label = "CUB";
  s.change = "the library baseline (CCCL's CUB, shipped with the CUDA Toolkit)";
  s.source = "CUB, cub::DeviceReduce";
  s.caps.ops = {Op::sum, Op::max, Op::min};
  s.grid_for = [](const ReduceArgs&) { return std::size_t{1}; };  // CUB chooses its own grid
  s.workspace_bytes = [](const ReduceArgs& a) { return cub_temp_bytes(a, false); };
  s.depth = [](const ReduceArgs& a) { return static_cast<double>(a.n); };  // CUB documents no order: worst case
  s.launch = [](const ReduceArgs& a) {
    std::size_t bytes = a.workspace_size;
    with_input_type(a.type, [&](auto t) { cub_call<decltype(t), decltype(t)>(a.workspace, bytes, a); });
  };
  return s;
}

Stage<Reduce> cub_reduce_wide_int_stage() {
  Stage<Reduce> s = cub_reduce_stage();
  s.name = "cub::DeviceReduce (int64 sum)";
  s.types = {DType::i32};
  s.caps.ops = {Op::sum};
  s.caps.out_type = [](DType, Op) { return DType::i64; };
  s.workspace_bytes = [](const ReduceArgs& a) { return cub_temp_bytes(a, true); };
  s.launch = [](const ReduceArgs& a) {
    std::size_t bytes = a.workspace_size;
    cub_call<int, long long>(a.workspace, bytes, a);
  };
  return s;
}

}  // namespace harness
