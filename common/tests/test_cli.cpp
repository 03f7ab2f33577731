// CPU tests: sizes and command lines, including rejection of bad flags and values with exit code 2.
#include <vector>

#include "catch.hpp"
#include "cli.hpp"
#include "errors.hpp"

using harness::parse_size;
using harness::parse_size_list;
using harness::UsageError;

TEST_CASE("parse_size accepts integers and powers of two with offsets", "[cpu][cli]") {
  CHECK(parse_size("0") == 0);
  CHECK(parse_size("1000") == 1000);
  CHECK(parse_size("2^24") == (std::size_t{1} << 24));
  CHECK(parse_size("2^31+1") == (std::size_t{1} << 31) + 1);
  CHECK(parse_size("2^20-3") == (std::size_t{1} << 20) - 3);
  CHECK(parse_size("2^0") == 1);
  CHECK(parse_size("2^62") == (std::size_t{1} << 62));  // the largest; stage rules then refuse its bytes
  CHECK(parse_size("2^62-5") == (std::size_t{1} << 62) - 5);
}

TEST_CASE("parse_size rejects malformed and out-of-range sizes", "[cpu][cli]") {
  for (const char* bad : {"", "-1", "abc", "1e6", "2^", "2^x", "2^24+", "2^24*2", " 5", "5 ",
                          "2^63", "2^3-9", "99999999999999999999", "0x10", "1.5", "2^62+5", "2^62+1",
                          "4611686018427387905", "2^61+2^61"}) {
    INFO("input: '" << bad << "'");
    CHECK_THROWS_AS(parse_size(bad), UsageError);
  }
}

namespace {

int run(std::vector<const char*> args, harness::RunOptions* out = nullptr, bool grid = false) {
  CLI::App app{"test", "prog"};
  harness::RunOptions o;
  harness::OptionSet which;
  which.grid = grid;
  harness::add_run_options(app, o, which);
  args.insert(args.begin(), "prog");
  auto rc = harness::parse_command_line(app, o, static_cast<int>(args.size()), args.data());
  if (out) *out = o;
  return rc ? *rc : -1;
}

}  // namespace

TEST_CASE("command line: good flags parse", "[cpu][cli]") {
  harness::RunOptions o;
  CHECK(run({"--n", "2^20+3", "--block", "128", "--type", "double", "--iters", "7", "--seed", "9",
             "--dist", "exact"},
            &o) == -1);
  CHECK(o.n == (std::size_t{1} << 20) + 3);
  CHECK(o.block == 128);
  CHECK(o.type == "double");
  CHECK(o.iters == 7);
  CHECK(o.seed == 9);
  CHECK(o.dist == "exact");
  CHECK(run({"--grid", "264"}, &o, true) == -1);
  CHECK(o.grid == 264);
}

TEST_CASE("command line: --help exits 0", "[cpu][cli]") { CHECK(run({"--help"}) == 0); }

TEST_CASE("command line: bad flags and values exit 2", "[cpu][cli]") {
  CHECK(run({"--bogus"}) == harness::kExitUsage);
  CHECK(run({"--n", "lots"}) == harness::kExitUsage);
  CHECK(run({"--n", "-5"}) == harness::kExitUsage);
  CHECK(run({"--block", "abc"}) == harness::kExitUsage);
  CHECK(run({"--block", "0"}) == harness::kExitUsage);
  CHECK(run({"--type", "half"}) == harness::kExitUsage);
  CHECK(run({"--dist", "normal"}) == harness::kExitUsage);
  CHECK(run({"--iters", "0"}) == harness::kExitUsage);
  CHECK(run({"--warmup", "-1"}) == harness::kExitUsage);
  CHECK(run({"--n"}) == harness::kExitUsage);
  CHECK(run({"--grid", "5"}) == harness::kExitUsage);  // not offered by one-element-per-thread stages
  CHECK(run({"extra"}) == harness::kExitUsage);
}

TEST_CASE("parse_size_list reads lists and power-of-two ranges", "[cpu][cli]") {
  using V = std::vector<std::size_t>;
  CHECK(parse_size_list("1000") == V{1000});
  CHECK(parse_size_list("2^10,1000,2^20+3") == V{1024, 1000, (std::size_t{1} << 20) + 3});
  CHECK(parse_size_list("2^10..2^13") == V{1024, 2048, 4096, 8192});
  CHECK(parse_size_list("2^10..5000") == V{1024, 2048, 4096});
  CHECK(parse_size_list("3..3,7") == V{3, 7});
  CHECK(parse_size_list("2^10..2^22").size() == 13);
  for (const char* bad : {"", ",", "2^10,", "0..2^4", "2^5..2^4", "2^10..", "x", "1..2^62,1,2"})
    CHECK_THROWS_AS(parse_size_list(bad), harness::UsageError);
}
