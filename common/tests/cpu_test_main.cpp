// Catch2 runner for tests that need no GPU.
#include "catch_runner.hpp"

int main(int argc, char** argv) { return testing_support::run_catch_session(argc, argv); }
