#include "scan/broken_scan.hpp"

int main(int argc, char** argv) { return harness::stage_main<harness::Scan>(argc, argv, harness::broken_shifted_scan_stage()); }
