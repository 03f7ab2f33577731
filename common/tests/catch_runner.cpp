// The Catch2 session for every test executable, compiled once (see catch_runner.hpp).
#include "catch_runner.hpp"

#include "catch_session.hpp"

namespace testing_support {

int run_catch_session(int argc, char** argv) { return Catch::Session().run(argc, argv); }

}  // namespace testing_support
