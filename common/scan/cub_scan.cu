#include <cub/device/device_scan.cuh>

#include <cstdint>

#include "cuda_check.hpp"
#include "scan/cub_scan.hpp"

namespace harness {

namespace {

// One call of CUB for T; with temp == nullptr it only sets temp_bytes.
template <class T, class Count>
void cub_scan_call(void* temp, std::size_t& temp_bytes, const ScanArgs& a) {
  const auto n = static_cast<Count>(a.n);
  const T* in = static_cast<const T*>(a.in);
  T* out = static_cast<T*>(a.out);
  if (a.inclusive)
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n, a.stream));
  else
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n, a.stream));
}

template <class T>
void cub_scan_dispatch(void* temp, std::size_t& temp_bytes, const ScanArgs& a) {
  if (a.n <= UINT32_MAX) cub_scan_call<T, std::uint32_t>(temp, temp_bytes, a);
  else cub_scan_call<T, std::uint64_t>(temp, temp_bytes, a);
}

}  // namespace

Stage<Scan> cub_scan_stage() {
  Stage<Scan> s;
  s.name = "cub::DeviceScan";
  s.label = "CUB";
  s.change = "the library baseline (CCCL's CUB, shipped with the CUDA Toolkit)";
  s.source = "CUB, cub::DeviceScan::ExclusiveSum / InclusiveSum";
  s.deterministic = false;
  s.caps.in_place = true;  // CUB documents d_in == d_out as supported
  s.grid_for = [](const ScanArgs&) { return std::size_t{1}; };  // CUB chooses its own grid
  s.workspace_bytes = [](const ScanArgs& a) {
    std::size_t bytes = 0;
    ScanArgs q = a;
    q.in = nullptr;
    q.out = nullptr;
    with_input_type(a.type, [&](auto t) { cub_scan_dispatch<decltype(t)>(nullptr, bytes, q); });
    return bytes;
  };
  // CUB's tiles hold at least 256 elements; each look-back hop adds at most a warp reduction
  // (5 levels) and two additions: the same upper bound as the repository's look-back stages.
  s.depth = [](const ScanArgs& a) { return 64.0 + 7.0 * static_cast<double>((a.n + 255) / 256); };
  s.launch = [](const ScanArgs& a) {
    std::size_t bytes = a.workspace_size;
    with_input_type(a.type, [&](auto t) { cub_scan_dispatch<decltype(t)>(a.workspace, bytes, a); });
  };
  return s;
}

}  // namespace harness
