// Stage 2 as a harness::ReduceImpl: its description and how it is launched.
#include "ch08_launch.cuh"
#include "ch08_reduce_stages.hpp"
#include "reduce_stage_2_coarsened.cuh"

namespace ch08 {

harness::ReduceImpl reduce_stage_2_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_stage_2";
  meta.label = "thread coarsening";
  meta.change = "each thread first folds many elements in a grid-stride loop; one tree per block of many elements";
  meta.source = "chapter 8, section 8.4";
  meta.grid_stride = true;
  meta.grid_for = resident_grid_rule([](auto t, auto op, auto block) {
    return reinterpret_cast<const void*>(
        &reduce_stage_2<decltype(t), decltype(op), decltype(block)::value, PlainBarrier>);
  });
  return make_two_pass_stage(meta, [](auto t, auto op, auto block, const harness::ReduceArgs& a,
                                      std::size_t grid, auto* partials) {
    using T = decltype(t);
    constexpr int kBlock = decltype(block)::value;
    reduce_stage_2<T, decltype(op), kBlock>
        <<<grid, kBlock, 0, a.stream>>>(input_as<T>(a), a.n, partials, op, PlainBarrier{});
  });
}

}  // namespace ch08
