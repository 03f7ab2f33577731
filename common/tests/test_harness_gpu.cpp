// GPU tests of the harness itself, through the CUB baseline: sizes, identities, poisoning, timing.
#include <cmath>
#include <vector>

#include "catch.hpp"
#include "cub_reduce.hpp"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "stage_sweep.hpp"
#include "timing.hpp"

using namespace harness;
using namespace testing_support;

TEST_CASE("device facts are sane", "[gpu][harness]") {
  const DeviceInfo d = query_device();
  CHECK(d.sm_count > 0);
  CHECK(d.l2_bytes > 0);
  CHECK(d.peak_bw_bytes_per_s > 1e11);
  CHECK(d.peak_fp32_flops_per_s > 1e12);
}

TEST_CASE("CUB baseline passes the standard sweep (sum, max, min)", "[gpu][harness][cub]") {
  Sweep s;
  s.ops = {Op::sum, Op::max, Op::min};
  s.sizes = {0, 1, 33, 1000, (std::size_t{1} << 20) + 3};
  CHECK(sweep_stage(cub_reduce_impl(), s) > 0);
}

TEST_CASE("n = 0 gives the identity without a launch", "[gpu][harness]") {
  for (Op op : {Op::sum, Op::max, Op::min}) {
    ReduceSession& s = cached_session(DType::f32, op, 0, Dist::signed_uniform, 1);
    const ReduceArgs a = s.args_for(cub_reduce_impl(), 256, 0);
    CHECK(s.run_and_verify(cub_reduce_impl(), a).ok);
  }
}

TEST_CASE("an unwritten output is caught by the poison", "[gpu][harness]") {
  ReduceImpl lazy = cub_reduce_impl();
  lazy.name = "does-nothing";
  lazy.launch = [](const ReduceArgs&) {};
  ReduceSession& s = cached_session(DType::f32, Op::sum, 1000, Dist::signed_uniform, 1);
  CHECK_FALSE(s.run_and_verify(lazy, s.args_for(lazy, 256, 0)).ok);
  ReduceSession& si = cached_session(DType::i32, Op::sum, 1000, Dist::signed_uniform, 1);
  CHECK_FALSE(si.run_and_verify(lazy, si.args_for(lazy, 256, 0)).ok);
}

TEST_CASE("event timing measures something positive", "[gpu][harness][timing]") {
  ReduceSession& s = cached_session(DType::f32, Op::sum, 1 << 20, Dist::signed_uniform, 1);
  const ReduceImpl cub = cub_reduce_impl();
  const ReduceArgs a = s.args_for(cub, 256, 0);
  TimingOptions t;
  t.warmup = 2;
  t.iters = 9;
  const TimingStats st = time_on_gpu([&](cudaStream_t) { run_reduce(cub, a); }, t, s.stream(),
                                     query_device().l2_bytes);
  CHECK(st.iters == 9);
  CHECK(st.min_ms > 0);
  CHECK(st.median_ms >= st.min_ms);
}
