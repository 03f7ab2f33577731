#include "program.hpp"

#include <iostream>

#include "errors.hpp"

namespace harness {

int run_program(const std::string& name, const std::function<int()>& body) {
  try {
    return body();
  } catch (const NoGpuError& e) {
    std::cout << name << ": " << e.what() << "\nNothing was run: this program needs an NVIDIA GPU (exit code "
              << kExitNoGpu << ").\n";
    return kExitNoGpu;
  } catch (const UsageError& e) {
    std::string msg = e.what();
    if (msg.rfind(name + ": ", 0) == 0) msg.erase(0, name.size() + 2);  // already names the program
    std::cerr << name << ": error: " << msg << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << name << ": failed: " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace harness
