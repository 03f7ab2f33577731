#include "reduce_session.hpp"

#include <cstring>
#include <sstream>
#include <vector>

#include "cuda_check.hpp"

namespace harness {

void ensure_device_memory(std::size_t bytes, const std::string& what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes) {
    std::ostringstream m;
    m.precision(3);
    m << what << " needs " << bytes / 1e9 << " GB of device memory, but only " << free_bytes / 1e9
      << " GB of " << total_bytes / 1e9 << " GB is free";
    throw UsageError(m.str());
  }
}

ReduceSession::ReduceSession(DType type, Op op, const void* host, std::size_t n, bool exact_data,
                             cudaStream_t stream)
    : type_(type), op_(op), n_(n), exact_data_(exact_data), stream_(stream) {
  const std::size_t bytes = n * dtype_size(type);
  std::ostringstream what;
  what << "an input of n = " << n << " " << dtype_name(type) << " elements";
  ensure_device_memory(bytes, what.str());
  input_ = DeviceBuffer(bytes);
  if (bytes > 0) CUDA_CHECK(cudaMemcpy(input_.data(), host, bytes, cudaMemcpyHostToDevice));
  with_input_type(type, [&](auto t) {
    using T = decltype(t);
    ref_ = compute_reference(static_cast<const T*>(host), n, op);
  });
  output_ = DeviceBuffer(8);
}

ReduceSession ReduceSession::generate(DType type, Op op, std::size_t n, Dist dist,
                                      std::uint64_t seed, cudaStream_t stream) {
  // Refuse sizes the device cannot hold before filling gigabytes of host memory.
  std::ostringstream what;
  what << "an input of n = " << n << " " << dtype_name(type) << " elements";
  ensure_device_memory(n * dtype_size(type), what.str());
  return with_input_type(type, [&](auto t) {
    using T = decltype(t);
    std::vector<T> host = make_host_input<T>(n, dist, seed);
    return ReduceSession(type, op, host.data(), n, dist == Dist::exact, stream);
  });
}

ReduceArgs ReduceSession::args_for(const ReduceImpl& impl, int block, std::size_t grid) {
  ReduceArgs a;
  a.type = type_;
  a.op = op_;
  a.in = input_.data();
  a.n = n_;
  a.out = output_.data();
  a.block = block;
  a.grid = grid;
  a.stream = stream_;
  validate_shape(impl, type_, op_, n_, block, grid);
  const std::size_t ws = workspace_for(impl, a);
  if (ws > workspace_.bytes()) {
    workspace_ = DeviceBuffer();
    ensure_device_memory(ws, impl.name + "'s workspace");
    workspace_ = DeviceBuffer(ws);
  }
  a.workspace = workspace_.data();
  a.workspace_size = workspace_.bytes();
  return a;
}

void ReduceSession::poison() {
  output_.fill_bytes(0xFF, stream_);
  workspace_.fill_bytes(0xFF, stream_);
}

Verification ReduceSession::verify_output(const ReduceImpl& impl, const ReduceArgs& args) {
  const DType out = output_type(impl, args.type, args.op);
  unsigned char bits[8] = {};
  CUDA_CHECK(cudaStreamSynchronize(stream_));
  CUDA_CHECK(cudaMemcpy(bits, output_.data(), dtype_size(out), cudaMemcpyDeviceToHost));
  last_bits_ = 0;
  std::memcpy(&last_bits_, bits, dtype_size(out));
  return verify_result(ref_, out, bits, exact_data_);
}

Verification ReduceSession::run_and_verify(const ReduceImpl& impl, const ReduceArgs& args) {
  poison();
  run_reduce(impl, args);
  return verify_output(impl, args);
}

}  // namespace harness
