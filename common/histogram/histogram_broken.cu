// The program histogram_broken: a histogram that loses one sample, run through the same stage
// program as every stage. It must print a failed check and exit 1 (the self-test insists).
#include "broken_histogram.cuh"
#include "drivers.hpp"

int main(int argc, char** argv) {
  return harness::stage_main<harness::Histogram>(argc, argv, harness::broken_histogram_stage());
}
