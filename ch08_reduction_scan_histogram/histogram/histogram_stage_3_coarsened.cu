// The program histogram_stage_3: stage 2's kernel on one wave of resident blocks.
#include "drivers.hpp"
#include "histogram_stage_3_coarsened.cuh"

int main(int argc, char** argv) {
  return harness::stage_main<harness::Histogram>(argc, argv, ch08::histogram_stage_3_stage());
}
