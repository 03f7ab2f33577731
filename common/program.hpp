//! @file program.hpp
//! @brief The one place where a program's failures become exit codes.
#pragma once
#include <functional>
#include <string>

namespace harness {

//! Runs `body` and turns what it throws into a message and an exit code: UsageError -> "NAME:
//! error: ..." on stderr and kExitUsage (2); NoGpuError -> "NAME: ..." on stdout and kExitNoGpu
//! (77, which CTest reports as skipped); CudaError or any other exception -> "NAME: failed: ..." on
//! stderr and kExitFailure (1). What `body` returns is returned unchanged.
//! @param[in] name the program's name, put before every message
//! @param[in] body the program's work; returns its exit code
int run_program(const std::string& name, const std::function<int()>& body);

}  // namespace harness
