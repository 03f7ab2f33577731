//! @file cuda_check.hpp
//! @brief Error checking for CUDA runtime calls and kernel launches.
#pragma once
#include <cuda_runtime_api.h>

#include <sstream>

#include "errors.hpp"

namespace harness {

//! Throws CudaError describing a failed CUDA call.
//! @param[in] code the error the call returned (not cudaSuccess)
//! @param[in] expr the source text of the call
//! @param[in] file source file of the call
//! @param[in] line source line of the call
[[noreturn]] inline void throw_cuda_error(cudaError_t code, const char* expr, const char* file,
                                          int line) {
  std::ostringstream msg;
  msg << "CUDA error " << cudaGetErrorName(code) << " (" << cudaGetErrorString(code) << ") at "
      << file << ":" << line << " in `" << expr << "`";
  throw CudaError(msg.str());
}

}  // namespace harness

//! Evaluates a CUDA runtime call once and throws harness::CudaError with file, line and the
//! expression's text if it did not return cudaSuccess.
#define CUDA_CHECK(expr)                                                     \
  do {                                                                       \
    const cudaError_t cuda_check_code_ = (expr);                             \
    if (cuda_check_code_ != cudaSuccess)                                     \
      ::harness::throw_cuda_error(cuda_check_code_, #expr, __FILE__, __LINE__); \
  } while (0)

//! Checks the most recent kernel launch (configuration errors show up here, at once).
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
