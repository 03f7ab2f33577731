//! @file reduce_impl.hpp
//! @brief The one interface every reduction stage (and the CUB baseline) presents to the harness:
//! the stage programs, the ladders and the tests all drive stages through it.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "dtype.hpp"

namespace harness {

//! Everything one run of a reduction needs. Pointers are device pointers.
struct ReduceArgs {
  DType type = DType::f32;        //!< element type of `in`
  Op op = Op::sum;                //!< operator
  const void* in = nullptr;       //!< n input elements
  std::size_t n = 0;              //!< number of input elements (any value, 0 included)
  void* out = nullptr;            //!< one output element of the stage's output type
  void* workspace = nullptr;      //!< scratch of at least workspace_bytes(args) bytes
  std::size_t workspace_size = 0;  //!< bytes available at `workspace`
  int block = 256;                //!< threads per block
  std::size_t grid = 0;           //!< blocks; 0 lets the stage choose (only grid-stride stages honour it)
  cudaStream_t stream = nullptr;  //!< stream to enqueue on
};

//! A reduction implementation: its identity, what it supports, and how to launch it.
struct ReduceImpl {
  std::string name;       //!< program name, e.g. "reduce_kernel_3"
  std::string label;      //!< short idea, e.g. "strided index"
  std::string change;     //!< what changed against the stage before, one sentence
  std::string source;     //!< where it comes from, e.g. "article section 6"
  std::vector<DType> types{DType::f32, DType::f64, DType::i32};  //!< supported input types
  std::vector<Op> ops{Op::sum};                                 //!< supported operators
  int min_block = 32;     //!< smallest supported block size (a power of two)
  int max_block = 1024;   //!< largest supported block size (a power of two)
  bool grid_stride = false;    //!< honours ReduceArgs::grid (coarsened stages)
  bool deterministic = false;  //!< same bits on every run with the same input and configuration
  //! Output type for an input type and operator; null means the input type.
  std::function<DType(DType, Op)> out_type;
  //! Scratch bytes the stage needs; null means none.
  std::function<std::size_t(const ReduceArgs&)> workspace_bytes;
  //! Blocks the stage launches for these arguments (with grid = 0 meaning the stage's default);
  //! null means ceil(n / block), one element per thread.
  std::function<std::size_t(const ReduceArgs&)> grid_for;
  //! Enqueues the whole reduction on args.stream; n > 0 and arguments already validated.
  std::function<void(const ReduceArgs&)> launch;
};

//! The output type of `impl` for an input type and operator.
DType output_type(const ReduceImpl& impl, DType in, Op op);
//! Scratch bytes `impl` needs for `args` (0 if none).
std::size_t workspace_for(const ReduceImpl& impl, const ReduceArgs& args);
//! Blocks `impl` launches for `args` (ceil(n / block) unless the stage decides otherwise).
std::size_t grid_for(const ReduceImpl& impl, const ReduceArgs& args);
//! True when `b` is a power of two.
constexpr bool is_power_of_two(long long b) { return b > 0 && (b & (b - 1)) == 0; }

//! Checks what needs no GPU: type and operator supported, block a power of two within
//! [min_block, max_block], --grid only for grid-stride stages.
//! @throws UsageError with a message naming the stage and the rule that was broken.
void validate_config(const ReduceImpl& impl, DType type, Op op, int block, std::size_t grid);

//! Checks that `impl` can run `args`: type and operator supported; block a power of two within
//! [min_block, max_block]; grid (given or chosen) at most 2^31 - 1; enough workspace.
//! @throws UsageError with a message naming the stage and the rule that was broken.
void validate(const ReduceImpl& impl, const ReduceArgs& args);

//! validate() for a launch described without its buffers (no input, output or workspace yet): the
//! checks of validate_config plus the grid limit, before any memory is allocated.
//! @throws UsageError as validate().
void validate_shape(const ReduceImpl& impl, DType type, Op op, std::size_t n, int block, std::size_t grid);

//! Validates, then enqueues the reduction. n = 0 writes the operator's identity (0 for a sum, the
//! lowest or highest value of the type for max or min) without launching a kernel, since a grid
//! of zero blocks is not a valid launch. Checks the launch for errors.
//! @throws UsageError for unsupported arguments, CudaError for CUDA failures.
void run_reduce(const ReduceImpl& impl, const ReduceArgs& args);

//! Writes the identity of `op` for `out_type` to the device address `out` on `stream`.
void write_identity(void* out, DType out_type, Op op, cudaStream_t stream);

}  // namespace harness
