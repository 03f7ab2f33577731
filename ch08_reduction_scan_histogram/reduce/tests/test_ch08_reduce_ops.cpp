// CPU tests of chapter 8's reduction operators (reduce_ops.cuh, compiled here as plain C++): the
// identities, the accumulator types, the NaN policy, order independence, and agreement with the
// CPU reference of common/reference.cpp, which follows the same policy. Also the barrier arithmetic,
// and stage 8's run word (run_epochs.cuh): its epochs, tickets and the add that ends a run.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "barrier_count.hpp"
#include "catch.hpp"
#include "reduce_ops.cuh"
#include "reduce_reference.hpp"
#include "run_epochs.cuh"

using namespace ch08;

namespace {

template <class T, class Op>
accumulator_t<Op, T> fold(const std::vector<T>& v, Op op) {
  using Acc = accumulator_t<Op, T>;
  Acc acc = Op::template identity<Acc>();
  for (T x : v) acc = op(acc, static_cast<Acc>(x));
  return acc;
}

// Pairwise (tree-shaped) fold: a different order from the left fold above.
template <class A, class Op>
A tree_fold(std::vector<A> v, Op op) {
  if (v.empty()) return Op::template identity<A>();
  while (v.size() > 1) {
    std::vector<A> next;
    for (std::size_t i = 0; i < v.size(); i += 2) next.push_back(i + 1 < v.size() ? op(v[i], v[i + 1]) : v[i]);
    v.swap(next);
  }
  return v[0];
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace

TEST_CASE("accumulator types: int sums are 64-bit, everything else keeps its type", "[cpu][ch08][ops]") {
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Sum, int>, long long>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Sum, float>, float>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Sum, double>, double>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Max, int>, int>);
  STATIC_REQUIRE(std::is_same_v<accumulator_t<Min, float>, float>);
  STATIC_REQUIRE(Sum::op == harness::Op::sum);
  STATIC_REQUIRE(Max::op == harness::Op::max);
  STATIC_REQUIRE(Min::op == harness::Op::min);
}

TEST_CASE("identities: 0 for sum, -inf/+inf and INT_MIN/INT_MAX for max/min", "[cpu][ch08][ops]") {
  CHECK(Sum::identity<long long>() == 0);
  CHECK(Sum::identity<float>() == 0.0f);
  CHECK(Sum::identity<double>() == 0.0);
  CHECK(Max::identity<float>() == -kInf);
  CHECK(Max::identity<double>() == -std::numeric_limits<double>::infinity());
  CHECK(Max::identity<int>() == INT_MIN);
  CHECK(Min::identity<float>() == kInf);
  CHECK(Min::identity<double>() == std::numeric_limits<double>::infinity());
  CHECK(Min::identity<int>() == INT_MAX);
}

TEST_CASE("an identity is absorbed by every value, infinities and extremes included", "[cpu][ch08][ops]") {
  const std::vector<float> fs{0.0f, -0.0f, 1.5f, -1.5f, kInf, -kInf, std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::lowest(), std::numeric_limits<float>::denorm_min()};
  for (float x : fs) {
    INFO(x);
    CHECK(Max{}(Max::identity<float>(), x) == x);
    CHECK(Max{}(x, Max::identity<float>()) == x);
    CHECK(Min{}(Min::identity<float>(), x) == x);
    CHECK(Min{}(x, Min::identity<float>()) == x);
    if (std::isfinite(x)) CHECK(Sum{}(Sum::identity<float>(), x) == x);
    CHECK(std::isnan(Max{}(Max::identity<float>(), kNaN)));
    CHECK(std::isnan(Min{}(kNaN, Min::identity<float>())));
  }
  for (int x : {0, 1, -1, INT_MIN, INT_MAX}) {
    CHECK(Max{}(Max::identity<int>(), x) == x);
    CHECK(Min{}(x, Min::identity<int>()) == x);
  }
}

TEST_CASE("NaN policy: NaN propagates through max and min from either side", "[cpu][ch08][ops][nan]") {
  for (float x : {0.0f, -0.0f, 3.0f, -3.0f, kInf, -kInf, kNaN}) {
    INFO(x);
    CHECK(std::isnan(Max{}(kNaN, x)));
    CHECK(std::isnan(Max{}(x, kNaN)));
    CHECK(std::isnan(Min{}(kNaN, x)));
    CHECK(std::isnan(Min{}(x, kNaN)));
  }
  const double dn = std::numeric_limits<double>::quiet_NaN();
  CHECK(std::isnan(Max{}(dn, 1.0)));
  CHECK(std::isnan(Min{}(1.0, dn)));
  // Unlike std::fmax, which drops the NaN:
  CHECK_FALSE(std::isnan(std::fmax(kNaN, 1.0f)));
}

TEST_CASE("double max and min return the NaN operand, a's when both are NaN, else the extreme",
          "[cpu][ch08][ops][nan]") {
  // Two NaNs with different payloads, so that which operand came back shows in the bits.
  const auto bits = [](double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
  };
  const double nan1 = std::numeric_limits<double>::quiet_NaN();
  const std::uint64_t nan2_bits = bits(nan1) | 0x5u;
  double nan2;
  std::memcpy(&nan2, &nan2_bits, sizeof nan2);
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> xs = {nan1, nan2, 0.0, -0.0, 2.5, -2.5, inf, -inf, 1e-310};
  for (double a : xs)
    for (double b : xs) {
      INFO(a << " op " << b);
      const double want_max = std::isnan(a) ? a : std::isnan(b) ? b : (a > b ? a : b);
      const double want_min = std::isnan(a) ? a : std::isnan(b) ? b : (a < b ? a : b);
      CHECK(bits(Max{}(a, b)) == bits(want_max));
      CHECK(bits(Min{}(a, b)) == bits(want_min));
    }
}

TEST_CASE("signed zeros compare equal; ordinary values order as expected", "[cpu][ch08][ops]") {
  CHECK(Max{}(-0.0f, 0.0f) == 0.0f);
  CHECK(Max{}(0.0f, -0.0f) == 0.0f);
  CHECK(Min{}(-0.0f, 0.0f) == 0.0f);
  CHECK(Max{}(2.0, -7.0) == 2.0);
  CHECK(Min{}(2.0, -7.0) == -7.0);
  CHECK(Max{}(-kInf, kInf) == kInf);
  CHECK(Min{}(-kInf, kInf) == -kInf);
  CHECK(Max{}(INT_MIN, INT_MAX) == INT_MAX);
  CHECK(Min{}(INT_MIN, INT_MAX) == INT_MIN);
}

TEST_CASE("int sums accumulate exactly in 64 bits", "[cpu][ch08][ops]") {
  const std::vector<int> big(1000, INT_MAX);
  CHECK(fold(big, Sum{}) == 1000LL * INT_MAX);
  const std::vector<int> small(1000, INT_MIN);
  CHECK(fold(small, Sum{}) == 1000LL * INT_MIN);
}

TEST_CASE("max/min give the same answer in any order, and the same as the CPU reference",
          "[cpu][ch08][ops][nan]") {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 300;
    std::vector<float> v(n);
    for (float& x : v) x = u(rng);
    // Sprinkle specials: sometimes a NaN, infinities, signed zeros.
    if (trial % 3 == 0) v[rng() % n] = kNaN;
    if (trial % 5 == 0) v[rng() % n] = kInf;
    if (trial % 7 == 0) v[rng() % n] = -kInf;
    if (trial % 2 == 0) v[rng() % n] = -0.0f;
    for (harness::Op op : {harness::Op::max, harness::Op::min}) {
      const harness::ReduceReference ref = harness::compute_reference(v.data(), n, op);
      with_op(op, [&](auto o) {
        const float left = fold(v, o);
        std::vector<float> shuffled = v;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        const float tree = tree_fold(shuffled, o);
        INFO("trial " << trial << ", op " << harness::op_name(op) << ", n " << n);
        if (ref.has_nan) {
          CHECK(std::isnan(left));
          CHECK(std::isnan(tree));
          CHECK(std::isnan(ref.value));
        } else {
          CHECK(left == tree);
          CHECK(static_cast<double>(left) == ref.value);  // -0.0 == +0.0
        }
      });
    }
  }
}

TEST_CASE("an identity is never the answer of a non-empty input unless it is the true answer",
          "[cpu][ch08][ops]") {
  const std::vector<float> negatives{-5.0f, -3.0f, -1e30f};
  CHECK(fold(negatives, Max{}) == -3.0f);
  const std::vector<float> all_neg_inf{-kInf, -kInf};
  CHECK(fold(all_neg_inf, Max{}) == -kInf);  // the true answer
  const std::vector<int> ints{INT_MIN, INT_MIN};
  CHECK(fold(ints, Max{}) == INT_MIN);
  CHECK(fold(std::vector<int>{7}, Min{}) == 7);
}

TEST_CASE("with_op picks the functor of a run-time operator", "[cpu][ch08][ops]") {
  CHECK(with_op(harness::Op::sum, [](auto o) { return decltype(o)::op; }) == harness::Op::sum);
  CHECK(with_op(harness::Op::max, [](auto o) { return decltype(o)::op; }) == harness::Op::max);
  CHECK(with_op(harness::Op::min, [](auto o) { return decltype(o)::op; }) == harness::Op::min);
}

TEST_CASE("barrier arithmetic (exercise 1): log2(TILE) for the tree, 1 for the full kernel",
          "[cpu][ch08][barriers]") {
  CHECK(expected_barriers(1, 256) == 8);
  CHECK(expected_barriers(1, 512) == 9);
  CHECK(expected_barriers(2, 512) == 9);
  CHECK(expected_barriers(3, 256) == 3);
  CHECK(expected_barriers(3, 512) == 4);
  CHECK(expected_barriers(3, 32) == 0);
  CHECK(expected_barriers(4, 512) == 1);
  CHECK(expected_barriers(4, 32) == 1);
  CHECK(expected_barriers(0, 1024) == 0);
  CHECK(expected_barriers(5, 256) == 1);
  CHECK(expected_barriers(5, 32) == 1);
  CHECK(expected_barriers(6, 256) == -1);
  CHECK(expected_barriers(1, 100) == -1);
  CHECK(expected_barriers(1, 2048) == -1);
}

// ---- Stage 8's run word (run_epochs.cuh) --------------------------------------------------------

namespace {

// What `grid` blocks of stage 8 do to the run word `word`, in one order of their tickets (the order
// does not change what each count reads): how many drew the last ticket (both counts agreeing on
// grid - 1, with the epoch they started from), and the word after the run (the last block's add
// included). Every block starts from `word`'s epoch, as they do when it is not moved before the last
// ticket.
struct SimulatedRun {
  int last_tickets = 0;
  std::uint64_t after = 0;
};
SimulatedRun simulate_run(std::uint64_t word, unsigned grid) {
  SimulatedRun r;
  const unsigned epoch = stage8_epoch_of(word);
  const unsigned tag = stage8_next_epoch(epoch);
  for (unsigned b = 0; b < grid; ++b) {
    const std::uint64_t before = word;
    word += kStage8TicketStep;
    if (stage8_ticket_of(before) == grid - 1 && stage8_epoch_of(before) == epoch) {
      ++r.last_tickets;
      word += stage8_advance(epoch, tag, grid);
    }
  }
  r.after = word;
  return r;
}

}  // namespace

TEST_CASE("stage 8's epochs: 1, 2, ..., 2^32 - 2, then 1 again; never 0 or 2^32 - 1", "[cpu][ch08][stage8]") {
  CHECK(stage8_next_epoch(0) == 1u);
  CHECK(stage8_next_epoch(1) == 2u);
  CHECK(stage8_next_epoch(kStage8EpochMax - 1) == kStage8EpochMax);
  CHECK(stage8_next_epoch(kStage8EpochMax) == 1u);
  CHECK(stage8_next_epoch(0xFFFFFFFFu) == 1u);  // an all-ones word's epoch
  CHECK(kStage8EpochMax == 0xFFFFFFFEu);
  for (unsigned e : {0u, 1u, 2u, 1000u, kStage8EpochMax - 2, kStage8EpochMax - 1, kStage8EpochMax, 0xFFFFFFFFu}) {
    INFO("after epoch " << e);
    CHECK(stage8_next_epoch(e) != 0u);            // a cleared slot's tag
    CHECK(stage8_next_epoch(e) != 0xFFFFFFFFu);   // an all-ones slot's tag
  }
}

TEST_CASE("stage 8's run word: one last ticket per run, the word left at the next epoch with counts 0",
          "[cpu][ch08][stage8]") {
  for (unsigned epoch : {0u, 1u, 7u, kStage8EpochMax - 1, kStage8EpochMax}) {
    for (unsigned grid : {2u, 3u, 1000u, 4224u, static_cast<unsigned>(kStage8MaxGrid)}) {
      INFO("epoch " << epoch << ", grid " << grid);
      const SimulatedRun r = simulate_run(stage8_run_word_after(epoch), grid);
      CHECK(r.last_tickets == 1);
      CHECK(r.after == stage8_run_word_after(stage8_next_epoch(epoch)));
      CHECK(static_cast<std::uint32_t>(r.after) == 0u);  // what Session::check_output reads
    }
  }
  // The add that ends a run, on its own: counts at grid, epoch moved (across the wrap too).
  CHECK(stage8_run_word_after(5) + 9 * kStage8TicketStep + stage8_advance(5, 6, 9) == stage8_run_word_after(6));
  CHECK(stage8_run_word_after(kStage8EpochMax) + 9 * kStage8TicketStep + stage8_advance(kStage8EpochMax, 1, 9) ==
        stage8_run_word_after(1));
}

TEST_CASE("stage 8's run word: a word no launch left hands out no last ticket", "[cpu][ch08][stage8]") {
  // The harness's 0xFF poison (both counts 0xFFFF, past every grid), and words whose two counts
  // differ: no block would wait, and the counts left are not 0.
  for (unsigned grid : {2u, 3u, 1000u, static_cast<unsigned>(kStage8MaxGrid)}) {
    INFO("all ones, grid " << grid);
    const SimulatedRun r = simulate_run(~std::uint64_t{0}, grid);
    CHECK(r.last_tickets == 0);
    CHECK(static_cast<std::uint32_t>(r.after) != 0u);
  }
  std::mt19937_64 rng(20261207);
  for (int k = 0; k < 2000; ++k) {
    std::uint64_t word = rng();
    if (stage8_ticket_of(word) != kStage8NoTicket) word ^= std::uint64_t{1} << 16;
    const unsigned grid = 2 + static_cast<unsigned>(rng() % (kStage8MaxGrid - 1));
    INFO("word " << word << ", grid " << grid);
    const SimulatedRun r = simulate_run(word, grid);
    CHECK(r.last_tickets == 0);
    CHECK(static_cast<std::uint32_t>(r.after) != 0u);
  }
  CHECK(stage8_ticket_of(stage8_run_word_after(3) | 5u | 5u << 16) == 5u);
  CHECK(stage8_ticket_of(stage8_run_word_after(3) | 5u | 6u << 16) == kStage8NoTicket);
}

TEST_CASE("stage 8's slots: 8 bytes for a 4-byte accumulator, 16 for an 8-byte one; the capacity",
          "[cpu][ch08][stage8]") {
  CHECK(stage8_slot_bytes(4) == 8u);
  CHECK(stage8_slot_bytes(8) == 16u);
  CHECK(kStage8SlotsOffset % 16 == 0);
  CHECK(kStage8ZeroedBytes == 8u);
  CHECK(stage8_capacity(kStage8SlotsOffset + 100 * 8, 4) == 100u);
  CHECK(stage8_capacity(kStage8SlotsOffset + 100 * 16 + 15, 8) == 100u);
  CHECK(stage8_capacity(kStage8SlotsOffset, 4) == 0u);
  CHECK(stage8_capacity(3, 8) == 0u);
  CHECK(stage8_capacity(std::size_t{1} << 30, 4) == kStage8MaxGrid);
}
