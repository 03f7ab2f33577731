// The Catch2 session, compiled once (catch_runner.cpp) for every test executable of the build: with
// Catch2 2.x the file that runs the session compiles the whole of Catch2, so the two runners
// (cpu_test_main.cpp, gpu_test_main.cpp) call it instead of including it.
#pragma once

namespace testing_support {

//! Runs the Catch2 session on the command line (test specs, --list-tests, ...); returns its exit code.
int run_catch_session(int argc, char** argv);

}  // namespace testing_support
