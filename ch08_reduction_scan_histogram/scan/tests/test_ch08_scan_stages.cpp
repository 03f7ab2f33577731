// GPU tests: every chapter-8 scan stage through the harness's sweep: float, double and int,
// exclusive and inclusive, sizes 0, 1, 7, 31, 32, 33, 1000, block +-1, one below / at / one past a
// tile and a tile of tiles, 2^20+3, 2^24, every supported block size, on exact data (every element
// +1 or -1: every output equal) and seeded signed data (each prefix against the stage's depth bound, or
// "not checked"), on poisoned outputs and workspaces; and 2^31 + 1 ints at block 256 for one stage
// of each family.
#include <cstddef>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ch08_scan_stages.hpp"
#include "sweep.hpp"

using namespace harness;
using testing_support::sweep;

namespace {

testing_support::Sweep<Scan> scan_sweep() {
  testing_support::Sweep<Scan> s;
  Scan::Config exclusive, inclusive;
  inclusive.inclusive = true;
  s.configs = {exclusive, inclusive};
  s.sizes = {0, 1, 7, 31, 32, 33, 1000, 2047, 2048, 2049, 8191, 8192, 8193,
             (std::size_t{1} << 22) + 1, (std::size_t{1} << 20) + 3, std::size_t{1} << 24};
  return s;
}

}  // namespace

TEST_CASE("scan_block_blelloch: one block, every size it accepts", "[gpu][ch08][scan]") {
  auto s = scan_sweep();
  s.sizes = {0, 1, 7, 31, 32, 33, 100, 255, 256, 1000, 1024};
  CHECK(sweep(ch08::scan_stage_named("scan_block_blelloch"), s) > 0);
}
TEST_CASE("scan_stage_1: three passes", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_1"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_2: padded", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_2"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_3: warp shuffles", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_3"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_4: decoupled look-back", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_4"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_5: vectorised", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_5"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_6: more items per thread", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_6"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_7: streaming", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_7"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_7: every tuning knob", "[gpu][ch08][scan]") {
  auto s = scan_sweep();
  s.sizes = {1, 7, 1000, 8191, 8192, 8193, (std::size_t{1} << 20) + 3};
  for (const Stage<Scan>& st : ch08::scan_stage_7_knob_stages()) {
    INFO(st.label);
    CHECK(sweep(st, s) > 0);
  }
}
// Below sm_90, or in a build without its kernel, the sweep skips stage 8 with one WARN (its
// check_device_fit refusal) and counts the skips, so these pass as skipped there.
TEST_CASE("scan_stage_8: bulk-copy pipeline (sm_90+)", "[gpu][ch08][scan]") {
  CHECK(sweep(ch08::scan_stage_named("scan_stage_8"), scan_sweep()) > 0);
}
TEST_CASE("scan_stage_8: every ring shape (sm_90+)", "[gpu][ch08][scan]") {
  auto s = scan_sweep();
  s.sizes = {1, 7, 1000, 4095, 4096, 4097, 8193, (std::size_t{1} << 20) + 3};
  for (const Stage<Scan>& st : ch08::scan_stage_8_shape_stages()) {
    INFO(st.label);
    CHECK(sweep(st, s) > 0);
  }
}

// Past 2^31 the default run takes one stage of each family of kernels, the last where several share
// one kernel: the three-pass Blelloch scan (stage 2: stage 1's kernels with a padded shared-memory
// layout), reduce-then-scan with warp shuffles (stage 3), the scalar decoupled look-back (stage 4),
// the vectorised look-back (stage 7: the kernel of stages 5 to 7, with more vectors and cache
// hints), the bulk-copy pipeline (stage 8). Every multi-block stage runs there in
// test_scan_gpu.long (label `long`).
TEST_CASE("one scan stage of each family at n = 2^31 + 1 ints", "[gpu][ch08][scan][large]") {
  Scan::Config exclusive;
  const std::size_t n = (std::size_t{1} << 31) + 1;
  std::string no_room;  // a 16 GB card cannot hold the input and the output (17.2 GB): skipped, said why
  if (!testing_support::fits_device_memory(2 * n * sizeof(int), std::to_string(n) + " int", no_room)) {
    WARN("skipped on this GPU: " << no_room);
    ++testing_support::skipped_runs();
    return;
  }
  Session<Scan>& s = testing_support::cached_session<Scan>(DType::i32, exclusive, n, "signed", testing_support::run_seed());
  for (const std::string& name : {"scan_stage_2", "scan_stage_3", "scan_stage_4", "scan_stage_7", "scan_stage_8"}) {
    const Stage<Scan> st = ch08::scan_stage_named(name);
    const std::string why = ch08::scan_refusal_here(st, 256);
    if (!why.empty()) {  // stage 8 below sm_90 or without its kernel in this build
      WARN(st.name << " skipped on this GPU: " << why);
      continue;
    }
    INFO(st.name);
    Verification v;
    try {
      v = s.run_and_check(st, s.args_for(st, 256, 0));
    } catch (const UnsupportedError& e) {  // its output or workspace past this GPU's free memory
      WARN(st.name << " skipped on this GPU: " << e.what());
      ++testing_support::skipped_runs();
      continue;
    }
    ++testing_support::checked_runs();
    INFO(v.message);
    CHECK(v.ok);
  }
}
