//! @file reduce_session.hpp
//! @brief One input on the device with its CPU reference, and the machinery to run any stage on it:
//! poisoned output and workspace, one run, read-back and verification.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuda_raii.hpp"
#include "inputs.hpp"
#include "reduce_impl.hpp"
#include "reference.hpp"
#include "verify.hpp"

namespace harness {

//! Throws UsageError if `bytes` more bytes of device memory than are free would be needed.
//! @param[in] bytes bytes about to be allocated
//! @param[in] what what they are for, for the message
void ensure_device_memory(std::size_t bytes, const std::string& what);

//! An input on the device, its reference, and reusable output and workspace buffers.
class ReduceSession {
 public:
  //! Uploads `n` host elements of `type` and computes the reference of `op` over them.
  //! The upload is a synchronous cudaMemcpy; `stream` is where later runs are enqueued.
  //! @param[in] type input element type: DType::f32, f64 or i32
  //! @param[in] op operator the reference is computed for
  //! @param[in] host n elements of `type` in host memory; only read during the constructor
  //! @param[in] n number of elements (0 allowed)
  //! @param[in] exact_data the data's every partial sum is exact, so results must match exactly
  //! @param[in] stream stream that args_for() hands to the stages and that poison() uses
  //! @throws UsageError if the input does not fit in free device memory or `type` is DType::i64;
  //!         CudaError on CUDA failures
  ReduceSession(DType type, Op op, const void* host, std::size_t n, bool exact_data,
                cudaStream_t stream);

  //! Generates n elements from `dist` and `seed` on the host, then as the constructor above.
  static ReduceSession generate(DType type, Op op, std::size_t n, Dist dist, std::uint64_t seed,
                                cudaStream_t stream);

  //! Arguments to run `impl` with `block` and `grid` (0: stage default) on this input; grows the
  //! output and workspace buffers as needed.
  ReduceArgs args_for(const ReduceImpl& impl, int block, std::size_t grid);

  //! Fills the output and the workspace with 0xFF bytes (NaN for floats, -1 for ints), so that a
  //! result or partial nobody wrote shows up.
  void poison();

  //! Poisons, runs `impl` once, waits, reads the result back and verifies it.
  Verification run_and_verify(const ReduceImpl& impl, const ReduceArgs& args);

  //! Reads the result back and verifies it (after a run the caller enqueued itself).
  Verification verify_output(const ReduceImpl& impl, const ReduceArgs& args);

  //! The raw bits of the last result read back (zero-extended to 64 bits).
  std::uint64_t last_bits() const { return last_bits_; }

  const Reference& reference() const { return ref_; }  //!< the CPU reference
  DType type() const { return type_; }                 //!< input type
  Op op() const { return op_; }                        //!< operator
  std::size_t n() const { return n_; }                 //!< number of elements
  const void* input() const { return input_.data(); }  //!< device input
  std::size_t input_bytes() const { return input_.bytes(); }  //!< n * element size
  bool exact_data() const { return exact_data_; }      //!< results must be exact
  cudaStream_t stream() const { return stream_; }      //!< stream used

 private:
  DType type_;
  Op op_;
  std::size_t n_;
  bool exact_data_;
  cudaStream_t stream_;
  DeviceBuffer input_;
  DeviceBuffer output_;
  DeviceBuffer workspace_;
  Reference ref_;
  std::uint64_t last_bits_ = 0;
};

}  // namespace harness
