//! @file cub_scan.hpp
//! @brief The CUB baseline every scan ladder is measured against: cub::DeviceScan::ExclusiveSum and
//! InclusiveSum as a Stage<Scan>.
#pragma once
#include "scan/scan_problem.hpp"

namespace harness {

//! cub::DeviceScan::ExclusiveSum / InclusiveSum over float, double and int (ints wrap modulo 2^32,
//! like the stages). The workspace is CUB's temporary storage (workspace_bytes asks CUB). n is
//! passed as a 32-bit count when it fits (CUB then uses 32-bit offsets, its fastest path) and as a
//! 64-bit count past 2^32 - 1. CCCL before 2.7 (CUDA 12.4 to 12.6) takes an int count only: there
//! n past 2^31 - 1 is scanned in chunks of 2^30 elements, one CUB call each, every chunk starting
//! from the prefix before it (read on the device; a one-thread kernel forms it for exclusive scans),
//! never truncated; its time then includes those calls. Not deterministic for float and double (a
//! decoupled look-back).
Stage<Scan> cub_scan_stage();

//! Enqueues CUB's scan (cub::DeviceScan::ExclusiveSum or InclusiveSum, as a.inclusive says) on
//! a.stream, in a.workspace (at least cub_scan_stage().workspace_bytes(a) bytes): the launch of
//! cub_scan_stage().
void launch_cub_scan(const ScanArgs& a);

}  // namespace harness
