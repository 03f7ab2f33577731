// Compile-only check (CTest cpu.scan_stage_8_compiles_for_sm80, label cpu): stage 8's kernels
// compile for a GPU below sm_90 (A100: compute capability 8.0). There their bodies are a trap, never
// launched: the stage refuses such a GPU before any launch (min_cc = 90, "cannot run on this GPU",
// scan_stage_7 instead); the L40S and RTX 40xx (8.9) and the T4 (7.5) take the same branch of the
// guard (__CUDA_ARCH__ < 900). The test compiles this file's device code to an sm_80 cubin (nvcc
// --cubin: cicc and ptxas, no host compiler, nothing linked), so a CPU machine (CI) checks what only
// a build for those GPUs would otherwise show: that no sm_90-only instruction (bulk copies, mbarrier
// transaction counts) is left outside the guard. Two kernels cover every shape: the default's
// (scan_bulk_pipeline, every -early shape) and the compared schedules' (scan_bulk_pipeline_compared),
// each one template behind its guard. With a toolkit whose CCCL lacks the instructions (before CCCL
// 2.8, CUDA 12.9: CH08_STAGE8_PTX is 0) there is no kernel to compile, and the check is that the
// headers themselves compile for sm_80 without it.
#include "scan_stage_8_bulk_copy_pipeline.cuh"
#include "scan_stage_8_shapes.cuh"

//! The kernels' addresses: taking them makes nvcc compile their device code for the target.
const void* stage8_kernels_for_older_gpus(bool compared) {
#if CH08_STAGE8_PTX
  if (compared)
    return reinterpret_cast<const void*>(
        &ch08::scan_bulk_pipeline_compared<float, 256, 8, 3, ch08::kNearWindows, true, false>);
  return reinterpret_cast<const void*>(
      &ch08::scan_bulk_pipeline<float, 256, ch08::kStage8Shape<float>.vectors, ch08::kStage8Shape<float>.stages>);
#else
  (void)compared;
  return nullptr;
#endif
}
