// The program histogram_stage_5: per-thread byte counters in shared memory.
#include "drivers.hpp"
#include "histogram_stage_5_thread_counters.cuh"

int main(int argc, char** argv) {
  return harness::stage_main<harness::Histogram>(argc, argv, ch08::histogram_stage_5_stage());
}
