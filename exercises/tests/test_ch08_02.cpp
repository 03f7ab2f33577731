// Exercise ch08/02, max and min with the identity and the NaN rule: one source, built against the
// stub (exercise_ch08_02, label exercise) and against the solution (solutions_ch08, its [ch08_02]
// test case, in the default run).
#include <climits>
#include <cstddef>
#include <limits>
#include <vector>

#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support_ch08.hpp"
#include "sweep.hpp"

using exercise_support_ch08::check_reduce_input;
using harness::Op;

namespace {

// Values -500 .. 499 in a scrambled order, shifted by `shift`.
template <class T>
std::vector<T> spread(std::size_t n, T shift) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(static_cast<long long>((i * 7919) % 1000) - 500) + shift;
  return v;
}

template <class T>
void special_float_inputs(const harness::Stage<harness::Reduce>& st) {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    check_reduce_input(st, Op::max, "all values negative", spread<T>(n, T(-1000)));
    check_reduce_input(st, Op::min, "all values positive", spread<T>(n, T(1000)));
    check_reduce_input(st, Op::max, "all -inf", std::vector<T>(n, -inf));
    check_reduce_input(st, Op::min, "all +inf", std::vector<T>(n, inf));
    for (Op op : {Op::max, Op::min}) {
      for (std::size_t pos : {std::size_t{0}, n / 2, n - 1}) {
        std::vector<T> v = spread<T>(n, T(0));
        v[pos] = nan;
        check_reduce_input(st, op, "a NaN at element " + std::to_string(pos), v);
      }
      std::vector<T> zeros(n, T(0));
      for (std::size_t i = 0; i < n; i += 2) zeros[i] = T(-0.0);
      check_reduce_input(st, op, "alternating -0.0 / +0.0", zeros);
    }
  }
}

}  // namespace

TEST_CASE("ch08/02 max and min: every size, block size and type", "[gpu][ch08][ch08_02]") {
  CHECK(testing_support::sweep(exercise_stage("ch08/02"), exercise_support_ch08::reduce_sweep({Op::max, Op::min})) > 0);
}
TEST_CASE("ch08/02 max and min: the identity (all negative, all positive, infinities, INT_MIN / INT_MAX)",
          "[gpu][ch08][ch08_02]") {
  const auto st = exercise_stage("ch08/02");
  special_float_inputs<float>(st);
  special_float_inputs<double>(st);
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{1000}, (std::size_t{1} << 20) + 3}) {
    check_reduce_input(st, Op::max, "all values negative", spread<int>(n, -1000));
    check_reduce_input(st, Op::min, "all values positive", spread<int>(n, 1000));
    check_reduce_input(st, Op::max, "all INT_MIN", std::vector<int>(n, INT_MIN));
    check_reduce_input(st, Op::min, "all INT_MAX", std::vector<int>(n, INT_MAX));
  }
}
