#include "device_limits.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include <unistd.h>

#include "cuda_check.hpp"
#include "device_info.hpp"
#include "errors.hpp"

namespace harness {

namespace {

constexpr std::size_t kKiB = 1024, kMiB = 1024 * kKiB;

DeviceLimits make(const char* name, int cc, std::size_t smem_block, std::size_t smem_sm, int threads,
                  int sms, std::size_t l2, std::size_t memory) {
  DeviceLimits d;
  d.name = name;
  d.cc = cc;
  d.smem_per_block = smem_block;
  d.smem_per_sm = smem_sm;
  d.max_threads_per_sm = threads;
  d.sm_count = sms;
  d.l2_bytes = l2;
  d.memory_bytes = memory;
  return d;
}

// "64KiB", "16GB", "1000": bytes.
std::size_t parse_bytes(const std::string& text, const std::string& what) {
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 15) throw UsageError(what);
  const double v = std::stod(text.substr(0, i));
  const std::string unit = text.substr(i);
  static const std::map<std::string, double> units{{"", 1},        {"B", 1},     {"KiB", 1024.0},
                                                   {"MiB", 1048576.0}, {"GiB", 1073741824.0},
                                                   {"KB", 1e3},     {"MB", 1e6},  {"GB", 1e9}};
  const auto it = units.find(unit);
  if (it == units.end()) throw UsageError(what);
  return static_cast<std::size_t>(v * it->second);
}

// Each field of `low` that is set and lower than `d`'s replaces it.
void lower_to(DeviceLimits& d, const DeviceLimits& low) {
  if (low.cc && low.cc < d.cc) d.cc = low.cc;
  if (low.smem_per_block && low.smem_per_block < d.smem_per_block) d.smem_per_block = low.smem_per_block;
  if (low.smem_per_sm && low.smem_per_sm < d.smem_per_sm) d.smem_per_sm = low.smem_per_sm;
  if (low.max_threads_per_sm && low.max_threads_per_sm < d.max_threads_per_sm)
    d.max_threads_per_sm = low.max_threads_per_sm;
  if (low.sm_count && low.sm_count < d.sm_count) d.sm_count = low.sm_count;
  if (low.l2_bytes && low.l2_bytes < d.l2_bytes) d.l2_bytes = low.l2_bytes;
  if (low.memory_bytes && low.memory_bytes < d.memory_bytes) d.memory_bytes = low.memory_bytes;
  if (low.host_bytes && (d.host_bytes == 0 || low.host_bytes < d.host_bytes)) d.host_bytes = low.host_bytes;
}

// The number after `key` on its line of a /proc file such as /proc/meminfo (whose unit is kB).
bool read_proc_number(const char* path, const char* key, std::size_t& value) {
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (line.rfind(key, 0) == 0) {
      std::istringstream in(line.substr(std::string(key).size()));
      return static_cast<bool>(in >> value);
    }
  return false;
}

}  // namespace

DeviceLimits limits_sm75() { return make("sm_75 (T4)", 75, 64 * kKiB, 64 * kKiB, 1024, 40, 4 * kMiB, 15843721216ull); }
DeviceLimits limits_sm80() { return make("sm_80 (A100 40GB)", 80, 163 * kKiB, 164 * kKiB, 2048, 108, 40 * kMiB, 42298834944ull); }
DeviceLimits limits_sm86() { return make("sm_86 (RTX 3090)", 86, 99 * kKiB, 100 * kKiB, 1536, 82, 6 * kMiB, 25447170048ull); }
DeviceLimits limits_sm89() { return make("sm_89 (RTX 4090)", 89, 99 * kKiB, 100 * kKiB, 1536, 128, 72 * kMiB, 25386352640ull); }
DeviceLimits limits_sm90() { return make("sm_90 (H200)", 90, 227 * kKiB, 228 * kKiB, 2048, 132, 60 * kMiB, 150754820096ull); }
DeviceLimits limits_sm120() { return make("sm_120 (RTX 5090)", 120, 99 * kKiB, 100 * kKiB, 1536, 170, 96 * kMiB, 34190917632ull); }

std::vector<DeviceLimits> reader_gpus() {
  return {limits_sm75(), limits_sm80(), limits_sm86(), limits_sm89(), limits_sm90(), limits_sm120()};
}

DeviceLimits apply_limits_setting(DeviceLimits d, const std::string& setting) {
  const std::string help =
      "TUTORIAL_DEVICE_LIMITS='" + setting +
      "' is not understood: expected a GPU name (sm_75, sm_80, sm_86, sm_89, sm_90, sm_120) or a "
      "comma-separated list of smem=<bytes>, memory=<bytes>, cc=<NN>, threads_per_sm=<N>, host=<bytes> "
      "(bytes as 65536, 64KiB, 16GB), e.g. TUTORIAL_DEVICE_LIMITS=smem=64KiB,memory=16GB,host=16GB";
  if (setting.empty()) return d;
  std::stringstream ss(setting);
  DeviceLimits low;
  for (std::string item; std::getline(ss, item, ',');) {
    bool named = false;
    for (const DeviceLimits& g : reader_gpus())
      if (item == g.arch()) {  // every field of the named GPU, with any lower value given before it
        DeviceLimits merged = g;
        lower_to(merged, low);
        low = merged;
        named = true;
      }
    if (named) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw UsageError(help);
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "smem") {
      low.smem_per_block = parse_bytes(value, help);
    } else if (key == "memory") {
      low.memory_bytes = parse_bytes(value, help);
    } else if (key == "host") {
      low.host_bytes = parse_bytes(value, help);
    } else if (key == "cc") {
      if (value.empty() || value.size() > 3 || !std::all_of(value.begin(), value.end(), ::isdigit))
        throw UsageError(help);
      low.cc = std::stoi(value);
    } else if (key == "threads_per_sm") {
      if (value.empty() || value.size() > 5 || !std::all_of(value.begin(), value.end(), ::isdigit))
        throw UsageError(help);
      low.max_threads_per_sm = std::stoi(value);
    } else {
      throw UsageError(help);
    }
    if ((key == "smem" && low.smem_per_block == 0) || (key == "memory" && low.memory_bytes == 0) ||
        (key == "host" && low.host_bytes == 0) ||
        (key == "cc" && low.cc == 0) || (key == "threads_per_sm" && low.max_threads_per_sm == 0))
      throw UsageError(help);
  }
  lower_to(d, low);
  d.lowered = setting;
  return d;
}

const DeviceLimits& current_device_limits() {
  static std::map<int, DeviceLimits> cache;
  std::string why;
  if (!gpu_available(&why)) throw NoGpuError(why);
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const auto it = cache.find(dev);
  if (it != cache.end()) return it->second;
  auto attr = [&](cudaDeviceAttr a) {
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
    return v;
  };
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  DeviceLimits d;
  d.name = prop.name;
  d.cc = 10 * attr(cudaDevAttrComputeCapabilityMajor) + attr(cudaDevAttrComputeCapabilityMinor);
  d.smem_per_block = static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  d.smem_per_sm = static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  d.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
  d.sm_count = attr(cudaDevAttrMultiProcessorCount);
  d.l2_bytes = static_cast<std::size_t>(attr(cudaDevAttrL2CacheSize));
  d.memory_bytes = prop.totalGlobalMem;
  if (const char* env = std::getenv("TUTORIAL_DEVICE_LIMITS")) {
    d = apply_limits_setting(d, env);
    if (!d.lowered.empty())
      std::fprintf(stderr, "note: TUTORIAL_DEVICE_LIMITS=%s: running as if this GPU had %s of shared memory per block, "
                           "%s of memory, compute capability %d.%d, %d threads per SM%s%s\n",
                   d.lowered.c_str(), bytes_text(d.smem_per_block).c_str(), bytes_text(d.memory_bytes).c_str(),
                   d.cc / 10, d.cc % 10, d.max_threads_per_sm, d.host_bytes ? ", on a host with " : "",
                   d.host_bytes ? (bytes_text(d.host_bytes) + " of memory").c_str() : "");
  }
  return cache.emplace(dev, d).first->second;
}

void device_memory(std::size_t& free_bytes, std::size_t& total_bytes) {
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const DeviceLimits& d = current_device_limits();
  if (d.memory_bytes < total_bytes) {
    const std::size_t used = total_bytes - free_bytes;
    free_bytes = d.memory_bytes > used ? d.memory_bytes - used : 0;
    total_bytes = d.memory_bytes;
  }
}

std::size_t host_memory_available() {
  std::size_t available = std::numeric_limits<std::size_t>::max(), kib = 0;
  if (read_proc_number("/proc/meminfo", "MemAvailable:", kib)) available = kib * 1024;
  if (const char* env = std::getenv("TUTORIAL_DEVICE_LIMITS")) {
    const DeviceLimits low = apply_limits_setting(DeviceLimits{}, env);
    if (low.host_bytes) {
      std::ifstream statm("/proc/self/statm");  // total pages, then resident pages
      std::size_t total_pages = 0, resident_pages = 0;
      statm >> total_pages >> resident_pages;
      const std::size_t held = resident_pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
      available = std::min(available, low.host_bytes > held ? low.host_bytes - held : 0);
    }
  }
  return available;
}

std::size_t checked_bytes(std::size_t count, std::size_t element_bytes, const std::string& what) {
  if (element_bytes != 0 && count > std::numeric_limits<std::size_t>::max() / element_bytes)
    throw UsageError(what + ": " + std::to_string(count) + " elements of " + std::to_string(element_bytes) +
                     " bytes are more bytes than a 64-bit size can count");
  return count * element_bytes;
}

void ensure_host_memory(std::size_t bytes, const std::string& what) {
  const std::size_t available = host_memory_available();
  if (bytes <= available) return;
  const char* env = std::getenv("TUTORIAL_DEVICE_LIMITS");
  throw UnsupportedError(std::string(kCannotRunHere) + " (host memory): " + what + " needs " + bytes_text(bytes) +
                         " of host memory, but only " + bytes_text(available) + " is available" +
                         (env && std::string(env).find("host=") != std::string::npos
                              ? std::string(" under TUTORIAL_DEVICE_LIMITS=") + env
                              : std::string()) +
                         "; use a smaller --n");
}

std::string bytes_text(std::size_t bytes) {
  char buf[64];
  if (bytes < kMiB && bytes % kKiB == 0) {
    std::snprintf(buf, sizeof buf, "%zu KiB", bytes / kKiB);
  } else if (bytes < kMiB) {
    std::snprintf(buf, sizeof buf, "%zu bytes", bytes);
  } else if (bytes < 1000000000ull) {
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / 1048576.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  }
  return buf;
}

}  // namespace harness
