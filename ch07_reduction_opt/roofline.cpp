// roofline: the device's peak FP32 throughput and DRAM bandwidth, the ridge point, and the ceiling
// of a reduction at 1 / sizeof(T) FLOP/byte (0.25 for float), as the article's section 1 does for
// its RTX 4050 Laptop GPU. Reads the device with cudaDeviceGetAttribute; needs no kernel launch.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "program.hpp"
#include "roofline_model.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Roofline of the current GPU and the reduction's ceiling on it", "roofline"};
  double peak_tflops = 0, peak_gbs = 0;
  const CLI::Validator positive_finite(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end == s.c_str() || *end != '\0' || !std::isfinite(v) || v <= 0)
          return "'" + s + "' is not a positive finite number";
        return {};
      },
      "POSITIVE");
  app.add_option("--peak-tflops", peak_tflops, "Use this FP32 peak (TFLOP/s) instead of the device's")
      ->check(positive_finite);
  app.add_option("--peak-gbs", peak_gbs, "Use this bandwidth (GB/s) instead of the device's")
      ->check(positive_finite);
  if (auto rc = harness::parse_flags(app, argc, argv)) return *rc;
  return harness::run_program("roofline", [&]() -> int {
    harness::Roofline roof{peak_tflops * 1e12, peak_gbs * 1e9};
    std::string device = "given peaks";
    if (peak_tflops == 0 || peak_gbs == 0) {
      if (!harness::gpu_available())
        throw harness::NoGpuError("no CUDA GPU is visible. Give --peak-tflops and --peak-gbs to compute a roofline without a GPU");
      {
        const harness::DeviceInfo d = harness::query_device();
        device = d.summary();
        if (peak_tflops == 0) roof.peak_flops = d.peak_fp32_flops_per_s;
        if (peak_gbs == 0) roof.peak_bandwidth = d.peak_bw_bytes_per_s;
        std::printf("SMs %d x %d FP32 lanes x 2 x %.3f GHz; memory %.3f GHz x 2 x %d bits / 8\n",
                    d.sm_count, harness::fp32_lanes_per_sm(d.cc_major, d.cc_minor),
                    d.sm_clock_khz / 1e6, d.mem_clock_khz / 1e6, d.bus_width_bits);
      }
    }
    std::printf("device:          %s\n", device.c_str());
    std::printf("peak FP32:       %.3f TFLOP/s\n", roof.peak_flops / 1e12);
    std::printf("peak bandwidth:  %.1f GB/s\n", roof.peak_bandwidth / 1e9);
    std::printf("ridge point:     %.2f FLOP/byte\n", roof.ridge_point());
    for (const auto& [name, bytes] : {std::pair{"float", 4.0}, std::pair{"double", 8.0}, std::pair{"int", 4.0}}) {
      const double ai = harness::reduction_intensity(bytes);
      std::printf("reduction (%s): %.3f FLOP/byte -> ceiling %.1f GFLOP/s (%.1f%% of peak FP32)\n", name,
                  ai, roof.ceiling(ai) / 1e9, 100.0 * roof.ceiling(ai) / roof.peak_flops);
    }
    return 0;
  });
}
