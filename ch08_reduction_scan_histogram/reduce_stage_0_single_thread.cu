// Stage 0 as a harness::ReduceImpl: its description and how it is launched.
#include "ch08_launch.cuh"
#include "ch08_reduce_stages.hpp"
#include "reduce_stage_0_single_thread.cuh"

namespace ch08 {

harness::ReduceImpl reduce_stage_0_impl() {
  harness::ReduceImpl meta;
  meta.name = "reduce_stage_0";
  meta.label = "one thread does it all";
  meta.change = "the serial reference: thread 0 of one block folds every element in index order";
  meta.source = "chapter 8, section 8.2";
  meta.grid_for = [](const harness::ReduceArgs& a) { return std::size_t{a.n == 0 ? 0u : 1u}; };
  return make_two_pass_stage(meta, [](auto t, auto op, auto, const harness::ReduceArgs& a,
                                      std::size_t, auto* partials) {
    using T = decltype(t);
    reduce_stage_0<T><<<1, a.block, 0, a.stream>>>(input_as<T>(a), a.n, partials, op, PlainBarrier{});
  });
}

}  // namespace ch08
