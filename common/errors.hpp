//! @file errors.hpp
//! @brief The three kinds of failure every program of the tutorial distinguishes, and their exit codes.
#pragma once
#include <stdexcept>
#include <string>

//! The shared harness (common/): command line, inputs, CPU references, verification, timing,
//! reports, and the ReduceImpl interface through which every chapter's stages are run.
namespace harness {

//! Exit code of a program whose input was bad (unknown flag, malformed value, unsupported size).
inline constexpr int kExitUsage = 2;
//! Exit code of a program that ran but whose result failed verification, or hit a CUDA error.
inline constexpr int kExitFailure = 1;
//! Exit code of a program or GPU test that found no CUDA GPU; CTest reports it as skipped.
inline constexpr int kExitNoGpu = 77;

//! Bad input from the user: reported as a clear message and exit code kExitUsage (2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! The GPU cannot run what was asked (a stage needs a newer architecture or more shared memory than
//! it has, an input larger than its free memory, a kernel this build's toolkit could not compile).
//! Its message always contains "cannot run on this GPU", which the smoke tests read as a skip.
//! Reported like any UsageError: a clear message and exit code kExitUsage (2).
class UnsupportedError : public UsageError {
 public:
  using UsageError::UsageError;
};

//! The phrase every UnsupportedError message contains (CTest's SKIP_REGULAR_EXPRESSION reads it).
inline constexpr const char* kCannotRunHere = "cannot run on this GPU";

//! The line a program that goes on prints for one part it skipped (a ladder's stage): the refusal's
//! text with "cannot run on this GPU" said as "skipped on this GPU", so that the smoke tests, which
//! read that phrase as the whole program's skip, still judge the program by its exit code.
inline std::string skip_note(std::string what) {
  const std::string phrase = kCannotRunHere;
  for (std::size_t at = what.find(phrase); at != std::string::npos; at = what.find(phrase, at))
    what.replace(at, phrase.size(), "skipped on this GPU");
  return what;
}

//! No CUDA-capable GPU is visible: reported with the reason and exit code kExitNoGpu (77).
class NoGpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! A CUDA runtime call failed; the message names the expression, file and line (see CUDA_CHECK).
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace harness
