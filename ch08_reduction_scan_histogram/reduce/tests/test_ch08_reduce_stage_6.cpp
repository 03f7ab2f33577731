// GPU tests of chapter 8's reduce_stage_6, the binned sum (reduce_stage_6_binned.cuh): the same
// bits as the CPU's binned sum (common/reduce/binned_sum.hpp) for every block size from 64 to 1024,
// grids from 1 block to past the device's full wave, a shuffled copy of the input, inputs that do
// not start on a 16-byte boundary, and n = 2^31 + 1; NaN and infinities as the page says; the
// exact check on +-1 data, as for every stage (the sweep). Int, max and min are refused (exit 2,
// CPU tests in CMakeLists.txt).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "binned_sum.hpp"
#include "catch.hpp"
#include "ch08_reduce_stages.hpp"
#include "cuda_raii.hpp"
#include "device_info.hpp"
#include "session.hpp"
#include "sweep.hpp"

using namespace harness;
using Sweep = testing_support::Sweep<harness::Reduce>;

namespace {

const Stage<Reduce>& stage6() {
  static const Stage<Reduce> s = ch08::reduce_stage_named("reduce_stage_6");
  return s;
}

// The grids every bit-identity test runs: 1 block, a few odd counts, the SM count, the default
// full wave (0), and twice the full wave (blocks with nothing to read).
std::vector<std::size_t> grids_for(Session<Reduce>& s) {
  const std::size_t wave = grid_of(stage6(), s.args_for(stage6(), 256, 0));
  const auto sms = static_cast<std::size_t>(query_device().sm_count);
  return {1, 2, 3, 7, 64, sms, wave - 1, 0, 2 * wave};
}

// Runs stage 6 on `s` at every block size from 64 to 1024 and every grid of grids_for; each run must
// pass the stage's check (bit equality with the CPU's binned sum, or the exact check on exact data)
// and all must give one bit pattern. Returns it.
std::vector<unsigned char> same_bits_everywhere(Session<Reduce>& s, const std::string& what) {
  std::set<std::vector<unsigned char>> bits;
  for (int block = 64; block <= 1024; block *= 2) {
    for (std::size_t grid : grids_for(s)) {
      INFO(what << ": " << dtype_name(s.type()) << ", n " << s.n() << ", block " << block << ", grid " << grid
                << ", seed " << testing_support::run_seed());
      const Verification v = s.run_and_check(stage6(), s.args_for(stage6(), block, grid));
      INFO(v.message);
      CHECK(v.ok);
      bits.insert(s.last_output());
    }
  }
  CHECK(bits.size() == 1);
  return *bits.begin();
}

template <class T>
std::vector<unsigned char> as_bytes(const std::vector<T>& v) {
  const auto* b = reinterpret_cast<const unsigned char*>(v.data());
  return std::vector<unsigned char>(b, b + v.size() * sizeof(T));
}

template <class T>
std::vector<unsigned char> bits_of(T x) {
  std::vector<unsigned char> b(sizeof x);
  std::memcpy(b.data(), &x, sizeof x);
  return b;
}

// Stage 6 on `v` at a few blocks and grids: one bit pattern, the CPU's binned sum's; returns it.
template <class T>
T run_on(const std::vector<T>& v, const std::string& what) {
  Stream stream;
  Session<Reduce> s(dtype_of<T>(), {}, as_bytes(v), v.size(), false, stream.get());
  std::set<std::vector<unsigned char>> bits;
  for (int block : {64, 256, 1024})
    for (std::size_t grid : {std::size_t{1}, std::size_t{5}, std::size_t{0}}) {
      INFO(what << ": " << dtype_name(dtype_of<T>()) << ", n " << v.size() << ", block " << block << ", grid " << grid);
      const Verification v6 = s.run_and_check(stage6(), s.args_for(stage6(), block, grid));
      INFO(v6.message);
      CHECK(v6.ok);
      bits.insert(s.last_output());
    }
  CHECK(bits.size() == 1);
  T out;
  std::memcpy(&out, s.last_output().data(), sizeof out);
  CHECK(bits_of(out) == bits_of(binned_sum_cpu(v.data(), v.size())));
  return out;
}

}  // namespace

TEST_CASE("reduce_stage_6: the sweep (sizes, blocks, exact and signed data)", "[gpu][ch08][reduce_stage_6]") {
  Sweep sw;
  sw.types = {DType::f32, DType::f64};
  sw.dists = {"signed", "skewed", Reduce::exact_dist()};
  CHECK(testing_support::sweep(stage6(), sw) > 0);
}

TEST_CASE("reduce_stage_6: one bit pattern for blocks 64..1024 and grids 1 .. past the full wave",
          "[gpu][ch08][reduce_stage_6][determinism]") {
  for (DType t : {DType::f32, DType::f64}) {
    for (const char* dist : {"signed", "uniform", "skewed"}) {
      for (std::size_t n : {std::size_t{1000}, (std::size_t{1} << 24) + 3}) {
        Session<Reduce>& s = testing_support::cached_session<Reduce>(t, {}, n, dist, testing_support::run_seed());
        same_bits_everywhere(s, dist);
      }
    }
  }
}

TEST_CASE("reduce_stage_6: a shuffled copy of the input gives the same bits", "[gpu][ch08][reduce_stage_6][determinism]") {
  const std::size_t n = (std::size_t{1} << 22) + 5;
  for (DType t : {DType::f32, DType::f64}) {
    std::vector<unsigned char> host = Reduce::generate(t, {}, n, "skewed", testing_support::run_seed());
    Stream stream;
    Session<Reduce> first(t, {}, host, n, false, stream.get());
    const Verification v = first.run_and_check(stage6(), first.args_for(stage6(), 256, 0));
    INFO(v.message);
    CHECK(v.ok);
    const std::vector<unsigned char> before = first.last_output();
    // Shuffle whole elements.
    const std::size_t esize = dtype_size(t);
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(testing_support::run_seed() + 1));
    std::vector<unsigned char> shuffled(host.size());
    for (std::size_t i = 0; i < n; ++i) std::memcpy(&shuffled[i * esize], &host[order[i] * esize], esize);
    Session<Reduce> second(t, {}, shuffled, n, false, stream.get());
    CHECK(same_bits_everywhere(second, "shuffled") == before);
  }
}

TEST_CASE("reduce_stage_6: values over many binades, and levels that differ between threads",
          "[gpu][ch08][reduce_stage_6]") {
  std::mt19937_64 rng(testing_support::run_seed());
  std::uniform_real_distribution<double> mantissa(-1, 1), exponent(-30, 30);
  std::vector<float> wide(1 << 20);
  for (float& x : wide) x = static_cast<float>(mantissa(rng) * std::pow(10.0, exponent(rng)));
  run_on(wide, "float, 1e-30 .. 1e30");
  std::vector<double> wide_d(1 << 20);
  std::uniform_real_distribution<double> exponent_d(-300, 300);
  for (double& x : wide_d) x = mantissa(rng) * std::pow(10.0, exponent_d(rng));
  run_on(wide_d, "double, 1e-300 .. 1e300");
  // Small values everywhere, one large value late: most threads stay low, one rises, the block and
  // the second pass bring every partial to its level.
  std::vector<float> late(3000017, 1e-3f);
  late[2999999] = 3e9f;
  run_on(late, "one large value at the end");
  // Subnormals only (the lowest level), and the largest finite values (the highest).
  run_on(std::vector<float>(100003, std::numeric_limits<float>::denorm_min() * 7), "subnormals");
  std::vector<double> tops(1001, std::numeric_limits<double>::max() / 4);
  tops[500] = -std::numeric_limits<double>::max();
  run_on(tops, "largest doubles, cancelling");
}

TEST_CASE("reduce_stage_6: NaN and infinities give what the page says", "[gpu][ch08][reduce_stage_6][nan]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    std::vector<float> base(n);
    for (std::size_t i = 0; i < n; ++i) base[i] = static_cast<float>((i * 7919) % 1000) - 500.0f;
    for (std::size_t pos : {std::size_t{0}, n / 2, n - 1}) {
      std::vector<float> v = base;
      v[pos] = nan;
      CHECK(bits_of(run_on(v, "NaN at " + std::to_string(pos))) == bits_of(binned_nan<float>()));
      v[pos] = inf;
      CHECK(run_on(v, "+inf") == inf);
      v[pos] = -inf;
      CHECK(run_on(v, "-inf") == -inf);
      if (n > 1) {
        v[pos == 0 ? n - 1 : 0] = inf;
        CHECK(bits_of(run_on(v, "+inf and -inf")) == bits_of(binned_nan<float>()));
      }
    }
    const float mx = std::numeric_limits<float>::max();
    CHECK(run_on(std::vector<float>(n, mx), "largest floats") == (n == 1 ? mx : inf));
    CHECK(bits_of(run_on(std::vector<float>(n, -0.0f), "negative zeros")) == bits_of(0.0f));
  }
  std::vector<double> d(1000, 1.0);
  d[10] = std::numeric_limits<double>::quiet_NaN();
  CHECK(bits_of(run_on(d, "double NaN")) == bits_of(binned_nan<double>()));
}

TEST_CASE("reduce_stage_6: inputs that do not start on a 16-byte boundary", "[gpu][ch08][reduce_stage_6][alignment]") {
  // The scalar head and tail, as stage 5's test: the same values from offsets 0 to 3 (float) or 1
  // (double) elements past a 16-byte boundary give the same bits at every offset.
  for (DType type : {DType::f32, DType::f64}) {
    const std::size_t esize = dtype_size(type);
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
      const std::size_t lead = 16 / esize - 1;
      const std::vector<unsigned char> host = Reduce::generate(type, {}, n + lead, "signed", testing_support::run_seed());
      DeviceBuffer dev(host.size());
      CUDA_CHECK(cudaMemcpy(dev.data(), host.data(), dev.bytes(), cudaMemcpyHostToDevice));
      for (std::size_t offset = 0; offset <= lead; ++offset) {
        std::vector<unsigned char> part(host.begin() + offset * esize, host.begin() + (offset + n) * esize);
        Session<Reduce> s(type, {}, part, n, false, nullptr);
        for (std::size_t grid : {std::size_t{0}, std::size_t{3}}) {
          ReduceArgs a = s.args_for(stage6(), 256, grid);
          a.in = static_cast<const unsigned char*>(dev.data()) + offset * esize;  // misaligned by `offset`
          const Verification v = s.run_and_check(stage6(), a);
          INFO(dtype_name(type) << " n " << n << " offset " << offset << " grid " << grid << ": " << v.message);
          CHECK(v.ok);
        }
      }
    }
  }
}

TEST_CASE("reduce_stage_6 at n = 2^31 + 1: exact data, and one bit pattern on signed floats",
          "[gpu][ch08][reduce_stage_6][large]") {
  CHECK(testing_support::sweep(stage6(), testing_support::past_2e31<Reduce>()) > 0);
  std::string why;
  if (!testing_support::fits_device_memory(3 * testing_support::kPast2e31 * sizeof(float), "2^31 + 1 floats", why)) {
    WARN(why);
    return;
  }
  Session<Reduce>& s = testing_support::cached_session<Reduce>(DType::f32, {}, testing_support::kPast2e31, "signed",
                                                               testing_support::run_seed());
  std::set<std::vector<unsigned char>> bits;
  for (int block : {64, 256, 1024})
    for (std::size_t grid : {std::size_t{7}, std::size_t{0}}) {
      INFO("block " << block << ", grid " << grid);
      const Verification v = s.run_and_check(stage6(), s.args_for(stage6(), block, grid));
      INFO(v.message);
      CHECK(v.ok);
      bits.insert(s.last_output());
    }
  CHECK(bits.size() == 1);
}

TEST_CASE("reduce_stage_6 at n = 2^31 + 1, double, every grid of the bit test", "[.][long][gpu][ch08][reduce_stage_6][large]") {
  Session<Reduce>& s = testing_support::cached_session<Reduce>(DType::f64, {}, testing_support::kPast2e31, "skewed",
                                                               testing_support::run_seed());
  same_bits_everywhere(s, "skewed, past 2^31");
}
