#include "device_info.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "cuda_check.hpp"

namespace harness {

double peak_dram_bandwidth(double mem_clock_khz, double bus_width_bits) {
  return 2.0 * mem_clock_khz * 1e3 * bus_width_bits / 8.0;
}

int fp32_lanes_per_sm(int major, int minor) {
  switch (major) {
    case 5: return 128;                       // Maxwell
    case 6: return minor == 0 ? 64 : 128;     // GP100 / other Pascal
    case 7: return 64;                        // Volta, Turing
    case 8: return minor == 0 ? 64 : 128;     // A100 / GA10x, Ada
    case 9: return 128;                       // Hopper
    case 10: case 11: case 12: return 128;    // Blackwell
    default: return 0;
  }
}

double peak_fp32_flops(int sm_count, int lanes_per_sm, double sm_clock_khz) {
  return static_cast<double>(sm_count) * lanes_per_sm * 2.0 * sm_clock_khz * 1e3;
}

std::string DeviceInfo::summary() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s (sm_%d%d, %d SMs, %.0f MiB L2, %.1f GiB; peak DRAM %.2f TB/s, peak FP32 %.1f TFLOP/s)",
                name.c_str(), cc_major, cc_minor, sm_count, l2_bytes / 1048576.0,
                global_mem_bytes / 1073741824.0, peak_bw_bytes_per_s / 1e12,
                peak_fp32_flops_per_s / 1e12);
  return buf;
}

std::size_t resident_blocks(const void* kernel, int block) {
  static std::mutex mutex;
  static std::map<std::tuple<int, const void*, int>, std::size_t> cache;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(device, kernel, block);
  auto it = cache.find(key);
  if (it == cache.end()) {
    int sms = 0, per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    it = cache.emplace(key, static_cast<std::size_t>(sms) * static_cast<std::size_t>(std::max(per_sm, 1))).first;
  }
  return it->second;
}

int max_cluster_blocks(const void* kernel, int block) {
  static std::mutex mutex;
  static std::map<std::tuple<int, const void*, int>, int> cache;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(device, kernel, block);
  auto it = cache.find(key);
  if (it == cache.end()) {
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(32);  // the query asks of the kernel and block, not of this grid
    config.blockDim = dim3(static_cast<unsigned>(block));
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialClusterSize(&blocks, kernel, &config));
    it = cache.emplace(key, std::max(blocks, 1)).first;
  }
  return it->second;
}

std::size_t occupancy_grid(const void* kernel, int block, std::size_t n, std::size_t min_per_thread) {
  if (n == 0) return 0;
  const std::size_t per_block = static_cast<std::size_t>(block) * min_per_thread;
  const std::size_t with_work = (n + per_block - 1) / per_block;
  return std::max<std::size_t>(1, std::min(resident_blocks(kernel, block), with_work));
}

namespace {

// "13.0" from a CUDA version number such as 13000.
std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// Why there is no GPU to run on, in plain words, then what to do; the CUDA error last, as a detail.
std::string no_gpu_reason(cudaError_t err) {
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);    // 0 when no NVIDIA driver is installed or loaded
  cudaRuntimeGetVersion(&runtime);  // the CUDA version this program was built with
  std::string msg;
  if (driver == 0) {
    msg = "no NVIDIA driver was found on this machine, so there is no GPU to run on. "
          "Run this on a machine with an NVIDIA GPU and its driver installed (there `nvidia-smi` "
          "lists the GPU); the build, the CPU tests and the documentation need no GPU";
  } else if (err == cudaErrorInsufficientDriver || driver < runtime) {
    msg = "the NVIDIA driver here supports CUDA up to " + cuda_version_text(driver) +
          ", but this program was built with CUDA " + cuda_version_text(runtime) +
          ". Install a newer NVIDIA driver (`nvidia-smi` shows the CUDA version the driver supports)";
  } else if (err == cudaErrorNoDevice || err == cudaSuccess) {
    msg = "the NVIDIA driver is installed but sees no GPU. Check that `nvidia-smi` lists one and "
          "that CUDA_VISIBLE_DEVICES, if set, names it";
  } else {
    msg = "the CUDA runtime could not reach a GPU. Check that `nvidia-smi` lists one";
  }
  if (err != cudaSuccess) {
    msg += std::string(" (CUDA error from cudaGetDeviceCount: ") + cudaGetErrorString(err) + ")";
  } else {
    msg += " (cudaGetDeviceCount reported 0 devices)";
  }
  return msg;
}

}  // namespace

bool gpu_available(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    if (why) *why = no_gpu_reason(err);
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return false;
  }
  if (count == 0) {
    if (why) *why = no_gpu_reason(cudaSuccess);
    return false;
  }
  return true;
}

DeviceInfo query_device(int ordinal) {
  std::string why;
  if (!gpu_available(&why)) throw NoGpuError(why);
  CUDA_CHECK(cudaSetDevice(ordinal));
  DeviceInfo d;
  d.ordinal = ordinal;
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  d.name = prop.name;
  auto attr = [&](cudaDeviceAttr a) {
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, a, ordinal));
    return v;
  };
  d.cc_major = attr(cudaDevAttrComputeCapabilityMajor);
  d.cc_minor = attr(cudaDevAttrComputeCapabilityMinor);
  d.sm_count = attr(cudaDevAttrMultiProcessorCount);
  d.sm_clock_khz = attr(cudaDevAttrClockRate);
  d.mem_clock_khz = attr(cudaDevAttrMemoryClockRate);
  d.bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  d.l2_bytes = static_cast<std::size_t>(attr(cudaDevAttrL2CacheSize));
  d.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
  d.global_mem_bytes = prop.totalGlobalMem;
  d.peak_bw_bytes_per_s = peak_dram_bandwidth(d.mem_clock_khz, d.bus_width_bits);
  d.peak_fp32_flops_per_s =
      peak_fp32_flops(d.sm_count, fp32_lanes_per_sm(d.cc_major, d.cc_minor), d.sm_clock_khz);
  return d;
}

}  // namespace harness
