// The program histogram_stage_2: per-warp sub-histograms in shared memory.
#include "drivers.hpp"
#include "histogram_stage_2_per_warp.cuh"

int main(int argc, char** argv) {
  return harness::stage_main<harness::Histogram>(argc, argv, ch08::histogram_stage_2_stage());
}
