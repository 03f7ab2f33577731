//! @file scan_stage_8_toolkit.cuh
//! @brief Whether this build can hold scan stage 8's kernel, and why not when it cannot: the
//! toolkit (CH08_STAGE8_PTX) and the architectures the build compiles for (harness::build_has_code_for). The
//! stage reads these before any launch and refuses with the reason (scan_stage_8_bulk_copy_pipeline.cuh).
//!
//! The toolkit: stage 8 needs a <cuda/ptx> with cp_async_bulk into shared::cta memory, CCCL 2.8
//! (CUDA 12.9) or newer, with nvcc 12.8 or newer (PTX ISA 8.6). CCCL 2.3 (CUDA 12.4) has none of
//! cp_async_bulk, mbarrier_init and fence_mbarrier_init; CCCL 2.4 to 2.7 (CUDA 12.5 to 12.8) have
//! cp_async_bulk into shared::cluster memory only (CCCL's git history: the shared::cta overload, PTX
//! ISA 8.6, appears in v2.8.0). With an older toolkit the kernel is not compiled at all
//! (kStage8Compiled), and the stage refuses everywhere, naming the toolkit it needs; so does a build
//! whose CMAKE_CUDA_ARCHITECTURES hold nothing of sm_90 or newer.
#pragma once
#include <cuda/ptx>

#include <string>

#include "build_archs.hpp"
#include "device_limits.hpp"

//! 1 when this toolkit's <cuda/ptx> has every instruction stage 8 uses (mbarrier_init,
//! fence_mbarrier_init, mbarrier_arrive, mbarrier_arrive_expect_tx, mbarrier_try_wait_parity, and
//! cp_async_bulk from global into shared::cta memory): CCCL 2.8 or newer, whose cp_async_bulk into
//! shared::cta is there only where nvcc emits PTX ISA 8.6 (nvcc 12.8 or newer). 0 otherwise: the
//! stage's device code and kernel are left out, and the stage says which toolkit it needs.
#if defined(CCCL_VERSION) && CCCL_VERSION >= 2008000 && defined(__cccl_ptx_isa) && __cccl_ptx_isa >= 860
#define CH08_STAGE8_PTX 1
#else
#define CH08_STAGE8_PTX 0
#endif

namespace ch08 {

//! Whether this build compiled stage 8's kernel (CH08_STAGE8_PTX: its toolkit has the instructions).
inline constexpr bool kStage8Compiled = CH08_STAGE8_PTX != 0;

//! Why this build's toolkit cannot compile stage 8, e.g. "this build's CUDA 12.4 (CCCL 2.3.2) lacks
//! cuda::ptx::cp_async_bulk into shared::cta memory (...): stage 8 needs CUDA 12.9 or newer", or ""
//! when it can.
inline std::string stage8_toolkit_gap() {
  if (kStage8Compiled) return "";
  std::string cuda = "CUDA ?", cccl = "CCCL ?";
#if defined(__CUDACC_VER_MAJOR__) && defined(__CUDACC_VER_MINOR__)
  cuda = "CUDA " + std::to_string(__CUDACC_VER_MAJOR__) + "." + std::to_string(__CUDACC_VER_MINOR__);
#endif
#if defined(CCCL_VERSION)
  cccl = "CCCL " + std::to_string(CCCL_VERSION / 1000000) + "." + std::to_string(CCCL_VERSION / 1000 % 1000) + "." +
         std::to_string(CCCL_VERSION % 1000);
#endif
  return "this build's " + cuda + " (" + cccl +
         ") lacks cuda::ptx::cp_async_bulk into shared::cta memory (CCCL 2.8, PTX ISA 8.6): stage 8 needs CUDA 12.9 "
         "or newer";
}

//! Why this build's code cannot run stage 8 on the GPU `limits` describes: its only code for it is an
//! older architecture's trap (a GPU runs the newest code at or below its own); "" when it can.
inline std::string stage8_no_code_for(const harness::DeviceLimits& limits) { return harness::no_code_for(limits, 900); }

//! Why this build holds no kernel of stage 8: its toolkit lacks the instructions
//! (stage8_toolkit_gap), or CMAKE_CUDA_ARCHITECTURES gave no architecture of sm_90 or newer; "" when
//! it holds one.
inline std::string stage8_unavailable() {
  if (!kStage8Compiled) return stage8_toolkit_gap();
  return harness::no_code_in_build(900);
}

}  // namespace ch08
