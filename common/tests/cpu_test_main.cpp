// Catch2 runner for tests that need no GPU.
#include "catch_session.hpp"

int main(int argc, char** argv) { return Catch::Session().run(argc, argv); }
