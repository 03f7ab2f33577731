// The parts of the chapter-8 launch layer that are not templates: output types and the cached
// occupancy-based default grid.
#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

#include "ch08_launch.cuh"

namespace ch08 {

harness::DType stage_output_type(harness::DType in, harness::Op op) {
  return (in == harness::DType::i32 && op == harness::Op::sum) ? harness::DType::i64 : in;
}

std::size_t resident_grid(const void* kernel, int block, std::size_t n) {
  if (n == 0) return 0;
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, std::size_t> cache;  // (device, kernel) -> blocks
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  std::size_t resident = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find({device, kernel});
    if (it == cache.end()) {
      int sms = 0, per_sm = 0;
      CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
      it = cache.emplace(std::make_pair(device, kernel),
                         static_cast<std::size_t>(sms) * static_cast<std::size_t>(std::max(per_sm, 1)))
               .first;
    }
    resident = it->second;
  }
  return std::max<std::size_t>(1, std::min(resident, harness::blocks_for(n, block)));
}

}  // namespace ch08
