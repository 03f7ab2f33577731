// The program histogram_stage_6: per-thread byte counters, one add per single-bin vector.
#include "drivers.hpp"
#include "histogram_stage_6_vector_runs.cuh"

int main(int argc, char** argv) {
  return harness::stage_main<harness::Histogram>(argc, argv, ch08::histogram_stage_6_stage());
}
