#include "session.hpp"

#include "device_limits.hpp"

namespace harness {

void ensure_device_memory(std::size_t bytes, const std::string& what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  device_memory(free_bytes, total_bytes);
  if (bytes > free_bytes) {
    std::ostringstream m;
    m.precision(3);
    m << kCannotRunHere << ": " << what << " needs " << bytes / 1e9 << " GB of device memory, but only "
      << free_bytes / 1e9 << " GB of " << total_bytes / 1e9 << " GB is free; use a smaller --n";
    throw UnsupportedError(m.str());
  }
}

}  // namespace harness
