// The parts of the chapter-8 launch layer that are not templates: output types and the cached
// occupancy-based default grid.
#include <algorithm>

#include "ch08_launch.cuh"
#include "device_info.hpp"

namespace ch08 {

harness::DType stage_output_type(harness::DType in, harness::Op op) {
  return (in == harness::DType::i32 && op == harness::Op::sum) ? harness::DType::i64 : in;
}

std::size_t resident_grid(const void* kernel, int block, std::size_t n) {
  if (n == 0) return 0;
  return std::max<std::size_t>(1, std::min(harness::resident_blocks(kernel, block), harness::blocks_for(n, block)));
}

}  // namespace ch08
