//! @file program.hpp
//! @brief The one place where a program's failures become exit codes.
#pragma once
#include <exception>
#include <iostream>
#include <string>

#include "errors.hpp"

namespace harness {

//! Runs `body` and turns what it throws into a message and an exit code: UsageError -> "NAME:
//! error: ..." on stderr and kExitUsage (2); NoGpuError -> "NAME: ..." on stdout and kExitNoGpu
//! (77, which CTest reports as skipped); CudaError or any other exception -> "NAME: failed: ..." on
//! stderr and kExitFailure (1). What `body` returns is returned unchanged.
//! @tparam Body a callable taking nothing and returning the exit code (int)
//! @param[in] name the program's name, put before every message
//! @param[in] body the program's work; returns its exit code
template <class Body>
int run_program(const std::string& name, Body&& body) {
  try {
    return body();
  } catch (const NoGpuError& e) {
    std::cout << name << ": " << e.what() << "\nNothing was run: this program needs an NVIDIA GPU (exit code "
              << kExitNoGpu << ").\n";
    return kExitNoGpu;
  } catch (const UsageError& e) {
    std::string msg = e.what();
    if (msg.rfind(name + ": ", 0) == 0) msg.erase(0, name.size() + 2);  // already names the program
    std::cerr << name << ": error: " << msg << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << name << ": failed: " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace harness
