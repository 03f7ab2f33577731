// Stage 1 as a harness::ReduceImpl: its description and how it is launched.
#include "ch08_launch.cuh"
#include "ch08_reduce_stages.hpp"
#include "reduce_stage_1_shared_tree.cuh"

namespace ch08 {

harness::ReduceImpl reduce_stage_1_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_stage_1";
  meta.label = "shared-memory tree";
  meta.change = "every block loads one element per thread and halves them in shared memory, one barrier per level; one partial per block";
  meta.source = "chapter 8, section 8.3";
  return make_two_pass_stage(meta, [](auto t, auto op, auto block, const harness::ReduceArgs& a,
                                      std::size_t grid, auto* partials) {
    using T = decltype(t);
    constexpr int kBlock = decltype(block)::value;
    reduce_stage_1<T, decltype(op), kBlock>
        <<<grid, kBlock, 0, a.stream>>>(input_as<T>(a), a.n, partials, op, PlainBarrier{});
  });
}

}  // namespace ch08
