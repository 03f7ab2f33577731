// GPU tests of chapter 8's reduction stages beyond the standard sweep:
//  - max / min on hand-built inputs: NaN anywhere (the NaN policy: the result is NaN), infinities,
//    negative zero, all-equal values, a single element, extremes of int;
//  - int sums past the 32-bit range are exact (int64 output);
//  - explicit grids for the grid-stride stages (1 block, odd counts, more blocks than elements);
//  - determinism: stage 4 twenty times on 2^26 floats gives one bit pattern (and every stage
//    repeats its bits on a smaller input);
//  - stage 5 on inputs that do not start on a 16-byte boundary (its scalar head and tail);
//  - barriers per block, measured with the instrumented kernels, equal the arithmetic.
#include <climits>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "barrier_count.hpp"
#include "catch.hpp"
#include "ch08_reduce_stages.hpp"
#include "cuda_raii.hpp"
#include "full_tile_checks.hpp"
#include "session.hpp"
#include "sweep.hpp"

using namespace harness;

namespace {

// Runs every stage on `data` with `op` at a few block sizes and checks each result against the CPU
// reference (max/min: exact, NaN must give NaN; sums: the error bound, or exact for ints).
template <class T>
void check_all_stages(const std::string& what, Op op, const std::vector<T>& data,
                      std::vector<int> blocks = {32, 256, 1024}) {
  Stream stream;
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  Reduce::Config config;
  config.op = op;
  Session<Reduce> session(dtype_of<T>(), config, std::vector<unsigned char>(bytes, bytes + data.size() * sizeof(T)),
                          data.size(), false, stream.get());
  for (const Stage<Reduce>& s : ch08::all_reduce_stages()) {
    for (int block : blocks) {
      INFO(what << ": " << s.name << ", " << dtype_name(dtype_of<T>()) << ", op " << op_name(op)
                << ", n " << data.size() << ", block " << block);
      const ReduceArgs a = session.args_for(s, block, 0);
      const Verification v = session.run_and_check(s, a);
      INFO(v.message);
      CHECK(v.ok);
    }
  }
}

template <class T>
void special_float_cases() {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    std::vector<T> base(n);
    for (std::size_t i = 0; i < n; ++i) base[i] = static_cast<T>((i * 7919) % 1000) - T(500);
    for (Op op : {Op::max, Op::min}) {
      // A NaN at the start, the middle, the end: the result must be NaN.
      for (std::size_t pos : {std::size_t{0}, n / 2, n - 1}) {
        std::vector<T> v = base;
        v[pos] = nan;
        check_all_stages("NaN at " + std::to_string(pos), op, v);
      }
      // Infinities.
      std::vector<T> v = base;
      v[n / 3] = inf;
      check_all_stages("one +inf", op, v);
      v[n - 1] = -inf;
      check_all_stages("+inf and -inf", op, v);
      check_all_stages("all -inf", op, std::vector<T>(n, -inf));
      check_all_stages("all +inf", op, std::vector<T>(n, inf));
      // Signed zeros: the result is a zero, either sign accepted.
      check_all_stages("all -0.0", op, std::vector<T>(n, T(-0.0)));
      std::vector<T> zeros(n, T(0));
      for (std::size_t i = 0; i < n; i += 2) zeros[i] = T(-0.0);
      check_all_stages("alternating -0.0 / +0.0", op, zeros);
      // All-equal values, and values all below zero (the identity -inf / +inf must not come back).
      check_all_stages("all equal", op, std::vector<T>(n, T(3.25)));
      std::vector<T> negative(n);
      for (std::size_t i = 0; i < n; ++i) negative[i] = -T(1) - static_cast<T>(i % 977);
      check_all_stages("all negative", op, negative);
      check_all_stages("all large positive", op, std::vector<T>(n, std::numeric_limits<T>::max()));
    }
  }
  // A single element of each kind.
  for (T x : {nan, inf, -inf, T(-0.0), T(0.0), T(42.5), std::numeric_limits<T>::lowest(),
              std::numeric_limits<T>::denorm_min()})
    for (Op op : {Op::sum, Op::max, Op::min}) check_all_stages("single element", op, std::vector<T>{x});
  // NaN in a sum propagates by IEEE arithmetic.
  std::vector<T> s(1000, T(1));
  s[500] = nan;
  check_all_stages("sum with a NaN", Op::sum, s);
}

}  // namespace

TEST_CASE("max/min over float: NaN, infinities, signed zeros, equal values, one element",
          "[gpu][ch08][reduce][nan]") {
  special_float_cases<float>();
}

TEST_CASE("max/min over double: NaN, infinities, signed zeros, equal values, one element",
          "[gpu][ch08][reduce][nan]") {
  special_float_cases<double>();
}

TEST_CASE("max/min over int: extremes, all equal, one element", "[gpu][ch08][reduce]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    for (Op op : {Op::max, Op::min}) {
      check_all_stages("all INT_MIN", op, std::vector<int>(n, INT_MIN));
      check_all_stages("all INT_MAX", op, std::vector<int>(n, INT_MAX));
      check_all_stages("all equal", op, std::vector<int>(n, -17));
      std::vector<int> v(n, 5);
      v[n / 2] = INT_MIN;
      v[n - 1] = INT_MAX;
      check_all_stages("INT_MIN and INT_MAX", op, v);
    }
  }
}

TEST_CASE("int sums past 32 bits are exact (int64 output)", "[gpu][ch08][reduce]") {
  const std::size_t n = (std::size_t{1} << 22) + 5;
  check_all_stages("all INT_MAX", Op::sum, std::vector<int>(n, INT_MAX), {256});
  check_all_stages("all INT_MIN", Op::sum, std::vector<int>(n, INT_MIN), {32, 1024});
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = (i % 3 == 0) ? INT_MIN : INT_MAX;
  check_all_stages("INT_MIN / INT_MAX mix", Op::sum, v, {128});
}

TEST_CASE("grid-stride stages accept any grid: 1 block, odd counts, more blocks than elements",
          "[gpu][ch08][reduce][grid]") {
  const auto stages = ch08::all_reduce_stages();
  for (std::size_t n : {std::size_t{33}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    for (Op op : {Op::sum, Op::max, Op::min}) {
      for (DType t : {DType::f32, DType::i32}) {
        Reduce::Config config;
        config.op = op;
        Session<Reduce>& s = testing_support::cached_session<Reduce>(t, config, n, "signed", testing_support::run_seed());
        for (std::size_t k = 2; k <= 4; ++k) {
          for (std::size_t grid : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{1000},
                                   std::size_t{100000}}) {
            for (int block : {32, 256}) {
              INFO(stages[k].name << ", " << dtype_name(t) << ", op " << op_name(op) << ", n " << n
                                  << ", grid " << grid << ", block " << block);
              const ReduceArgs a = s.args_for(stages[k], block, grid);
              const Verification v = s.run_and_check(stages[k], a);
              INFO(v.message);
              CHECK(v.ok);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("stage 4 is deterministic: 20 runs on 2^26 floats give one bit pattern",
          "[gpu][ch08][reduce_stage_4][determinism]") {
  const Stage<Reduce> s4 = ch08::reduce_stage_named("reduce_stage_4");
  Session<Reduce>& s = testing_support::cached_session<Reduce>(DType::f32, {}, std::size_t{1} << 26, "signed",
                                                               testing_support::run_seed());
  const ReduceArgs a = s.args_for(s4, 256, 0);
  std::set<std::vector<unsigned char>> bits;
  for (int r = 0; r < 20; ++r) {
    const Verification v = s.run_and_check(s4, a);
    INFO("run " << r << ": " << v.message);
    CHECK(v.ok);
    bits.insert(s.last_output());
  }
  CHECK(bits.size() == 1);
}

TEST_CASE("every stage repeats its bits (float sum, 2^22 + 7 elements, 5 runs)",
          "[gpu][ch08][reduce][determinism]") {
  Session<Reduce>& s = testing_support::cached_session<Reduce>(DType::f32, {}, (std::size_t{1} << 22) + 7, "signed",
                                                               testing_support::run_seed());
  for (const Stage<Reduce>& st : ch08::all_reduce_stages()) {
    INFO(st.name);
    const ReduceArgs a = s.args_for(st, 512, 0);
    std::set<std::vector<unsigned char>> bits;
    for (int r = 0; r < 5; ++r) {
      CHECK(s.run_and_check(st, a).ok);
      bits.insert(s.last_output());
    }
    CHECK(bits.size() == 1);
  }
}

TEST_CASE("stages 5, 7 and 10 handle inputs that do not start on a 16-byte boundary",
          "[gpu][ch08][reduce_stage_5][reduce_stage_7][reduce_stage_10][alignment]") {
  // The same exact values, read from offsets of 0 to 3 elements (0 to 1 for double) past a 16-byte
  // boundary: the scalar head, the vectors and the scalar tail must together read each element once.
  // Stage 5's loop (also stage 7's) and stage 10's tiles, each on its own grid and on 3 blocks.
  for (const char* name : {"reduce_stage_5", "reduce_stage_7", "reduce_stage_10"}) {
    const Stage<Reduce> st = ch08::reduce_stage_named(name);
    for (DType type : {DType::f32, DType::f64, DType::i32}) {
      const std::size_t esize = dtype_size(type);
      for (Op op : {Op::sum, Op::max, Op::min}) {
        Reduce::Config config;
        config.op = op;
        for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{1000},
                              (std::size_t{1} << 20) + 3}) {
          const std::size_t lead = 16 / esize - 1;  // the largest misalignment, in elements
          const std::vector<unsigned char> host =
              Reduce::generate(type, config, n + lead, "exact", testing_support::run_seed());
          DeviceBuffer dev(host.size());
          CUDA_CHECK(cudaMemcpy(dev.data(), host.data(), dev.bytes(), cudaMemcpyHostToDevice));
          for (std::size_t offset = 0; offset <= lead; ++offset) {
            INFO(name << ": " << dtype_name(type) << " " << op_name(op) << " n " << n << " offset " << offset
                      << " elements");
            std::vector<unsigned char> part(host.begin() + offset * esize, host.begin() + (offset + n) * esize);
            Session<Reduce> s(type, config, part, n, /*exact_data=*/true, nullptr);
            for (std::size_t grid : {std::size_t{0}, std::size_t{3}}) {
              ReduceArgs a = s.args_for(st, 256, grid);
              a.in = static_cast<const unsigned char*>(dev.data()) + offset * esize;  // misaligned by `offset`
              const Verification v = s.run_and_check(st, a);
              INFO("grid " << grid << ": " << v.message);
              CHECK(v.ok);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("stage 7's one-block kernel: a full tile and one element either side, aligned and not",
          "[gpu][ch08][reduce_stage_7][full_tile]") {
  testing_support::check_full_tile_and_neighbours(ch08::reduce_stage_named("reduce_stage_7"),
                                                  {DType::f32, DType::f64, DType::i32}, {Op::sum, Op::max, Op::min});
}

TEST_CASE("barriers per block, measured, equal the arithmetic (exercise 1)", "[gpu][ch08][reduce][barriers]") {
  for (int stage = 0; stage <= 5; ++stage) {
    for (int block = 32; block <= 1024; block *= 2) {
      const ch08::BarrierCount c = ch08::measure_barriers(stage, block, (std::size_t{1} << 20) + 3);
      INFO("stage " << stage << ", block " << block << ": measured " << c.min_per_block << ".."
                    << c.max_per_block << " over " << c.blocks << " blocks");
      CHECK(c.min_per_block == c.max_per_block);
      CHECK(static_cast<int>(c.min_per_block) == ch08::expected_barriers(stage, block));
    }
  }
}
