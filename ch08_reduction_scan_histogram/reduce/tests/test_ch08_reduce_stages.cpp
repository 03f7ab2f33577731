// GPU tests: every chapter-8 reduction stage against the CPU reference, for sum, max and min over
// float, double and int, on chapter 7's size list (0, 1, 31, 32, 33, 1000, block +-1, 2^20+3, 2^24),
// every supported block size (32..1024; sizes from 2^24 on at block 256), seeded signed data (sum:
// the stage's depth bound, or "not checked"; max/min: exact) and exact data (every element
// +1 or -1: equality), on poisoned outputs and workspaces. Int sums are compared exactly as int64.
// Also stage 4's atomic-finish contrast (atomic_vs_deterministic's), which sums only, and stage 7's
// own promises: any grid, a ticket counter it leaves at zero, a workspace nobody zeroed refused.
// Stage 8 (stage 7 with tagged partials) gets stage 7's tests and its own: one workspace shared by
// runs of different n and blocks with nothing zeroed between them, a CUDA graph of runs, the epoch's
// wrap-around, the slots its run of epoch 1 leaves (all 0), the run word it leaves after each run,
// and stage 7's bits on the same grid. Stage 9 (one thread block cluster, sm_90+) gets the sweep,
// every grid one cluster holds (and the refusal past it), one bit pattern over runs, and 2^31 + 1.
// Stage 10 (stage 7 with CUB's even shares) gets stage 7's tests, with grids of more blocks than tiles.
//
// Past 2^31: the default run takes stages 1-5 at n = 2^31 + 1 on one input (a float sum of exact
// data, block 256; stage 1 also at block 32), made once and shared by the stages. The exhaustive
// form, every (type, operator, data) with stage 0 once, is hidden ([long]: run by
// `test_ch08_reduce_stages.long`, CTest label `long`); it loops over the inputs outside and the
// stages inside, so that each 8-17 GB input is generated once for all stages, not once per stage.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "ch08_reduce_stages.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "inputs.hpp"
#include "run_epochs.cuh"
#include "run_stage.hpp"
#include "sweep.hpp"

using namespace harness;
using Sweep = testing_support::Sweep<harness::Reduce>;
using testing_support::cached_session;
using testing_support::run_seed;
using testing_support::runs_here;
using testing_support::sweep;

namespace {

const std::size_t kHuge = testing_support::kPast2e31;

// Every operator, chapter 7's sizes (2^31 + 1 is tested below).
Sweep all_ops() {
  Sweep s;
  s.configs.clear();
  for (Op op : {Op::sum, Op::max, Op::min}) {
    Reduce::Config c;
    c.op = op;
    s.configs.push_back(c);
  }
  return s;
}

Reduce::Config op_config(Op op) {
  Reduce::Config c;
  c.op = op;
  return c;
}

const Stage<Reduce>& stage7() {
  static const Stage<Reduce> s = ch08::reduce_stage_named("reduce_stage_7");
  return s;
}

const Stage<Reduce>& stage8() {
  static const Stage<Reduce> s = ch08::reduce_stage_named("reduce_stage_8");
  return s;
}

const Stage<Reduce>& stage10() {
  static const Stage<Reduce> s = ch08::reduce_stage_named("reduce_stage_10");
  return s;
}

const Stage<Reduce>& stage9() {
  static const Stage<Reduce> s = ch08::reduce_stage_named("reduce_stage_9");
  return s;
}

// Stage 8's run word (run_epochs.cuh): the last run's epoch (high 32 bits) and two ticket counts.
std::uint64_t run_word(const ReduceArgs& a) {
  std::uint64_t w = 0;
  CUDA_CHECK(cudaMemcpy(&w, a.workspace, sizeof w, cudaMemcpyDeviceToHost));
  return w;
}

// The tags of stage 8's first `count` slots (run_epochs.cuh: an 8-byte slot holds its tag in the
// high 32 bits, a 16-byte slot in the low 8 bytes), for an accumulator of `acc_bytes` bytes.
std::vector<std::uint64_t> slot_tags(const ReduceArgs& a, std::size_t acc_bytes, std::size_t count) {
  const std::size_t slot = ch08::stage8_slot_bytes(acc_bytes);
  std::vector<unsigned char> bytes(count * slot);
  if (count > 0)
    CUDA_CHECK(cudaMemcpy(bytes.data(), static_cast<const unsigned char*>(a.workspace) + ch08::kStage8SlotsOffset,
                          bytes.size(), cudaMemcpyDeviceToHost));
  std::vector<std::uint64_t> tags(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + i * slot, sizeof word);
    tags[i] = slot == 8 ? word >> 32 : word;
  }
  return tags;
}

// Bytes of stage 8's accumulator (and slot value) for `a`: 8 for double and the int sum, else 4.
std::size_t acc_bytes_of(const ReduceArgs& a) {
  return (a.type == DType::f64 || (a.type == DType::i32 && a.op == Op::sum)) ? 8 : 4;
}

// Slots the run of epoch 1 clears on `a`'s workspace (stage8_capacity).
std::size_t capacity_of(const ReduceArgs& a) { return ch08::stage8_capacity(a.workspace_size, acc_bytes_of(a)); }

// Poisons the output alone, on a's stream, as Session::poison does (0xFF bytes for float and
// double, 0x80 for int and int64), leaving the workspace as the last run left it.
void poison_output(const ReduceArgs& a) {
  const bool floating = a.type != DType::i32;
  CUDA_CHECK(cudaMemsetAsync(a.out, floating ? 0xFF : 0x80, acc_bytes_of(a), a.stream));
}

// A one-launch stage on grids of 1, 3, 1000 and 5000 blocks at block 128 (exact data: equality),
// whatever its own grid would be: for each type, operator and n given.
void check_any_grid(const Stage<Reduce>& st, std::initializer_list<DType> types, std::initializer_list<Op> ops,
                    std::initializer_list<std::size_t> sizes) {
  for (DType type : types) {
    for (Op op : ops) {
      for (std::size_t n : sizes) {
        Session<Reduce>& s = cached_session<Reduce>(type, op_config(op), n, "exact", run_seed());
        for (std::size_t grid : {std::size_t{1}, std::size_t{3}, std::size_t{1000}, std::size_t{5000}}) {
          INFO(st.name << ": " << dtype_name(type) << " " << op_name(op) << " n " << n << " grid " << grid);
          const Verification v = s.run_and_check(st, s.args_for(st, 128, grid));
          INFO(v.message);
          CHECK(v.ok);
          CHECK(v.kind == CheckKind::exact);
        }
      }
    }
  }
}

// The one-launch stages with stage 7's ticket (7 and 10): `runs` runs back to back on one workspace,
// prepared once (poison_for zeroes the ticket), on the default grid and on 7 blocks, for each n of
// `sizes`: each run right, all of one bit pattern, the counter zero at the end.
void check_ticket_left_zero(const Stage<Reduce>& st, std::initializer_list<std::size_t> sizes, int runs) {
  for (std::size_t n : sizes) {
    Session<Reduce>& s = cached_session<Reduce>(DType::f32, op_config(Op::sum), n, "signed", run_seed());
    for (std::size_t grid : {std::size_t{0}, std::size_t{7}}) {
      const ReduceArgs a = s.args_for(st, 256, grid);
      s.poison_for(st);
      std::set<std::vector<unsigned char>> patterns;
      for (int run = 0; run < runs; ++run) {
        run_stage(st, a);
        const Verification v = s.check_output(st, a);
        INFO(st.name << " n " << n << " grid " << grid << " (" << grid_of(st, a) << " blocks) run " << run << ": "
                     << v.message);
        REQUIRE(v.ok);
        patterns.insert(s.last_output());
      }
      CHECK(patterns.size() == 1);
      unsigned ticket = 1;
      CUDA_CHECK(cudaMemcpy(&ticket, a.workspace, sizeof ticket, cudaMemcpyDeviceToHost));
      CHECK(ticket == 0u);
    }
  }
}

// The same stages on a workspace nobody zeroed (random bytes, 2^20 ints, max): a ticket counter past
// the grid leaves no block the last, so the result stays poisoned; one below the grid makes a block
// finish early. Either way check_output must fail the run.
void check_unzeroed_workspace_refused(const Stage<Reduce>& st) {
  Session<Reduce>& s = cached_session<Reduce>(DType::i32, op_config(Op::max), std::size_t{1} << 20, "exact", run_seed());
  const ReduceArgs a = s.args_for(st, 256, 0);
  REQUIRE(grid_of(st, a) > 1);
  std::vector<std::uint32_t> junk(a.workspace_size / sizeof(std::uint32_t));
  std::uint64_t x = run_seed();
  for (std::uint32_t& w : junk) w = static_cast<std::uint32_t>((x = splitmix64(x)) >> 32);
  for (std::uint32_t start : {junk[0] | 0x80000000u, 3u}) {
    junk[0] = start;
    s.poison();
    CUDA_CHECK(cudaDeviceSynchronize());  // the poison ran on the session stream: done before the junk lands
    harness::copy_to_device(a.workspace, junk.data(), junk.size() * sizeof junk[0]);
    run_stage(st, a);
    const Verification v = s.check_output(st, a);
    INFO(st.name << ": ticket counter " << start << " before the run: " << v.message);
    CHECK_FALSE(v.ok);
  }
}

// The float sum and the int max of exact data at n = 2^31 + 1 (inputs shared by the stages), on the
// stage's own grid (0) and on each grid of `grids`.
void check_past_2e31(const Stage<Reduce>& st, std::initializer_list<std::size_t> grids = {0}) {
  for (auto [type, op] : {std::pair{DType::f32, Op::sum}, std::pair{DType::i32, Op::max}}) {
    Session<Reduce>& s = cached_session<Reduce>(type, op_config(op), testing_support::kPast2e31, "exact", run_seed());
    for (std::size_t grid : grids) {
      INFO(st.name << ": " << dtype_name(type) << " " << op_name(op) << " n " << testing_support::kPast2e31 << " grid "
                   << grid);
      const Verification v = s.run_and_check(st, s.args_for(st, 256, grid));
      INFO(v.message);
      CHECK(v.ok);
    }
  }
}

}  // namespace

TEST_CASE("reduce_stage_0: one thread does it all", "[gpu][ch08][reduce_stage_0]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_0"), all_ops()) > 0);
}

TEST_CASE("reduce_stage_1: shared-memory tree", "[gpu][ch08][reduce_stage_1]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_1"), all_ops()) > 0);
}

TEST_CASE("reduce_stage_2: thread coarsening", "[gpu][ch08][reduce_stage_2]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_2"), all_ops()) > 0);
}

TEST_CASE("reduce_stage_3: warp shuffles", "[gpu][ch08][reduce_stage_3]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_3"), all_ops()) > 0);
}

TEST_CASE("reduce_stage_4: complete block reduction", "[gpu][ch08][reduce_stage_4]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_4"), all_ops()) > 0);
}

// The contrast atomic_vs_deterministic runs against stage 4 (sum only): right on exact data in any
// order of the atomics, within its depth bound on signed floats.
TEST_CASE("reduce_stage_4_atomic: stage 4 with an atomic finish", "[gpu][ch08][reduce_stage_4]") {
  const Stage<Reduce> atomic = ch08::reduce_stage_4_atomic_finish();
  CHECK_FALSE(atomic.deterministic);
  CHECK(sweep(atomic) > 0);
}

TEST_CASE("reduce_stage_5: 16-byte loads, four in flight", "[gpu][ch08][reduce_stage_5]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_5"), all_ops()) > 0);
}

// Stage 7, one launch at every size (reduce_stage_7_one_launch.cuh): the sweep; grids of one block, a
// few and past a wave; runs back to back on one workspace that leave the ticket counter at zero and
// give one bit pattern; a workspace nobody zeroed, refused by the check; n = 2^31 + 1.
TEST_CASE("reduce_stage_7: one launch at every size", "[gpu][ch08][reduce_stage_7]") {
  CHECK(sweep(stage7(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_7 is right on any grid: one block, a few, past a wave", "[gpu][ch08][reduce_stage_7]") {
  check_any_grid(stage7(), {DType::f32, DType::i32}, {Op::sum, Op::max}, {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3});
}

TEST_CASE("reduce_stage_7 leaves its ticket counter zero: runs back to back, one bit pattern",
          "[gpu][ch08][reduce_stage_7][determinism]") {
  check_ticket_left_zero(stage7(), {std::size_t{1000}, std::size_t{1} << 16, (std::size_t{1} << 22) + 7}, 20);
}

TEST_CASE("reduce_stage_7 on a workspace nobody zeroed: no result taken from it",
          "[gpu][ch08][reduce_stage_7][workspace]") {
  check_unzeroed_workspace_refused(stage7());
}

TEST_CASE("reduce_stage_7 at n = 2^31 + 1 (float sum and int max, exact data)", "[gpu][ch08][reduce_stage_7][large]") {
  check_past_2e31(stage7());
}

// Stage 8, stage 7 with tagged partials (reduce_stage_8_tagged_finish.cuh): stage 7's tests, then
// its own. The sweep runs every size (0, 1, 31..33, 1000, block +- 1, 2^20 + 3, 2^24) and block on
// exact and signed data, each run the first after Session::poison_for (0xFF slots, run word zeroed:
// the run of epoch 1, which clears the slots); the tests below run epochs past 1 on one workspace.
TEST_CASE("reduce_stage_8: one launch at every size, tagged partials", "[gpu][ch08][reduce_stage_8]") {
  CHECK(sweep(stage8(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_8 is right on any grid: one block, a few, past a wave, the most it takes",
          "[gpu][ch08][reduce_stage_8]") {
  // 8192 blocks of 128 threads: 64 slots per thread of the last block, 16 rounds of loads for a
  // 16-byte slot (4 at a time); 65535 (kStage8MaxGrid): the most a 16-bit count holds; one more is
  // refused before any launch.
  for (DType type : {DType::f32, DType::f64, DType::i32}) {
    for (Op op : {Op::sum, Op::max}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
        Session<Reduce>& s = cached_session<Reduce>(type, op_config(op), n, "exact", run_seed());
        for (std::size_t grid : {std::size_t{1}, std::size_t{3}, std::size_t{1000}, std::size_t{5000},
                                 std::size_t{8192}, ch08::kStage8MaxGrid}) {
          INFO(dtype_name(type) << " " << op_name(op) << " n " << n << " grid " << grid);
          const Verification v = s.run_and_check(stage8(), s.args_for(stage8(), 128, grid));
          INFO(v.message);
          CHECK(v.ok);
          CHECK(v.kind == CheckKind::exact);
        }
        CHECK_THROWS_AS(s.args_for(stage8(), 128, ch08::kStage8MaxGrid + 1), UsageError);
      }
    }
  }
}

TEST_CASE("reduce_stage_8 across one block and one wave (exact data, block 256)", "[gpu][ch08][reduce_stage_8]") {
  // One block covers Block x 64 bytes; the grid grows by one block per trip of every thread (64 bytes
  // below harness::kTwoTripBytes of input, two trips, 128 bytes, from there) up to one full wave of
  // this GPU (grid_of at a large n), and stays there.
  for (DType type : {DType::f32, DType::f64, DType::i32}) {
    for (Op op : {Op::sum, Op::min}) {
      ReduceArgs probe;
      probe.type = type;
      probe.op = op;
      probe.block = 256;
      probe.n = std::size_t{1} << 28;
      const std::size_t wave = grid_of(stage8(), probe);
      const std::size_t per_block = 256 * 64 / dtype_size(type);             // one trip per thread
      const std::size_t two_trips_from = harness::kTwoTripBytes / dtype_size(type);  // the first n with two
      for (std::size_t n : {per_block - 1, per_block, per_block + 1, two_trips_from - 1, two_trips_from,
                            two_trips_from + 1, 2 * wave * per_block - 1, 2 * wave * per_block,
                            2 * wave * per_block + 1}) {
        const std::size_t n_per_block = n < two_trips_from ? per_block : 2 * per_block;
        Session<Reduce>& s = cached_session<Reduce>(type, op_config(op), n, "exact", run_seed());
        const ReduceArgs a = s.args_for(stage8(), 256, 0);
        INFO(dtype_name(type) << " " << op_name(op) << " n " << n << " (" << grid_of(stage8(), a) << " blocks, wave "
                              << wave << ")");
        const Verification v = s.run_and_check(stage8(), a);
        INFO(v.message);
        CHECK(v.ok);
        CHECK(grid_of(stage8(), a) == std::min(wave, (n + n_per_block - 1) / n_per_block));
      }
    }
  }
}

TEST_CASE("reduce_stage_8: runs back to back on one workspace with changing n, nothing zeroed between them",
          "[gpu][ch08][reduce_stage_8][determinism]") {
  // One workspace, prepared once as the harness prepares it (0xFF everywhere, then the run word
  // zeroed), shared by inputs of one block (n 1000), a few blocks (4099, 2^16) and a wave and more
  // (2^22 + 7) at blocks 128 and 512, in an order where a run of fewer blocks follows one of more
  // and the other way round, so that slots a larger run left sit past a smaller run's grid. Every
  // run is checked on exact data with its output poisoned before it; the runs of one input and
  // block give one bit pattern; after each run the run word holds the epoch of the last run of
  // more than one block, with both counts 0 (a one-block run leaves it alone); after the run of
  // epoch 1 every slot of the workspace is 0; after a later run its slots carry its epoch.
  // float and int max: 8-byte slots; double and int sum: 16-byte slots.
  for (auto [type, op] : {std::pair{DType::f32, Op::sum}, std::pair{DType::i32, Op::max},
                          std::pair{DType::f64, Op::min}, std::pair{DType::i32, Op::sum}}) {
    Stream stream;
    std::vector<std::unique_ptr<Session<Reduce>>> inputs;
    for (std::size_t n : {std::size_t{1000}, std::size_t{4099}, std::size_t{1} << 16, (std::size_t{1} << 22) + 7})
      inputs.push_back(std::make_unique<Session<Reduce>>(
          Session<Reduce>::generate(type, op_config(op), n, "exact", run_seed(), stream.get())));
    std::vector<ReduceArgs> args;  // input i at block 128 (2i) and 512 (2i + 1)
    std::size_t bytes = 0;
    for (auto& in : inputs)
      for (int block : {128, 512}) {
        args.push_back(in->args_for(stage8(), block, 0));
        bytes = std::max(bytes, workspace_of(stage8(), args.back()));
      }
    DeviceBuffer workspace(bytes);
    for (ReduceArgs& a : args) {
      a.workspace = workspace.data();
      a.workspace_size = workspace.bytes();
    }
    workspace.fill_bytes(0xFF, stream.get());
    CUDA_CHECK(cudaMemsetAsync(workspace.data(), 0, ch08::kStage8ZeroedBytes, stream.get()));
    const std::vector<int> order{7, 0, 3, 6, 2, 5, 1, 4, 7, 6, 3, 2, 5, 4, 0, 1, 7, 2, 6, 3};
    std::vector<std::set<std::vector<unsigned char>>> patterns(args.size());
    unsigned epoch = 0;
    for (std::size_t run = 0; run < order.size(); ++run) {
      const ReduceArgs& a = args[order[run]];
      Session<Reduce>& in = *inputs[order[run] / 2];
      const std::size_t grid = grid_of(stage8(), a);
      poison_output(a);
      run_stage(stage8(), a);
      const Verification v = in.check_output(stage8(), a);
      if (grid > 1) epoch = ch08::stage8_next_epoch(epoch);
      INFO(dtype_name(type) << " " << op_name(op) << " run " << run << ": n " << a.n << " block " << a.block << " ("
                            << grid << " blocks), epoch " << epoch << ": " << v.message);
      REQUIRE(v.ok);
      patterns[order[run]].insert(in.last_output());
      CHECK(run_word(a) == ch08::stage8_run_word_after(epoch));
      if (grid > 1) {
        const std::vector<std::uint64_t> tags =
            slot_tags(a, acc_bytes_of(a), epoch == 1 ? capacity_of(a) : grid);
        const std::uint64_t want = epoch == 1 ? 0 : epoch;
        CHECK(std::count(tags.begin(), tags.end(), want) == static_cast<std::ptrdiff_t>(tags.size()));
      }
    }
    for (const auto& p : patterns) CHECK(p.size() <= 1);
  }
}

TEST_CASE("reduce_stage_8: a CUDA graph of 10 runs, replayed twice, advances its own epoch",
          "[gpu][ch08][reduce_stage_8][graph]") {
  // A host argument would be frozen into the graph; the epoch lives in the workspace instead.
  for (DType type : {DType::f32, DType::f64}) {
    Session<Reduce>& s =
        cached_session<Reduce>(type, op_config(Op::sum), (std::size_t{1} << 20) + 3, "exact", run_seed());
    const ReduceArgs a = s.args_for(stage8(), 256, 0);
    REQUIRE(grid_of(stage8(), a) > 1);
    s.poison_for(stage8());
    const Graph graph([&](cudaStream_t) { run_stage(stage8(), a); }, 10, s.stream());
    for (unsigned replay = 1; replay <= 2; ++replay) {
      poison_output(a);
      graph.launch(s.stream());
      const Verification v = s.check_output(stage8(), a);
      INFO(dtype_name(type) << " replay " << replay << ": " << v.message);
      CHECK(v.ok);
      CHECK(run_word(a) == ch08::stage8_run_word_after(10 * replay));
    }
  }
}

TEST_CASE("reduce_stage_8: across the epoch's wrap-around, the run of epoch 1 leaves every slot 0",
          "[gpu][ch08][reduce_stage_8]") {
  // The workspace is prepared, then run once (epoch 1: every slot 0 after it), then its run word is
  // set two runs before the wrap: runs of epochs kStage8EpochMax - 1 and kStage8EpochMax on many
  // blocks (block 128), one of epoch 1 on fewer (block 512: it clears the slots past its grid, and
  // after reading them its own), then epochs 2 and 3 on many. Every run is checked, and after the
  // run of epoch 1 every slot the workspace holds must be 0 again. One type of each slot size.
  for (DType type : {DType::f32, DType::f64}) {
    Session<Reduce>& s =
        cached_session<Reduce>(type, op_config(Op::sum), (std::size_t{1} << 22) + 7, "exact", run_seed());
    const ReduceArgs big = s.args_for(stage8(), 128, 0), small = s.args_for(stage8(), 512, 0);
    REQUIRE(big.workspace == small.workspace);
    REQUIRE(grid_of(stage8(), small) < grid_of(stage8(), big));
    s.poison_for(stage8());
    run_stage(stage8(), big);
    REQUIRE(s.check_output(stage8(), big).ok);
    const std::vector<std::uint64_t> after_first = slot_tags(big, acc_bytes_of(big), capacity_of(big));
    CHECK(std::count(after_first.begin(), after_first.end(), 0u) == static_cast<std::ptrdiff_t>(after_first.size()));
    const std::uint64_t start = ch08::stage8_run_word_after(ch08::kStage8EpochMax - 2);
    CUDA_CHECK(cudaDeviceSynchronize());  // the session stream (poison_for, the last run) is done first
    harness::copy_to_device(big.workspace, &start, sizeof start);
    const std::vector<unsigned> epochs{ch08::kStage8EpochMax - 1, ch08::kStage8EpochMax, 1, 2, 3};
    for (std::size_t run = 0; run < epochs.size(); ++run) {
      const ReduceArgs& a = run == 2 ? small : big;
      poison_output(a);
      run_stage(stage8(), a);
      const Verification v = s.check_output(stage8(), a);
      INFO(dtype_name(type) << " run " << run << " (epoch " << epochs[run] << ", " << grid_of(stage8(), a)
                            << " blocks): " << v.message);
      CHECK(v.ok);
      CHECK(run_word(a) == ch08::stage8_run_word_after(epochs[run]));
      const std::vector<std::uint64_t> tags =
          slot_tags(a, acc_bytes_of(a), run == 2 ? capacity_of(a) : grid_of(stage8(), a));
      const std::uint64_t want = run == 2 ? 0 : epochs[run];
      CHECK(std::count(tags.begin(), tags.end(), want) == static_cast<std::ptrdiff_t>(tags.size()));
    }
  }
}

TEST_CASE("reduce_stage_8 gives stage 7's bits on the same grid", "[gpu][ch08][reduce_stage_8][determinism]") {
  // The same block values (stage 5's loop and block fold), folded in the same slot order.
  for (DType type : {DType::f32, DType::f64}) {
    Session<Reduce>& s =
        cached_session<Reduce>(type, op_config(Op::sum), (std::size_t{1} << 22) + 7, "signed", run_seed());
    for (std::size_t grid : {std::size_t{7}, std::size_t{300}, std::size_t{1000}, std::size_t{3000}}) {
      INFO(dtype_name(type) << " sum, signed data, grid " << grid);
      const Verification v7 = s.run_and_check(stage7(), s.args_for(stage7(), 256, grid));
      const std::vector<unsigned char> bits7 = s.last_output();
      const Verification v8 = s.run_and_check(stage8(), s.args_for(stage8(), 256, grid));
      CHECK(v7.ok);
      CHECK(v8.ok);
      CHECK(s.last_output() == bits7);
    }
  }
}

TEST_CASE("reduce_stage_8 on a workspace nobody zeroed: no result taken from it, no hang",
          "[gpu][ch08][reduce_stage_8][workspace]") {
  // The harness's 0xFF poison left as it is (counts of 0xFFFF, which no grid reaches), and random
  // bytes whose two counts differ: no block draws the last ticket, none waits, and the counts the
  // run leaves are not 0, so check_output fails it, saying why. Run under compute-sanitizer
  // (memcheck) on the GPU machine: no access out of bounds.
  for (auto [type, op] : {std::pair{DType::i32, Op::max}, std::pair{DType::f64, Op::sum}}) {
    Session<Reduce>& s = cached_session<Reduce>(type, op_config(op), std::size_t{1} << 20, "exact", run_seed());
    const ReduceArgs a = s.args_for(stage8(), 256, 0);
    REQUIRE(grid_of(stage8(), a) > 1);
    for (const bool random_bytes : {false, true}) {
      s.poison();
      CUDA_CHECK(cudaDeviceSynchronize());  // the poison ran on the session stream: done before the junk lands
      if (random_bytes) {
        std::vector<std::uint64_t> junk(a.workspace_size / sizeof(std::uint64_t));
        std::uint64_t x = run_seed();
        for (std::uint64_t& w : junk) w = x = splitmix64(x);
        if (ch08::stage8_ticket_of(junk[0]) != ch08::kStage8NoTicket) junk[0] ^= 1ull << 16;  // counts differ
        CUDA_CHECK(cudaDeviceSynchronize());  // the session stream (poison_for, the last run) is done first
        harness::copy_to_device(a.workspace, junk.data(), junk.size() * sizeof junk[0]);
      }
      run_stage(stage8(), a);
      const Verification v = s.check_output(stage8(), a);
      INFO(dtype_name(type) << " " << op_name(op) << (random_bytes ? ": random bytes: " : ": the 0xFF poison: ")
                            << v.message);
      CHECK_FALSE(v.ok);
      CHECK(v.message.find("workspace state") != std::string::npos);
    }
  }
}

TEST_CASE("reduce_stage_8 at n = 2^31 + 1 (float sum and int max, exact data)", "[gpu][ch08][reduce_stage_8][large]") {
  check_past_2e31(stage8());
}

// Stage 9, one thread block cluster (reduce_stage_9_cluster_finish.cuh): the sweep (every size, type,
// operator and block); every grid one cluster holds, and a grid past it refused; one bit pattern over
// runs; n = 2^31 + 1. On a GPU below sm_90 each test WARNs and skips.
TEST_CASE("reduce_stage_9: one cluster, finish in distributed shared memory (sm_90+)", "[gpu][ch08][reduce_stage_9]") {
  CHECK(sweep(stage9(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_9 is right on grids of 1, 3 and one full cluster, and refuses a larger one",
          "[gpu][ch08][reduce_stage_9]") {
  // 1, 3 and the cluster's capacity on this GPU (16 on an H100), at block 128 and 1024, on sizes
  // where each thread makes one trip, several, or none; one block past the capacity is a UsageError
  // (the program turns it into exit 2), never a wrong answer. The sum runs on exact data (every
  // element +1 or -1: a dropped block's value changes the sum); the min on signed data, whose one
  // smallest element lies in one block (on exact data every block holds -1, and a finish that
  // dropped blocks would still pass).
  if (!runs_here(stage9())) return;
  for (DType type : {DType::f32, DType::f64, DType::i32}) {
    for (Op op : {Op::sum, Op::min}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
        Session<Reduce>& s =
            cached_session<Reduce>(type, op_config(op), n, op == Op::sum ? "exact" : "signed", run_seed());
        for (int block : {128, 1024}) {
          ReduceArgs big = s.args_for(stage9(), block, 0);
          big.n = std::size_t{1} << 30;  // far more than one cluster takes in one trip: the grid is the capacity
          const std::size_t capacity = grid_of(stage9(), big);
          REQUIRE(capacity >= 1);
          for (std::size_t grid : {std::size_t{1}, std::size_t{3}, capacity}) {
            if (grid > capacity) continue;
            INFO(dtype_name(type) << " " << op_name(op) << " n " << n << " block " << block << " grid " << grid
                                  << " of " << capacity);
            const Verification v = s.run_and_check(stage9(), s.args_for(stage9(), block, grid));
            INFO(v.message);
            CHECK(v.ok);
            CHECK(v.kind == CheckKind::exact);
          }
          CHECK_THROWS_AS(grid_of(stage9(), s.args_for(stage9(), block, capacity + 1)), UsageError);
        }
      }
    }
  }
}

TEST_CASE("reduce_stage_9 gives one bit pattern over 20 runs (2^18 floats, signed data)",
          "[gpu][ch08][reduce_stage_9][determinism]") {
  if (!runs_here(stage9())) return;
  Session<Reduce>& s = cached_session<Reduce>(DType::f32, op_config(Op::sum), std::size_t{1} << 18, "signed", run_seed());
  std::set<std::vector<unsigned char>> patterns;
  for (int run = 0; run < 20; ++run) {
    const Verification v = s.run_and_check(stage9(), s.args_for(stage9(), 256, 0));
    INFO("run " << run << ": " << v.message);
    REQUIRE(v.ok);
    patterns.insert(s.last_output());
  }
  CHECK(patterns.size() == 1);
}

TEST_CASE("reduce_stage_9 at n = 2^31 + 1 (float sum and int max, exact data)", "[gpu][ch08][reduce_stage_9][large]") {
  if (!runs_here(stage9())) return;
  check_past_2e31(stage9());
}

// Stage 10, stage 7 with CUB's even shares over five waves (reduce_stage_10_even_shares.cuh): the
// sweep; grids of one block, a few (many tiles per block), more blocks than tiles; the ticket left at
// zero and one bit pattern over runs back to back; a workspace nobody zeroed refused; n = 2^31 + 1.
TEST_CASE("reduce_stage_10: even shares over five waves", "[gpu][ch08][reduce_stage_10]") {
  CHECK(sweep(stage10(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_10 is right on any grid: one block, a few, more blocks than tiles",
          "[gpu][ch08][reduce_stage_10]") {
  check_any_grid(stage10(), {DType::f32, DType::i32, DType::f64}, {Op::sum, Op::min},
                 {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3, (std::size_t{1} << 20) + 1237,
                  (std::size_t{1} << 24) + 5});  // 2^20 + 1237 floats: a last tile of 309 vectors at block 128
}

TEST_CASE("reduce_stage_10 leaves its ticket counter zero: runs back to back, one bit pattern",
          "[gpu][ch08][reduce_stage_10][determinism]") {
  check_ticket_left_zero(stage10(), {std::size_t{1000}, (std::size_t{1} << 22) + 7, (std::size_t{1} << 26) + 3}, 10);
}

TEST_CASE("reduce_stage_10 on a workspace nobody zeroed: no result taken from it",
          "[gpu][ch08][reduce_stage_10][workspace]") {
  check_unzeroed_workspace_refused(stage10());
}

TEST_CASE("reduce_stage_10 at n = 2^31 + 1 (float sum and int max, exact data)", "[gpu][ch08][reduce_stage_10][large]") {
  // 100000 blocks: tiles x blockIdx.x passes 2^32 (524289 tiles at block 256), so a share computed in
  // 32 bits would wrap; the float sum of exact data sees a tile skipped or read twice.
  check_past_2e31(stage10(), {0, 100000});
}

TEST_CASE("stages 1-5 at n = 2^31 + 1 (float sum, exact data)", "[gpu][ch08][large]") {
  // Stage 0 -- one thread reading 2^31 elements, a run of minutes -- is left to [long]; its
  // indices are size_t like every stage's, and the sweep above runs it up to 2^24.
  Reduce::Config sum;
  Session<Reduce>& s = testing_support::cached_session<Reduce>(DType::f32, sum, kHuge, Reduce::exact_dist(),
                                                               testing_support::run_seed());
  for (const Stage<Reduce>& st : ch08::all_reduce_stages()) {
    if (st.name == "reduce_stage_0") continue;
    std::vector<int> blocks{256};
    if (st.name == "reduce_stage_1") blocks.push_back(32);  // the second pass folds 67 million partials
    for (int block : blocks) {
      INFO(st.name << ": float sum, exact data, n " << kHuge << ", block " << block << ", seed "
                   << testing_support::run_seed());
      const Verification v = s.run_and_check(st, s.args_for(st, block, 0));
      INFO(v.message);
      CHECK(v.ok);
    }
  }
}

TEST_CASE("every stage at n = 2^31 + 1, every operator and type", "[.][long][gpu][ch08][large]") {
  // Stages 1-5 at block 256 on every (type, op, dist). Stage 0 -- one thread reading 2^31 elements,
  // a run of minutes -- once: a float sum of exact data. Stage 1 also at block 32,
  // where the second pass folds 67 million partials.
  const auto stages = ch08::all_reduce_stages();
  const Sweep sw = all_ops();
  for (DType type : sw.types) {
    for (const Reduce::Config& config : sw.configs) {
      const Op op = config.op;
      for (const std::string& dist : sw.dists) {
        Session<Reduce>& s = testing_support::cached_session<Reduce>(type, config, kHuge, dist, testing_support::run_seed());
        for (const Stage<Reduce>& st : stages) {
          std::vector<int> blocks{256};
          if (st.name == "reduce_stage_0" && !(type == DType::f32 && dist == "exact" && op == Op::sum)) continue;
          if (st.name == "reduce_stage_1" && type == DType::f32 && dist == "exact") blocks.push_back(32);
          for (int block : blocks) {
            INFO(st.name << ": type " << dtype_name(type) << ", op " << op_name(op) << ", dist "
                         << dist << ", n " << kHuge << ", block " << block << ", seed "
                         << testing_support::run_seed());
            const ReduceArgs a = s.args_for(st, block, 0);
            const Verification v = s.run_and_check(st, a);
            INFO(v.message);
            CHECK(v.ok);
          }
        }
      }
    }
  }
}
