// cub::DeviceReduce's gpu_to_gpu sum (CCCL 3.1) as a stage, for reduce_ladder_ch08. Compiled in its
// own library, ch08_cub_gpu_to_gpu, whose include path puts CCCL 3.1's headers before the
// toolkit's when TUTORIAL_CCCL31_INCLUDE is set (CMakeLists.txt); otherwise the stage only says
// what it would need. Nothing else in the build sees CCCL 3.1: the two CUBs' symbols live in
// namespaces named for their versions.
#include "cub_gpu_to_gpu.hpp"

#include <limits>
#include <string>

#if defined(TUTORIAL_CCCL31)
#include <cub/device/dispatch/dispatch_reduce_deterministic.cuh>
#include <cub/version.cuh>
#include <cuda/std/functional>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
static_assert(CUB_VERSION >= 300100, "TUTORIAL_CCCL31_INCLUDE must point at CCCL 3.1 or newer");
#endif

namespace ch08 {

#if defined(TUTORIAL_CCCL31)
namespace {

// CUB's deterministic dispatch with temporary storage from the caller, the two-phase form of
// cub::DeviceReduce::Reduce(in, out, n, cuda::std::plus{}, T(0), require(gpu_to_gpu)) (whose
// public form allocates its temporary storage on every call). With temp == nullptr: bytes only.
template <class T>
void gpu_to_gpu_sum(void* temp, std::size_t& bytes, const harness::ReduceArgs& a) {
  using Dispatch = cub::detail::DispatchReduceDeterministic<const T*, T*, int, T>;
  CUDA_CHECK(Dispatch::Dispatch(temp, bytes, a.input<T>(), a.output<T>(), static_cast<int>(a.n), T(0), a.stream));
}

template <class F>
void with_float_type(harness::DType t, F&& f) {
  if (t == harness::DType::f64) f(double{});
  else f(float{});
}

}  // namespace
#endif

harness::Stage<harness::Reduce> cub_gpu_to_gpu_stage() {
  harness::Stage<harness::Reduce> s;
  s.name = "cub_gpu_to_gpu";
  s.label = "CUB, gpu_to_gpu determinism";
  s.change = "the library's reproducible sum: cub::DeviceReduce with cuda::execution::determinism::gpu_to_gpu (CCCL 3.1)";
  s.source = "CUB (CCCL 3.1), DispatchReduceDeterministic";
  s.types = {harness::DType::f32, harness::DType::f64};
  s.caps.ops = {harness::Op::sum};
  s.deterministic = true;
  s.instead = "reduce_stage_6";
  s.grid_for = [](const harness::ReduceArgs&) { return std::size_t{1}; };  // CUB chooses its own grid
  s.depth = [](const harness::ReduceArgs& a) { return static_cast<double>(a.n); };  // no order documented: worst case
#if defined(TUTORIAL_CCCL31)
  s.device_rule = [](const harness::ReduceArgs& a, const harness::DeviceLimits&) -> std::string {
    if (a.n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      return "CUB's deterministic reduce takes at most 2^31 - 1 elements (32-bit offsets)";
    return {};
  };
  s.workspace_bytes = [](const harness::ReduceArgs& a) {
    std::size_t bytes = 0;
    harness::ReduceArgs q = a;
    q.in = nullptr;
    q.out = nullptr;
    with_float_type(a.type, [&](auto t) { gpu_to_gpu_sum<decltype(t)>(nullptr, bytes, q); });
    return bytes;
  };
  s.launch = [](const harness::ReduceArgs& a) {
    std::size_t bytes = a.workspace_size;
    with_float_type(a.type, [&](auto t) { gpu_to_gpu_sum<decltype(t)>(a.workspace, bytes, a); });
  };
#else
  s.unavailable = "this build has no CCCL 3.1 (CUDA 13.0 ships CCCL 3.0, without gpu_to_gpu determinism); configure with "
                  "-DTUTORIAL_CCCL31_INCLUDE=<the include/cccl folder of PyPI's nvidia-cuda-cccl 13.1 wheel>";
#endif
  return s;
}

}  // namespace ch08
