//! @file session.hpp
//! @brief One input on the device with its CPU reference, and the machinery to run any stage of
//! the problem on it: poisoned output and workspace, one run, read-back and the problem's check.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "run_stage.hpp"
#include "stage.hpp"
#include "verify.hpp"

namespace harness {

//! Throws UnsupportedError (its message says "cannot run on this GPU") if `bytes` more bytes of
//! device memory than are free would be needed (free as device_memory() counts it).
//! @param[in] bytes bytes about to be allocated
//! @param[in] what what they are for, for the message
void ensure_device_memory(std::size_t bytes, const std::string& what);

//! One input of problem P on the GPU beside its CPU reference: what a stage is run and checked on.
//! A stage program and a ladder hold two (the exact data that decides pass/fail, and the --dist
//! data that is timed; one where the timed data is exact itself); the GPU tests keep one per size
//! and type for all stages. It owns the output and workspace buffers, grown as stages need them:
//! args_for makes a stage's launch arguments on them, run_and_check poisons them, runs the stage
//! once and checks what it wrote (check_output). P supplies generate, reference, apply,
//! output_type, output_count and check.
//! @tparam P Reduce, Scan or Histogram
template <class P>
class Session {
 public:
  using Args = typename P::Args;            //!< launch arguments of P
  using Config = typename P::Config;        //!< P's run settings (operator, inclusive, bins ...)
  using Reference = typename P::Reference;  //!< what P's check compares against

  //! Uploads `n` elements of `type` from `host` (copy_to_device: in device memory on return) and computes the
  //! reference (P::reference may take `host` over).
  //! @param[in] type input element type
  //! @param[in] config the problem's run settings
  //! @param[in] host n elements of `type`, as bytes
  //! @param[in] n number of elements
  //! @param[in] exact_data the data's every partial result is exact: results must match exactly
  //! @param[in] stream the stream args_for() hands to the stages and that poison() uses
  //! @throws UsageError if the input does not fit in free device memory; CudaError on CUDA failures
  Session(DType type, const Config& config, std::vector<unsigned char> host, std::size_t n,
          bool exact_data, cudaStream_t stream)
      : type_(type), config_(config), n_(n), exact_data_(exact_data), stream_(stream) {
    const std::size_t bytes = n * dtype_size(type);
    ensure_device_memory(bytes, input_name(type, n));
    input_ = DeviceBuffer(bytes);
    copy_to_device(input_.data(), host.data(), bytes);
    ref_ = P::reference(type, config, host, n, exact_data);
  }

  //! Generates n elements from the distribution `dist` (one of P::dist_names()) with `seed`, then
  //! as the constructor. Sizes the host or the device cannot hold are refused before the host fills
  //! gigabytes (UnsupportedError: ensure_host_memory, ensure_device_memory).
  static Session generate(DType type, const Config& config, std::size_t n, const std::string& dist,
                          std::uint64_t seed, cudaStream_t stream) {
    ensure_device_memory(n * dtype_size(type), input_name(type, n));
    return Session(type, config, P::generate(type, config, n, dist, seed), n, P::is_exact_dist(dist),
                   stream);
  }

  //! Arguments to run `stage` with `block` and `grid` (0: the stage's default) on this input;
  //! validates the shape and grows the output and workspace buffers as needed.
  //! @throws UsageError when the stage does not accept these arguments or memory is short
  Args args_for(const Stage<P>& stage, int block, std::size_t grid) {
    Args a;
    a.type = type_;
    a.in = input_.data();
    a.n = n_;
    a.block = block;
    a.grid = grid;
    a.stream = stream_;
    P::apply(config_, a);
    validate_shape(stage, a);
    out_type_ = P::output_type(stage, a);
    const std::size_t out_bytes = P::output_count(a) * dtype_size(out_type_);
    if (out_bytes > output_.bytes()) {
      output_ = DeviceBuffer();
      ensure_device_memory(out_bytes, stage.name + "'s output");
      output_ = DeviceBuffer(out_bytes);
    }
    const std::size_t ws = workspace_of(stage, a);
    if (ws > workspace_.bytes()) {
      workspace_ = DeviceBuffer();
      ensure_device_memory(ws, stage.name + "'s workspace");
      workspace_ = DeviceBuffer(ws);
    }
    a.out = output_.data();
    a.workspace = workspace_.data();
    a.workspace_size = workspace_.bytes();
    return a;
  }

  //! Fills the output with a value no correct run writes, so that a result nobody wrote shows up:
  //! 0xFF bytes (NaN) for float and double outputs; 0x80 bytes for integer outputs (int32
  //! -2139062144, int64 and counters about +-9.3e18: never a sum, prefix or count of the inputs,
  //! where 0xFF's -1 is a sum that +-1 data can have). The workspace gets 0xFF bytes.
  void poison() {
    const bool floating = out_type_ == DType::f32 || out_type_ == DType::f64;
    output_.fill_bytes(floating ? 0xFF : 0x80, stream_);
    workspace_.fill_bytes(0xFF, stream_);
  }

  //! poison(), then zeroes the first Stage::workspace_zeroed_bytes of the workspace: what `stage`
  //! needs before its first launch on this workspace (its launches keep them ready for the next).
  void poison_for(const Stage<P>& stage) {
    poison();
    const std::size_t zeroed = std::min(stage.workspace_zeroed_bytes, workspace_.bytes());
    if (zeroed > 0) CUDA_CHECK(cudaMemsetAsync(workspace_.data(), 0, zeroed, stream_));
  }

  //! Poisons (poison_for), runs `stage` once, waits, reads the output back and checks it.
  Verification run_and_check(const Stage<P>& stage, const Args& args) {
    poison_for(stage);
    run_stage(stage, args);
    return check_output(stage, args);
  }

  //! Reads the output back and checks it (after a run the caller enqueued itself). For a stage that
  //! keeps state between launches (Stage::workspace_zeroed_bytes), also reads that state's count:
  //! a complete launch leaves it zero, so anything else fails the run, saying that the workspace was
  //! not in the state its launch needs (a result taken from such a run would be a guess).
  Verification check_output(const Stage<P>& stage, const Args& args) {
    const std::size_t bytes = P::output_count(args) * dtype_size(P::output_type(stage, args));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (bytes > last_output_.size()) ensure_host_memory(bytes - last_output_.size(), stage.name + "'s output, read back,");
    last_output_.resize(bytes);
    if (bytes > 0) CUDA_CHECK(cudaMemcpy(last_output_.data(), output_.data(), bytes, cudaMemcpyDeviceToHost));
    Verification v = P::check(stage, args, ref_, last_output_.data(), exact_data_);
    if (stage.workspace_zeroed_bytes >= sizeof(std::uint32_t) && args.n > 0) {
      std::uint32_t count = 0;
      CUDA_CHECK(cudaMemcpy(&count, args.workspace, sizeof count, cudaMemcpyDeviceToHost));
      if (count != 0) {
        v.ok = false;
        const std::string zeroed = stage.workspace_zeroed_bytes >= args.workspace_size
                                       ? std::string("all its bytes")
                                       : "its first " + std::to_string(stage.workspace_zeroed_bytes) + " bytes";
        v.message = stage.name + "'s workspace state reads " + std::to_string(count) +
                    " after the run, not 0: the workspace did not hold what a complete launch leaves (" + zeroed +
                    " must be zeroed before the first launch); " + v.message;
      }
    }
    return v;
  }

  //! The bytes of the last output read back by check_output.
  const std::vector<unsigned char>& last_output() const { return last_output_; }
  const Reference& reference() const { return ref_; }   //!< the CPU reference
  DType type() const { return type_; }                   //!< input type
  const Config& config() const { return config_; }       //!< P's run settings
  std::size_t n() const { return n_; }                   //!< number of input elements
  const void* input() const { return input_.data(); }    //!< device input
  std::size_t input_bytes() const { return input_.bytes(); }  //!< n * element size
  //! Device memory the session holds: input, output and workspace.
  std::size_t device_bytes() const { return input_.bytes() + output_.bytes() + workspace_.bytes(); }
  bool exact_data() const { return exact_data_; }        //!< results must match exactly
  cudaStream_t stream() const { return stream_; }        //!< stream used

 private:
  static std::string input_name(DType type, std::size_t n) {
    return "an input of n = " + std::to_string(n) + " " + dtype_name(type) + " elements";
  }

  DType type_;
  Config config_;
  std::size_t n_;
  bool exact_data_;
  cudaStream_t stream_;
  DeviceBuffer input_;
  DType out_type_ = DType::f32;  // of the output buffer, set by args_for
  DeviceBuffer output_;
  DeviceBuffer workspace_;
  Reference ref_{};
  std::vector<unsigned char> last_output_;
};

}  // namespace harness
