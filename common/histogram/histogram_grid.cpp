// Occupancy of kernels with dynamic shared memory (see histogram_grid.hpp).
#include "histogram_grid.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "cuda_check.hpp"
#include "errors.hpp"

namespace harness {

void allow_dynamic_smem(const void* kernel, std::size_t dynamic_smem) {
  constexpr std::size_t kDefaultLimit = 48 * 1024;
  if (dynamic_smem <= kDefaultLimit) return;
  // Raised once per device and kernel (to the largest size asked so far), so that a timed launch
  // does not pay for the attribute call.
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, std::size_t> raised;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  std::size_t& limit = raised[{device, kernel}];
  if (dynamic_smem <= limit) return;
  int optin = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (dynamic_smem > static_cast<std::size_t>(optin))
    throw UsageError("this stage needs " + std::to_string(dynamic_smem) +
                     " bytes of shared memory per block; the device allows " + std::to_string(optin) +
                     " (use fewer bins or a smaller --block)");
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(dynamic_smem)));
  limit = dynamic_smem;
}

std::size_t resident_blocks_with_smem(const void* kernel, int block, std::size_t dynamic_smem) {
  allow_dynamic_smem(kernel, dynamic_smem);
  static std::mutex mutex;
  static std::map<std::tuple<int, const void*, int, std::size_t>, std::size_t> cache;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(device, kernel, block, dynamic_smem);
  auto it = cache.find(key);
  if (it == cache.end()) {
    int sms = 0, per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, dynamic_smem));
    it = cache.emplace(key, static_cast<std::size_t>(sms) * static_cast<std::size_t>(per_sm > 0 ? per_sm : 1)).first;
  }
  return it->second;
}

}  // namespace harness
