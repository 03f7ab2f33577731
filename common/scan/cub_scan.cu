#include <cub/device/device_scan.cuh>

#include <climits>
#include <cstdint>
#include <string>

#include "cuda_check.hpp"
#include "errors.hpp"
#include "scan/cub_scan.hpp"

// CUB's DeviceScan::ExclusiveSum / InclusiveSum take their item count as `int` up to CCCL 2.6
// (CUDA 12.4 ships 2.3, 12.5 2.4, 12.6 2.5) and as a template NumItemsT, with 64-bit offsets for a
// 64-bit count, from CCCL 2.7 (CUDA 12.8) on (CCCL's cub/device/device_scan.cuh at v2.6.0 and
// v2.7.0). With an int count, n past 2^31 - 1 would be truncated: such a build refuses it.
#if defined(CCCL_VERSION) && CCCL_VERSION >= 2007000
#define HARNESS_CUB_SCAN_64BIT_COUNT 1
#else
#define HARNESS_CUB_SCAN_64BIT_COUNT 0
#endif

namespace harness {

namespace {

//! Why this build's CUB cannot scan n elements ("" when it can): with an int count, n past 2^31 - 1.
std::string cub_scan_count_gap(std::size_t n) {
  if (HARNESS_CUB_SCAN_64BIT_COUNT || n <= static_cast<std::size_t>(INT_MAX)) return "";
  std::string cccl = "CCCL ?";
#if defined(CCCL_VERSION)
  cccl = "CCCL " + std::to_string(CCCL_VERSION / 1000000) + "." + std::to_string(CCCL_VERSION / 1000 % 1000);
#endif
  return "CUB's DeviceScan in " + cccl + " counts items with int; n = " + std::to_string(n) +
         " is past 2^31 - 1, which needs CCCL 2.7 (CUDA 12.8) or newer";
}

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

//! CUB's scan of `a` with the narrowest count type this CCCL takes for n: uint32 up to 2^32 - 1 and
//! uint64 past it (CCCL 2.7 and newer), int up to 2^31 - 1 (older CCCL, refusing larger n).
//! @throws UnsupportedError past 2^31 - 1 on an older CCCL (before CUB is called)
template <class T>
void cub_scan_dispatch(void* temp, std::size_t& temp_bytes, const ScanArgs& a) {
  const std::string gap = cub_scan_count_gap(a.n);
  if (!gap.empty()) throw UnsupportedError("cub::DeviceScan: " + std::string(kCannotRunHere) + " with this build: " + gap);
#if HARNESS_CUB_SCAN_64BIT_COUNT
  if (a.n <= UINT32_MAX) cub_scan_call<T, std::uint32_t>(temp, temp_bytes, a);
  else cub_scan_call<T, std::uint64_t>(temp, temp_bytes, a);
#else
  cub_scan_call<T, int>(temp, temp_bytes, a);
#endif
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
  // Before CCCL 2.7 CUB counts a scan's items with int: n past 2^31 - 1 refused (check_device_fit).
  s.device_rule = [](const ScanArgs& a, const DeviceLimits&) { return cub_scan_count_gap(a.n); };
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
