// GPU tests of the harness itself, through the CUB baseline: sizes, identities, poisoning, timing,
// the streaming-read ceiling.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "catch.hpp"
#include "ceilings.hpp"
#include "cub_reduce.hpp"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "inputs.hpp"
#include "sweep.hpp"
#include "timing.hpp"

using namespace harness;
using namespace testing_support;

namespace {

Reduce::Config op_config(Op op) {
  Reduce::Config c;
  c.op = op;
  return c;
}

}  // namespace

TEST_CASE("device facts are sane", "[gpu][harness]") {
  const DeviceInfo d = query_device();
  CHECK(d.sm_count > 0);
  CHECK(d.l2_bytes > 0);
  CHECK(d.peak_bw_bytes_per_s > 1e11);
  CHECK(d.peak_fp32_flops_per_s > 1e12);
}

TEST_CASE("CUB baseline passes the standard sweep (sum, max, min)", "[gpu][harness][cub]") {
  Sweep<Reduce> s;
  s.configs = {op_config(Op::sum), op_config(Op::max), op_config(Op::min)};
  s.sizes = {0, 1, 33, 1000, (std::size_t{1} << 20) + 3};
  CHECK(sweep(cub_reduce_stage(), s) > 0);
}

TEST_CASE("n = 0 gives the identity without a launch", "[gpu][harness]") {
  for (Op op : {Op::sum, Op::max, Op::min}) {
    Session<Reduce>& s = cached_session<Reduce>(DType::f32, op_config(op), 0, "signed", 1);
    const Stage<Reduce> cub = cub_reduce_stage();
    CHECK(s.run_and_check(cub, s.args_for(cub, 256, 0)).ok);
  }
}

TEST_CASE("an unwritten output is caught by the poison", "[gpu][harness]") {
  Stage<Reduce> lazy = cub_reduce_stage();
  lazy.name = "does-nothing";
  lazy.launch = [](const ReduceArgs&) {};
  Session<Reduce>& s = cached_session<Reduce>(DType::f32, {}, 1000, "exact", 1);
  CHECK_FALSE(s.run_and_check(lazy, s.args_for(lazy, 256, 0)).ok);
  Session<Reduce>& si = cached_session<Reduce>(DType::i32, {}, 1000, "signed", 1);
  CHECK_FALSE(si.run_and_check(lazy, si.args_for(lazy, 256, 0)).ok);
}

TEST_CASE("event timing measures something positive", "[gpu][harness][timing]") {
  Session<Reduce>& s = cached_session<Reduce>(DType::f32, {}, 1 << 20, "signed", 1);
  const Stage<Reduce> cub = cub_reduce_stage();
  const ReduceArgs a = s.args_for(cub, 256, 0);
  TimingOptions t;
  t.warmup = 2;
  t.iters = 9;
  const TimingStats st = time_on_gpu([&](cudaStream_t) { run_stage(cub, a); }, t, s.stream(),
                                     query_device().l2_bytes);
  CHECK(st.iters == 9);
  CHECK(st.min_ms > 0);
  CHECK(st.median_ms >= st.min_ms);
}

TEST_CASE("the streaming read reads every byte at any alignment", "[gpu][harness][ceiling]") {
  // The xor of everything the blocks read equals the xor of the input words, head and tail included.
  for (std::size_t bytes : {std::size_t{1}, std::size_t{15}, std::size_t{1000}, (std::size_t{1} << 20) + 5}) {
    for (std::size_t offset : {0, 1, 3, 8})
    for (ReadGrid grid : {ReadGrid::wave, ReadGrid::coarse}) {
      std::vector<unsigned char> host(bytes + offset);
      for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(splitmix64(i) >> 7);
      DeviceBuffer in(host.size());
      CUDA_CHECK(cudaMemcpy(in.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
      DeviceBuffer sink(kReadSinkWords * sizeof(unsigned));
      sink.fill_bytes(0);
      read_ceiling(static_cast<const unsigned char*>(in.data()) + offset, bytes, sink.as<unsigned>(), nullptr, grid);
      std::vector<unsigned> out(kReadSinkWords);
      CUDA_CHECK(cudaMemcpy(out.data(), sink.data(), sink.bytes(), cudaMemcpyDeviceToHost));
      unsigned got = 0;
      for (unsigned v : out) got ^= v;
      // Expected: bytes read as scalars xor in as values, bytes inside 16-byte vectors as words.
      const auto* base = host.data() + offset;
      const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(static_cast<const unsigned char*>(in.data()) + offset);
      const std::size_t head = std::min<std::size_t>((16 - addr % 16) % 16, bytes);
      const std::size_t vecs = (bytes - head) / 16;
      unsigned want = 0;
      for (std::size_t i = 0; i < head; ++i) want ^= base[i];
      for (std::size_t v = 0; v < vecs * 4; ++v) {
        unsigned w;
        std::memcpy(&w, base + head + 4 * v, 4);
        want ^= w;
      }
      for (std::size_t i = head + vecs * 16; i < bytes; ++i) want ^= base[i];
      INFO("bytes " << bytes << " offset " << offset << " grid " << (grid == ReadGrid::wave ? "wave" : "coarse"));
      CHECK(got == want);
    }
  }
}
