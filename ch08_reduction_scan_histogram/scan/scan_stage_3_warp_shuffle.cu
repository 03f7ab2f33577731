#include "scan_stage_3_warp_shuffle.cuh"
#include "stage_driver.hpp"

int main(int argc, char** argv) { return harness::stage_main<harness::Scan>(argc, argv, ch08::scan_stage_3_stage()); }
