// The counts of sweep runs in one test process: checked, and skipped because this GPU cannot run them
// (sweep.hpp counts them; gpu_test_main.cpp reports them). Kept apart from sweep.hpp so that the
// test runner's main needs no Catch2 header.
#pragma once
#include <cstddef>

namespace testing_support {

//! Sweep runs skipped in this process because this GPU cannot run them (each WARNed with its reason).
std::size_t& skipped_runs();
//! Sweep runs made and checked in this process.
std::size_t& checked_runs();

}  // namespace testing_support
