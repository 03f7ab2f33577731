//! @file device_limits.hpp
//! @brief The limits a launch must fit on one GPU (shared memory per block, compute capability,
//! threads per SM, device memory), read from the device's own attributes, and the same limits for
//! the GPUs readers have (a T4, an RTX card, an A100, an H100/H200), so that every stage's rules can
//! be checked on a machine without a GPU.
//!
//! A reader can also make a big GPU behave like a small one: the environment variable
//! `TUTORIAL_DEVICE_LIMITS` lowers the limits every program reads, e.g.
//! `TUTORIAL_DEVICE_LIMITS=smem=64KiB,memory=16GB` (a T4's shared memory per block, a 16 GB card),
//! or `TUTORIAL_DEVICE_LIMITS=sm_75` (all of a T4's limits); `host=16GB` lowers the host memory a
//! run may fill (a reader's 16 GB desktop). It only lowers: a value above the
//! device's own is ignored. The stages then refuse, and the tests and ladders skip, exactly what they
//! would on that smaller GPU.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace harness {

//! What a stage may use on one GPU.
struct DeviceLimits {
  std::string name;                  //!< e.g. "NVIDIA H200", or "sm_75 (T4)" for a named set
  int cc = 0;                        //!< compute capability as 10 x major + minor, e.g. 90 for sm_90
  std::size_t smem_per_block = 0;    //!< most shared memory one block may have, static + dynamic, with
                                     //!< opt-in (cudaDevAttrMaxSharedMemoryPerBlockOptin), bytes
  std::size_t smem_per_sm = 0;       //!< shared memory of one SM (cudaDevAttrMaxSharedMemoryPerMultiprocessor), bytes
  int max_threads_per_sm = 0;        //!< resident threads per SM (cudaDevAttrMaxThreadsPerMultiProcessor)
  int sm_count = 0;                  //!< streaming multiprocessors
  std::size_t l2_bytes = 0;          //!< L2 cache, bytes
  std::size_t memory_bytes = 0;      //!< device memory, bytes (totalGlobalMem)
  std::size_t host_bytes = 0;        //!< host memory a run may fill, bytes (0: as much as the machine has)
  std::string lowered;               //!< the TUTORIAL_DEVICE_LIMITS setting applied, empty if none

  //! "sm_75" for cc 75.
  std::string arch() const { return "sm_" + std::to_string(cc); }
};

//! A T4 (sm_75): 64 KiB of shared memory per block, 1024 threads per SM, 40 SMs, 4 MiB L2, 15.8 GB.
DeviceLimits limits_sm75();
//! An A100 (sm_80): 163 KiB per block, 2048 threads per SM, 108 SMs, 40 MiB L2, 40 GB.
DeviceLimits limits_sm80();
//! An RTX 3090 (sm_86): 99 KiB per block, 1536 threads per SM, 82 SMs, 6 MiB L2, 24 GB.
DeviceLimits limits_sm86();
//! An RTX 4090 (sm_89): 99 KiB per block, 1536 threads per SM, 128 SMs, 72 MiB L2, 24 GB.
DeviceLimits limits_sm89();
//! An H200 (sm_90): 227 KiB per block, 2048 threads per SM, 132 SMs, 60 MiB L2, 141 GB.
DeviceLimits limits_sm90();
//! An RTX 5090 (sm_120): 99 KiB per block, 1536 threads per SM, 170 SMs, 96 MiB L2, 32 GB.
DeviceLimits limits_sm120();
//! The GPUs above, oldest first: the set every stage's defaults must fit.
std::vector<DeviceLimits> reader_gpus();

//! Applies a TUTORIAL_DEVICE_LIMITS setting to `limits`: a comma-separated list of `key=value`
//! (`smem=<bytes>` shared memory per block, `memory=<bytes>` device memory, `cc=<NN>` compute
//! capability, `threads_per_sm=<N>`, `host=<bytes>` host memory), where bytes may end in KiB, MiB, GiB, KB, MB or GB, or one of
//! the names sm_75, sm_80, sm_86, sm_89, sm_90, sm_120 (that GPU's limits). Each value only lowers.
//! @throws UsageError for a malformed setting (naming the variable and what it accepts)
DeviceLimits apply_limits_setting(DeviceLimits limits, const std::string& setting);

//! The limits of the current device: its attributes, lowered by TUTORIAL_DEVICE_LIMITS if set.
//! Cached per device.
//! @throws NoGpuError without a GPU, CudaError on CUDA failures, UsageError for a bad setting
const DeviceLimits& current_device_limits();

//! Free and total device memory of the current device (cudaMemGetInfo), as the limits say: with a
//! lowered `memory`, the total is that value and the free memory what is left of it after what is
//! already in use.
//! @param[out] free_bytes free bytes
//! @param[out] total_bytes total bytes
void device_memory(std::size_t& free_bytes, std::size_t& total_bytes);

//! Host memory this process may still fill, in bytes: the kernel's MemAvailable (/proc/meminfo),
//! and, where TUTORIAL_DEVICE_LIMITS sets `host=<bytes>`, what is left of that after what this
//! process already holds (its resident set, /proc/self/statm). Needs no GPU. Where /proc cannot be
//! read (not Linux), the largest size_t: no limit is known.
//! @throws UsageError for a malformed TUTORIAL_DEVICE_LIMITS
std::size_t host_memory_available();

//! Bytes of `count` elements of `element_bytes` each.
//! @param[in] count number of elements
//! @param[in] element_bytes bytes of one element
//! @param[in] what names the count for the message, e.g. "--n 2^62 (float)"
//! @throws UsageError when the product does not fit in 64 bits
std::size_t checked_bytes(std::size_t count, std::size_t element_bytes, const std::string& what);

//! Throws UnsupportedError (its message says "cannot run on this GPU", so tests skip) when
//! `bytes` more bytes of host memory are more than host_memory_available().
//! @param[in] bytes bytes about to be allocated on the host
//! @param[in] what what they are for, for the message
void ensure_host_memory(std::size_t bytes, const std::string& what);

//! "64 KiB" / "1.5 MiB" / "17.2 GB": bytes for messages (KiB under 1 MiB, MiB under 1 GB, else GB).
std::string bytes_text(std::size_t bytes);

}  // namespace harness
