// Stage 6 as harness::ReduceImpl values, in both forms of the last-warp tail, and its program.
#include "ch07_stages.hpp"
#include "reduce_kernel_6_last_warp_unrolled.cuh"
#include "stage_launch.cuh"

namespace ch07 {

namespace {

template <LastWarp Tail>
harness::ReduceImpl stage6(const char* name, const char* label, const char* change) {
  harness::ReduceImpl meta;
  meta.name = name;
  meta.label = label;
  meta.change = change;
  meta.source = "article section 9";
  meta.min_block = 64;  // the tail reads sdata[tid + 32]
  return make_atomic_stage(meta, [](auto t, auto block, const harness::ReduceArgs& a, std::size_t grid) {
    using T = decltype(t);
    if constexpr (decltype(block)::value >= 64)
      reduce_kernel_6<T, decltype(block)::value, Tail>
          <<<grid, a.block, 0, a.stream>>>(input_as<T>(a), a.n, output_as<T>(a));
  });
}

}  // namespace

harness::ReduceImpl reduce_kernel_6_syncwarp_impl() {
  return stage6<LastWarp::syncwarp>(
      "reduce_kernel_6", "last warp unrolled (__syncwarp)",
      "strides 16..1 run in warp 0 without __syncthreads; __syncwarp orders each step (correct on Volta+)");
}

harness::ReduceImpl reduce_kernel_6_legacy_impl() {
  return stage6<LastWarp::legacy_volatile>(
      "reduce_kernel_6_volatile", "last warp unrolled (legacy volatile)",
      "strides 16..1 run in warp 0 through a volatile pointer with no synchronisation (a race since Volta)");
}

harness::StageProgram reduce_kernel_6_program() {
  harness::StageProgram p;
  p.variants = {reduce_kernel_6_syncwarp_impl(), reduce_kernel_6_legacy_impl()};
  p.variant_flag = "--last-warp";
  p.variant_names = {"syncwarp", "volatile"};
  p.variant_help =
      "Warp tail: syncwarp (correct on Volta and later) or volatile (the legacy, racy form)";
  return p;
}

}  // namespace ch07
