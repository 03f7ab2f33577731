// Exercise ch08/03, the Blelloch downsweep: one source, built against the stub (exercise_ch08_03,
// label exercise) and against the solution (solutions_ch08, its [ch08_03] test case, in the default
// run).
#include <cstring>
#include <vector>

#include "catch.hpp"
#include "exercise_stage.hpp"
#include "exercise_support_ch08.hpp"
#include "sweep.hpp"

TEST_CASE("ch08/03 Blelloch block scan: [1, 2, 3, 4] gives [0, 1, 3, 6]", "[gpu][ch08][ch08_03]") {
  const auto st = exercise_stage<harness::Scan>("ch08/03");
  const std::vector<int> in{1, 2, 3, 4};
  const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
  harness::Session<harness::Scan> s(harness::DType::i32, {}, std::vector<unsigned char>(bytes, bytes + sizeof(int) * in.size()),
                                    in.size(), false, nullptr);
  for (int block : {32, 256, 1024}) {
    const harness::Verification v = s.run_and_check(st, s.args_for(st, block, 0));
    std::vector<int> got(4);
    std::memcpy(got.data(), s.last_output().data(), sizeof(int) * 4);
    INFO(st.name << ": type i32, exclusive, input [1, 2, 3, 4], n 4, block " << block << ", got [" << got[0]
                 << ", " << got[1] << ", " << got[2] << ", " << got[3] << "] where [0, 1, 3, 6] is right");
    INFO(harness::check_name(v.kind) << ": " << v.message);
    CHECK(v.ok);
  }
}
TEST_CASE("ch08/03 Blelloch block scan: every size up to a block, block size and type", "[gpu][ch08][ch08_03]") {
  auto s = exercise_support_ch08::scan_sweep();
  s.sizes = {0, 1, 4, 7, 31, 32, 33, 100, 255, 256, 1000, 1024};
  CHECK(testing_support::sweep(exercise_stage<harness::Scan>("ch08/03"), s) > 0);
}
