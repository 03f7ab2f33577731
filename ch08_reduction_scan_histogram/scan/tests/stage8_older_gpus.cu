// Compile-only check (CTest cpu.scan_stage_8_compiles_for_sm80, label cpu): stage 8's kernel
// compiles for a GPU below sm_90 (A100: compute capability 8.0). There its body is a trap and the
// stage refuses at run time with one line (pipeline_refusal); the L40S and RTX 40xx (8.9) take the
// same branch of the guard (__CUDA_ARCH__ < 900). The test compiles this file's device code to an
// sm_80 cubin (nvcc --cubin: cicc and ptxas, no host compiler, nothing linked), so a CPU machine
// (CI) checks what only a build for those GPUs would otherwise show: that no sm_90-only
// instruction (bulk copies, mbarrier transaction counts) is left outside the guard. One shape is
// enough: every shape is the same template behind the same guard.
#include "scan_stage_8_bulk_copy_pipeline.cuh"

//! The default kernel's address: taking it makes nvcc compile its device code for the target.
const void* stage8_kernel_for_older_gpus() {
  return reinterpret_cast<const void*>(
      &ch08::scan_bulk_pipeline<float, 256, ch08::kStage8Shape.vectors, ch08::kStage8Shape.stages, ch08::kStage8Windows,
                                ch08::kStage8Ahead, ch08::kStage8Early>);
}
