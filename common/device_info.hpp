//! @file device_info.hpp
//! @brief Facts about the GPU read with cudaDeviceGetAttribute, and the peak formulas built on them.
#pragma once
#include <cstddef>
#include <string>

namespace harness {

//! Peak DRAM bandwidth in bytes/s: 2 (double data rate) x memory clock x bus width in bytes.
//! @param[in] mem_clock_khz memory clock in kHz (cudaDevAttrMemoryClockRate)
//! @param[in] bus_width_bits memory bus width in bits (cudaDevAttrGlobalMemoryBusWidth)
//! @return bytes per second; the H200 (3,201,000 kHz, 6,016 bits) gives 4.814e12.
double peak_dram_bandwidth(double mem_clock_khz, double bus_width_bits);

//! FP32 lanes (CUDA cores) per SM for a compute capability; 0 when unknown.
//! @param[in] major compute capability, major part
//! @param[in] minor compute capability, minor part
int fp32_lanes_per_sm(int major, int minor);

//! Peak FP32 throughput in FLOP/s: SMs x FP32 lanes per SM x 2 (a fused multiply-add) x clock.
//! @param[in] sm_count number of SMs
//! @param[in] lanes_per_sm FP32 lanes per SM (fp32_lanes_per_sm)
//! @param[in] sm_clock_khz SM clock in kHz (cudaDevAttrClockRate, the boost clock)
double peak_fp32_flops(int sm_count, int lanes_per_sm, double sm_clock_khz);

//! What the tutorial needs to know about one GPU.
struct DeviceInfo {
  int ordinal = 0;                  //!< CUDA device number
  std::string name;                 //!< marketing name, e.g. "NVIDIA H200"
  int cc_major = 0;                 //!< compute capability, major
  int cc_minor = 0;                 //!< compute capability, minor
  int sm_count = 0;                 //!< streaming multiprocessors
  int sm_clock_khz = 0;             //!< SM boost clock, kHz
  int mem_clock_khz = 0;            //!< memory clock, kHz
  int bus_width_bits = 0;           //!< memory bus width, bits
  std::size_t l2_bytes = 0;         //!< L2 cache size, bytes
  std::size_t global_mem_bytes = 0;  //!< device memory, bytes
  int max_threads_per_sm = 0;       //!< resident threads per SM
  double peak_bw_bytes_per_s = 0;   //!< peak_dram_bandwidth(), bytes/s
  double peak_fp32_flops_per_s = 0;  //!< peak_fp32_flops(), FLOP/s
  //! One line for reports, e.g. "NVIDIA H200 (sm_90, 132 SMs, 60 MiB L2, peak 4.81 TB/s, 66.9 TFLOP/s FP32)".
  std::string summary() const;
};

//! Blocks of `block` threads running `kernel` that fit on the current device at once: SM count x
//! cudaOccupancyMaxActiveBlocksPerMultiprocessor (at least 1 per SM). Cached per device, kernel and
//! block size, so asking on every launch costs a map lookup.
//! @param[in] kernel address of the __global__ function
//! @param[in] block threads per block
//! @throws CudaError if the device cannot be queried
std::size_t resident_blocks(const void* kernel, int block);

//! The most blocks of `block` threads running `kernel` that one thread block cluster may hold on the
//! current device (cudaOccupancyMaxPotentialClusterSize, at least 1), with cluster sizes past the
//! portable 8 allowed: it sets cudaFuncAttributeNonPortableClusterSizeAllowed on `kernel`, which a
//! launch of a larger cluster needs too. Needs a GPU of sm_90 or newer and code of it for `kernel`.
//! Cached per device, kernel and block size, like resident_blocks.
//! @param[in] kernel address of the __global__ function
//! @param[in] block threads per block
//! @return blocks (16 on an H100 for the kernels of this repository)
//! @throws CudaError if the attribute cannot be set or the device cannot be queried
int max_cluster_blocks(const void* kernel, int block);

//! The grid of a persistent grid-stride stage: one full wave of resident blocks of `kernel`
//! (resident_blocks), but no more blocks than give each thread `min_per_thread` elements, so a
//! small input launches only blocks with a useful amount of work; 0 for n = 0, else at least 1.
//! @param[in] kernel address of the __global__ function
//! @param[in] block threads per block
//! @param[in] n number of elements (or of whatever unit the grid-stride loop steps over)
//! @param[in] min_per_thread fewest elements a thread gets before the grid stops growing (>= 1)
//! @throws CudaError if the occupancy query fails
std::size_t occupancy_grid(const void* kernel, int block, std::size_t n, std::size_t min_per_thread);

//! True when at least one CUDA GPU is visible; otherwise false and, if `why` is given, the reason.
bool gpu_available(std::string* why = nullptr);

//! Reads the facts of device `ordinal` and makes it current.
//! @throws NoGpuError when no GPU is visible, CudaError on other CUDA failures.
DeviceInfo query_device(int ordinal = 0);

}  // namespace harness
