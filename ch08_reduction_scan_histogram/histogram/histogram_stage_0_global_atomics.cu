// The program histogram_stage_0: the histogram with one global atomic per sample.
#include "drivers.hpp"
#include "histogram_stage_0_global_atomics.cuh"

int main(int argc, char** argv) {
  return harness::stage_main<harness::Histogram>(argc, argv, ch08::histogram_stage_0_stage());
}
