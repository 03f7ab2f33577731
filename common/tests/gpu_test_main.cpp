// Catch2 runner for GPU tests: without a visible CUDA GPU it prints why and exits with 77, which
// CTest reports as "skipped" (SKIP_RETURN_CODE), so a machine without a GPU never counts them as passed.
#include <cstdio>
#include <string>

#include "catch_runner.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "run_counts.hpp"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {  // listing the tests and help need no GPU
    const std::string a = argv[i];
    if (a.rfind("--list", 0) == 0 || a == "-l" || a == "-t" || a == "-h" || a == "-?" || a == "--help")
      return testing_support::run_catch_session(argc, argv);
  }
  std::string why;
  if (!harness::gpu_available(&why)) {
    std::printf("SKIPPED: no CUDA GPU visible (%s); these GPU tests did not run.\n", why.c_str());
    return harness::kExitNoGpu;
  }
  const harness::DeviceInfo dev = harness::query_device();
  std::printf("GPU tests on %s\n", dev.summary().c_str());
  const int rc = testing_support::run_catch_session(argc, argv);
  const std::size_t skipped = testing_support::skipped_runs(), checked = testing_support::checked_runs();
  if (skipped > 0) {
    std::printf("%zu sweep runs were skipped because this GPU cannot run them (the warnings above say why); "
                "%zu runs were checked.\n", skipped, checked);
    if (rc == 0 && checked == 0) {
      std::printf("SKIPPED: nothing in these tests could run on this GPU.\n");
      return harness::kExitNoGpu;
    }
  }
  return rc;
}
