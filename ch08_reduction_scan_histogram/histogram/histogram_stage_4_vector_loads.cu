// The program histogram_stage_4: 16-byte loads into per-warp sub-histograms.
#include "drivers.hpp"
#include "histogram_stage_4_vector_loads.cuh"

int main(int argc, char** argv) {
  return harness::stage_main<harness::Histogram>(argc, argv, ch08::histogram_stage_4_stage());
}
