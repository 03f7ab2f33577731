//! @file build_archs.hpp
//! @brief Which GPU architectures this build's device code is compiled for, and whether it holds
//! code of a stage that needs a newer architecture (sm_90: scan stage 8, chapter 7's stage 13) for a
//! given GPU. A GPU runs the newest code at or below its own architecture, so a build for "75;90"
//! runs sm_90 code on an sm_120 card, and a build for "75" runs only the older code, which such a
//! stage compiles to a trap: the stage must refuse before it launches.
//! Include it from a file nvcc compiles (.cu): nvcc's __CUDA_ARCH_LIST__ says the architectures in
//! the host pass as in the device passes; a plain C++ compiler sees no list (every check says yes).
#pragma once
#include <string>

#include "device_limits.hpp"

namespace harness {

//! The virtual architectures of this translation unit's device code (nvcc's __CUDA_ARCH_LIST__,
//! e.g. {750, 900}); {0} when the compiler does not say.
#if defined(__CUDA_ARCH_LIST__)
inline constexpr int kBuildArchList[] = {__CUDA_ARCH_LIST__};
#else
inline constexpr int kBuildArchList[] = {0};
#endif

//! Whether this build holds code of architecture `min_arch` (e.g. 900) or newer that a GPU of
//! compute capability `cc` (10 x major + minor) runs: some architecture of the build from
//! `min_arch` up to `cc`. An unknown list ({0}) counts as yes.
inline bool build_has_code_for(int cc, int min_arch) {
  for (int arch : kBuildArchList)
    if (arch == 0 || (arch >= min_arch && arch <= cc * 10)) return true;
  return false;
}

//! "sm_75, sm_90": the architectures of this build, for messages.
inline std::string build_arch_names() {
  std::string names;
  for (int arch : kBuildArchList) names += (names.empty() ? "sm_" : ", sm_") + std::to_string(arch / 10);
  return names;
}

//! Why this build cannot run a stage that needs sm_(min_arch / 10) code on the GPU `limits`
//! describes (its only code for that GPU is an older architecture's trap), with the reconfigure
//! command that fixes it; "" when it can.
inline std::string no_code_for(const DeviceLimits& limits, int min_arch) {
  if (build_has_code_for(limits.cc, min_arch)) return "";
  return "this build's code for it is compiled for " + build_arch_names() + ", none from sm_" +
         std::to_string(min_arch / 10) + " up to this GPU's " + limits.arch() +
         " (older code is a trap): reconfigure with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(limits.cc);
}

//! Why this build holds no code at all for a stage that needs sm_(min_arch / 10) or newer: every
//! architecture it was compiled for is older; "" when it holds some.
inline std::string no_code_in_build(int min_arch) {
  if (build_has_code_for(1000000, min_arch)) return "";
  const std::string need = "sm_" + std::to_string(min_arch / 10);
  return "this build has no code for it: it needs " + need + " or newer, and this build was compiled for " +
         build_arch_names() + " only (on a GPU of " + need +
         " or newer, reconfigure with -DCMAKE_CUDA_ARCHITECTURES naming that GPU, e.g. 90 or \"75;90\")";
}

}  // namespace harness
