// The size rule's tables (size_rule.hpp). Each row is one ladder of the committed H100 coverage,
// docs/results/H100/coverage: the number of its fastest verified stage at 2^10, 2^12, ..., 2^30
// elements, as the table in that folder's README.md has it. test_size_rule reads the coverage's CSV
// files and fails where a row and the files part.
#include "size_rule.hpp"

#include <algorithm>

namespace harness {

const SizeRule& ch07_reduce_rule() {
  //                                       2^: 10  12  14  16  18  20  22  24  26  28  30
  static const SizeRule rule{"reduce_ladder", "reduce_kernel_", "coverage_reduce_ch07_*",
                             {{DType::f32, "sum", {12, 12, 12, 13, 12, 12, 10, 9, 9, 9, 9}},
                              {DType::i32, "sum", {12, 12, 12, 13, 12, 12, 10, 9, 9, 9, 9}},
                              {DType::f64, "sum", {12, 12, 13, 13, 12, 12, 9, 9, 9, 9, 9}}}};
  return rule;
}

const SizeRule& ch08_reduce_rule() {
  // Each cell names the fastest verified stage, or stage 7 where stage 7 is within 2% of it. Stage 9
  // (one thread block cluster, sm_90; stage 7 before it) where the input is more than one block's
  // worth and at most a cluster's: 2^16 for the float operators and the int sum, 2^14 for double (and
  // 2^16 for double max and min); the int max and min keep stage 7 there (its warps fold by REDUX).
  // At 2^10 the double max and min name stage 8, faster in the double files' run (tree 790747c,
  // whose stage 7 ran its one block inside the multi-block kernel, as stage 8 does) by less than
  // the run-to-run spread (docs/results/H100/coverage/README.md).
  // Stage 7 everywhere else.
  //                                         2^: 10 12 14 16 18 20 22 24 26 28 30
  static const SizeRule rule{"reduce_ladder_ch08", "reduce_stage_", "coverage_reduce_ch08_*",
                             {{DType::f32, "sum", {7, 7, 7, 9, 7, 7, 7, 7, 7, 7, 7}},
                              {DType::f32, "max", {7, 7, 7, 9, 7, 7, 7, 7, 7, 7, 7}},
                              {DType::f32, "min", {7, 7, 7, 9, 7, 7, 7, 7, 7, 7, 7}},
                              {DType::i32, "sum", {7, 7, 7, 9, 7, 7, 7, 7, 7, 7, 7}},
                              {DType::i32, "max", {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}},
                              {DType::i32, "min", {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}},
                              {DType::f64, "sum", {7, 7, 9, 7, 7, 7, 7, 7, 7, 7, 7}},
                              {DType::f64, "max", {8, 7, 9, 9, 7, 7, 7, 7, 7, 7, 7}},
                              {DType::f64, "min", {8, 7, 9, 9, 7, 7, 7, 7, 7, 7, 7}}}};
  return rule;
}

const SizeRule& scan_rule() {
  //                                    2^: 10 12 14 16 18 20 22 24 26 28 30
  static const SizeRule rule{"scan_ladder", "scan_stage_", "coverage_scan_*",
                             {{DType::f32, "exclusive", {9, 9, 9, 9, 9, 9, 7, 8, 8, 8, 8}},
                              {DType::i32, "exclusive", {9, 9, 9, 9, 9, 9, 7, 8, 8, 8, 8}},
                              {DType::f64, "exclusive", {9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8}},
                              {DType::f32, "inclusive", {9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8}},
                              {DType::i32, "inclusive", {9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8}},
                              {DType::f64, "inclusive", {9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8}}}};
  return rule;
}

const SizeRule& histogram_rule() {
  // uint8 samples into 256 bins; uniform first: the row of a distribution without a ladder (hot). Up to
  // 2^20 stage 10 (one launch, no memset); from 2^22 stages 8 and 9 (the large coverage files do not
  // run stage 10, and its own large runs are in docs/results/H100/histogram_stage_10/).
  //                                         2^: 10  12  14  16  18  20 22 24 26 28 30
  static const SizeRule rule{"histogram_ladder", "histogram_stage_", "coverage_histogram_uint8_*",
                             {{DType::u8, "uniform", {10, 10, 10, 10, 10, 10, 9, 8, 8, 8, 8}},
                              {DType::u8, "one-bin", {10, 10, 10, 10, 10, 10, 8, 8, 8, 8, 8}},
                              {DType::u8, "zipf", {10, 10, 10, 10, 10, 10, 9, 8, 9, 8, 8}},
                              {DType::u8, "image", {10, 10, 10, 10, 10, 10, 9, 9, 9, 8, 8}}}};
  return rule;
}

int rule_size_index(std::size_t n) {
  int log2 = 0;  // floor(log2(n)) for n >= 1
  while (log2 < 63 && (n >> (log2 + 1)) != 0) ++log2;
  if (log2 < kRuleFirstLog2) return 0;
  // [2^k, 2^(k+1)) with k even is nearer 2^k; with k odd, nearer 2^(k+1) (2^k itself is the midpoint).
  return std::min((log2 - kRuleFirstLog2 + 1) / 2, kRuleSizes - 1);
}

const SizeRuleRow& rule_row(const SizeRule& rule, DType type, const std::string& variant) {
  for (const SizeRuleRow& r : rule.rows)
    if (r.type == type && r.variant == variant) return r;
  for (const SizeRuleRow& r : rule.rows)
    if (r.variant == variant) return r;
  return rule.rows.front();
}

bool rule_measured(const SizeRule& rule, DType type, const std::string& variant) {
  return std::any_of(rule.rows.begin(), rule.rows.end(),
                     [&](const SizeRuleRow& r) { return r.type == type && r.variant == variant; });
}

std::string rule_stage_name(const SizeRule& rule, DType type, const std::string& variant, std::size_t n) {
  return rule.prefix + std::to_string(rule_row(rule, type, variant).stage[rule_size_index(n)]);
}

std::string rule_source_note(const SizeRule& rule, DType type, const std::string& variant, int cc) {
  std::string note = "the size rule (common/size_rule.cpp): at each size the fastest stage of the committed H100 "
                     "coverage (docs/results/H100/coverage/" + rule.coverage +
                     "), a size between two measured ones (2^10, 2^12, ..., 2^30) taking the nearer one's stage";
  if (cc != 90) note += "; measured on sm_90 only, and this GPU is sm_" + std::to_string(cc);
  if (!rule_measured(rule, type, variant)) {
    const SizeRuleRow& r = rule_row(rule, type, variant);
    note += std::string("; ") + dtype_name(type) + " " + variant + " has no ladder of its own there: it follows " +
            dtype_name(r.type) + " " + r.variant;
  }
  return note;
}

}  // namespace harness
