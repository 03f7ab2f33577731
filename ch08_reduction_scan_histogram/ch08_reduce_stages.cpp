// The chapter's reduction stages in ladder order.
#include "ch08_reduce_stages.hpp"

namespace ch08 {

std::vector<harness::ReduceImpl> all_reduce_stages() {
  return {reduce_stage_0_impl(), reduce_stage_1_impl(), reduce_stage_2_impl(),
          reduce_stage_3_impl(), reduce_stage_4_impl()};
}

}  // namespace ch08
