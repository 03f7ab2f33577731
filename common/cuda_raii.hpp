//! @file cuda_raii.hpp
//! @brief Move-only owners of device memory, events and streams.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "cuda_check.hpp"

namespace harness {

//! An untyped device allocation of a fixed number of bytes, freed on destruction. Move-only.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  //! Allocates `bytes` bytes with cudaMalloc (nothing for 0). Throws CudaError on failure.
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes_ > 0) CUDA_CHECK(cudaMalloc(&ptr_, bytes_));
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  //! Takes the allocation of `other`, which is left empty.
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  //! Frees this allocation and takes the one of `other`, which is left empty.
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      if (ptr_) cudaFree(ptr_);
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  //! Device address of the first byte (nullptr when empty).
  void* data() const { return ptr_; }
  //! The allocation viewed as an array of T (a cast; no size or alignment check).
  //! @tparam T element type
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  //! Size in bytes.
  std::size_t bytes() const { return bytes_; }
  //! Sets every byte to `value` on `stream` (used to poison outputs before a run).
  void fill_bytes(unsigned char value, cudaStream_t stream = nullptr) const {
    if (bytes_ > 0) CUDA_CHECK(cudaMemsetAsync(ptr_, value, bytes_, stream));
  }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

//! A CUDA event (timing enabled), destroyed on destruction. Move-only.
class Event {
 public:
  Event() { CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() {
    if (event_) cudaEventDestroy(event_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  //! Takes the event of `other`, which is left empty.
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  //! Destroys this event and takes the one of `other`.
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      if (event_) cudaEventDestroy(event_);
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  //! Records the event on `stream`.
  void record(cudaStream_t stream) const { CUDA_CHECK(cudaEventRecord(event_, stream)); }
  //! Blocks the host until the event has completed.
  void synchronize() const { CUDA_CHECK(cudaEventSynchronize(event_)); }
  //! Milliseconds from `start` to this event; both must have completed.
  float elapsed_ms_since(const Event& start) const {
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }
  //! The raw handle.
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

//! A non-blocking CUDA stream, destroyed on destruction. Move-only.
class Stream {
 public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  //! Takes the stream of `other`, which is left empty.
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  //! Destroys this stream and takes the one of `other`.
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      if (stream_) cudaStreamDestroy(stream_);
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  //! Blocks the host until all work on the stream has completed; throws on an earlier failure.
  void synchronize() const { CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  //! The raw handle.
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

//! A CUDA graph captured from a stream, and its executable form: `runs` calls of an operation
//! recorded once (stream capture, relaxed mode), replayed with one launch. Move-only.
class Graph {
 public:
  Graph() = default;
  //! Captures `runs` calls of `op(stream)` into a graph; with `instantiate`, also makes it
  //! launchable. Nothing runs on the GPU.
  //! @tparam Op callable(cudaStream_t) that enqueues everything on the stream it is given
  //! @param[in] op the operation to record
  //! @param[in] runs how many calls of it, one after another
  //! @param[in] stream a stream that is not the legacy default stream
  //! @param[in] instantiate also make the executable graph (launch() needs it)
  //! @throws CudaError if capture or instantiation fails (the capture is ended either way)
  template <class Op>
  Graph(const Op& op, int runs, cudaStream_t stream, bool instantiate = true) {
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
    try {
      for (int r = 0; r < runs; ++r) op(stream);
    } catch (...) {
      cudaGraph_t broken = nullptr;
      cudaStreamEndCapture(stream, &broken);  // leave the stream usable
      if (broken) cudaGraphDestroy(broken);
      (void)cudaGetLastError();  // the invalidated capture's error, so no later launch check reports it
      throw;
    }
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph_));
    if (instantiate) {
      const cudaError_t e = cudaGraphInstantiate(&exec_, graph_, 0);
      if (e != cudaSuccess) {
        reset();  // the destructor does not run for a constructor that throws
        throw_cuda_error(e, "cudaGraphInstantiate(&exec_, graph_, 0)", __FILE__, __LINE__);
      }
    }
  }
  ~Graph() { reset(); }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  //! Takes over `other`'s graph.
  Graph(Graph&& other) noexcept
      : graph_(std::exchange(other.graph_, nullptr)), exec_(std::exchange(other.exec_, nullptr)) {}
  //! Frees this graph and takes over `other`'s.
  Graph& operator=(Graph&& other) noexcept {
    if (this != &other) {
      reset();
      graph_ = std::exchange(other.graph_, nullptr);
      exec_ = std::exchange(other.exec_, nullptr);
    }
    return *this;
  }
  //! Replays every captured run on `stream` (one cudaGraphLaunch).
  void launch(cudaStream_t stream) const { CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }
  //! The captured graph (for cudaGraphGetNodes).
  cudaGraph_t get() const { return graph_; }

 private:
  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

//! Copies `bytes` bytes from host memory to device memory and returns only once they are in device
//! memory. A plain cudaMemcpy from pageable host memory (a std::vector) may return as soon as the
//! bytes are staged for the DMA, before they land; a kernel launched next on a non-blocking stream
//! (cudaStreamNonBlocking, as Stream makes) is not ordered after that copy and can read the old
//! contents. Seen once in a test run of four programs at a time: a reduction of an input uploaded
//! just before summed the zeros of the fresh buffer. So every upload ends with a device-wide
//! synchronisation.
//! @param[out] dst device memory of at least `bytes` bytes
//! @param[in] src host memory of at least `bytes` bytes
//! @param[in] bytes number of bytes (0: nothing is done)
//! @throws CudaError if the copy or the synchronisation fails
inline void copy_to_device(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace harness
