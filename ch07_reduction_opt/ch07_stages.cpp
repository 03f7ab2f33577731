// The chapter's stages in ladder order.
#include "ch07_stages.hpp"

namespace ch07 {

std::vector<harness::ReduceImpl> all_stages() {
  return {reduce_kernel_0_impl(), reduce_kernel_1_impl(),         reduce_kernel_2_impl(),
          reduce_kernel_3_impl(), reduce_kernel_4_impl(),         reduce_kernel_5_impl(),
          reduce_kernel_6_legacy_impl(), reduce_kernel_6_syncwarp_impl(), reduce_kernel_7_impl(),
          reduce_kernel_8_impl(), reduce_kernel_9_impl(),         reduce_kernel_10_impl(),
          reduce_kernel_11_impl()};
}

}  // namespace ch07
