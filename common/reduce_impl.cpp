#include "reduce_impl.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>

#include "cuda_check.hpp"
#include "errors.hpp"

namespace harness {

DType output_type(const ReduceImpl& impl, DType in, Op op) {
  return impl.out_type ? impl.out_type(in, op) : in;
}

std::size_t workspace_for(const ReduceImpl& impl, const ReduceArgs& args) {
  return impl.workspace_bytes ? impl.workspace_bytes(args) : 0;
}

std::size_t grid_for(const ReduceImpl& impl, const ReduceArgs& args) {
  if (impl.grid_for) return impl.grid_for(args);
  const auto b = static_cast<std::size_t>(args.block);
  return (args.n + b - 1) / b;
}

void validate_config(const ReduceImpl& impl, DType type, Op op, int block, std::size_t grid) {
  auto fail = [&](const std::string& what) { throw UsageError(impl.name + ": " + what); };
  if (std::find(impl.types.begin(), impl.types.end(), type) == impl.types.end())
    fail(std::string("type ") + dtype_name(type) + " is not supported");
  if (std::find(impl.ops.begin(), impl.ops.end(), op) == impl.ops.end())
    fail(std::string("operator ") + op_name(op) + " is not supported");
  if (!is_power_of_two(block) || block < impl.min_block || block > impl.max_block) {
    std::ostringstream m;
    m << "block size " << block << " is not supported: it must be a power of two from "
      << impl.min_block << " to " << impl.max_block;
    fail(m.str());
  }
  if (grid != 0 && !impl.grid_stride)
    fail("--grid is not supported: this stage launches one thread per element");
}

void validate(const ReduceImpl& impl, const ReduceArgs& args) {
  auto fail = [&](const std::string& what) { throw UsageError(impl.name + ": " + what); };
  validate_config(impl, args.type, args.op, args.block, args.grid);
  const std::size_t grid = grid_for(impl, args);
  if (grid > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    std::ostringstream m;
    m << "n = " << args.n << " with block " << args.block << " needs " << grid
      << " blocks, more than the 2^31 - 1 a grid can hold";
    fail(m.str());
  }
  const std::size_t ws = workspace_for(impl, args);
  if (ws > args.workspace_size) {
    std::ostringstream m;
    m << "needs " << ws << " bytes of workspace, given " << args.workspace_size;
    fail(m.str());
  }
}

void validate_shape(const ReduceImpl& impl, DType type, Op op, std::size_t n, int block, std::size_t grid) {
  ReduceArgs probe;
  probe.type = type;
  probe.op = op;
  probe.n = n;
  probe.block = block;
  probe.grid = grid;
  probe.workspace_size = static_cast<std::size_t>(-1);  // workspace is sized later, to fit
  validate(impl, probe);
}

void write_identity(void* out, DType out_type, Op op, cudaStream_t stream) {
  unsigned char bytes[8] = {};
  auto put = [&](auto v) { std::memcpy(bytes, &v, sizeof v); };
  auto lowest_or_highest = [&](auto tag) {
    using T = decltype(tag);
    if (op == Op::max) {
      put(std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                               : std::numeric_limits<T>::lowest());
    } else {
      put(std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                               : std::numeric_limits<T>::max());
    }
  };
  if (op != Op::sum) {
    switch (out_type) {
      case DType::f32: lowest_or_highest(float{}); break;
      case DType::f64: lowest_or_highest(double{}); break;
      case DType::i32: lowest_or_highest(int{}); break;
      case DType::i64: lowest_or_highest(static_cast<long long>(0)); break;
    }
  }
  CUDA_CHECK(cudaMemcpyAsync(out, bytes, dtype_size(out_type), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));  // `bytes` lives on this stack frame
}

void run_reduce(const ReduceImpl& impl, const ReduceArgs& args) {
  validate(impl, args);
  if (args.n == 0) {
    write_identity(args.out, output_type(impl, args.type, args.op), args.op, args.stream);
    return;
  }
  impl.launch(args);
  CUDA_CHECK_LAUNCH();
}

}  // namespace harness
