// CPU tests: the peak formulas on known boards and the article's roofline figures.
#include "catch.hpp"
#include "device_info.hpp"
#include "roofline_model.hpp"

using namespace harness;

TEST_CASE("peak DRAM bandwidth of the H200 from its attributes", "[cpu][device]") {
  // cudaDevAttrMemoryClockRate = 3,201,000 kHz, cudaDevAttrGlobalMemoryBusWidth = 6,016 bits.
  const double bw = peak_dram_bandwidth(3201000, 6016);
  CHECK(bw == Approx(4.814304e12).epsilon(1e-9));
  CHECK(bw / 1e12 == Approx(4.81).margin(0.005));
}

TEST_CASE("peak FP32 of the H200 and lanes per SM", "[cpu][device]") {
  CHECK(fp32_lanes_per_sm(9, 0) == 128);
  CHECK(fp32_lanes_per_sm(8, 0) == 64);
  CHECK(fp32_lanes_per_sm(8, 9) == 128);
  CHECK(fp32_lanes_per_sm(7, 0) == 64);
  CHECK(fp32_lanes_per_sm(3, 5) == 0);
  // 132 SMs x 128 lanes x 2 x 1.98 GHz
  CHECK(peak_fp32_flops(132, 128, 1980000) == Approx(66.908e12).epsilon(1e-4));
}

TEST_CASE("the article's RTX 4050 Laptop figures", "[cpu][device][roofline]") {
  // 20 SMs (Ada, 128 lanes) at 1,755 MHz boost: the 8.986 TFLOPS the article quotes.
  const double flops = peak_fp32_flops(20, fp32_lanes_per_sm(8, 9), 1755000);
  CHECK(flops / 1e12 == Approx(8.986).margin(0.0005));
  // 96-bit GDDR6 at 8,001 MHz (16 Gb/s per pin): 192 GB/s.
  CHECK(peak_dram_bandwidth(8001000, 96) / 1e9 == Approx(192.0).margin(0.05));

  const Roofline roof{8.986e12, 192e9};
  CHECK(roof.ridge_point() == Approx(46.80).margin(0.005));
  CHECK(reduction_intensity(4) == 0.25);
  CHECK(roof.ceiling(reduction_intensity(4)) / 1e9 == Approx(48.0).margin(1e-9));
  CHECK(roof.ceiling(1000.0) == roof.peak_flops);
}
