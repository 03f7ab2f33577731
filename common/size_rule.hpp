//! @file size_rule.hpp
//! @brief The size rule: which stage of a ladder to run for a type, an operator, a scan or a
//! distribution, and n, so that a reader who calls the tutorial's reduction, scan or histogram gets
//! its fastest stage. It is what `--stages auto` runs in the four ladders (reduce_ladder,
//! reduce_ladder_ch08, scan_ladder, histogram_ladder).
//!
//! Source: the committed H100 coverage, docs/results/H100/coverage (its README.md has the fastest
//! verified stage of every ladder at every size; the CSV files beside it hold each stage's time).
//! Each row of a rule is one ladder of that coverage: the number of its fastest stage at 2^10, 2^12,
//! ..., 2^30. test_size_rule holds every row to the coverage's CSV files: at each size the row's stage
//! is the fastest verified stage or within 2% of it. The thresholds are absolute sizes
//! measured on one sm_90 GPU: that coverage cannot tell how they move with the SM count or the L2 of
//! another GPU, so other GPUs use the same table, and a stage that cannot run there gives way to the
//! stage it names as `instead` (rule_stage_here).
#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "device_limits.hpp"
#include "dtype.hpp"
#include "errors.hpp"
#include "run_stage.hpp"
#include "stage.hpp"

namespace harness {

//! log2 of the smallest size the coverage measured (2^10 elements).
inline constexpr int kRuleFirstLog2 = 10;
//! log2 of the largest size the coverage measured (2^30 elements).
inline constexpr int kRuleLastLog2 = 30;
//! The sizes the coverage measured: 2^10, 2^12, ..., 2^30.
inline constexpr int kRuleSizes = (kRuleLastLog2 - kRuleFirstLog2) / 2 + 1;

//! One ladder of the coverage: its input type, its variant and its fastest stage at each size.
struct SizeRuleRow {
  DType type = DType::f32;  //!< the input (or sample) type of that ladder
  //! The ladder's setting besides the type, as P::rule_variant spells it: the operator ("sum",
  //! "max", "min"), the scan ("exclusive", "inclusive") or the histogram's --dist ("uniform", ...).
  std::string variant;
  //! The stage's number at 2^10, 2^12, ..., 2^30 elements (its name: SizeRule::prefix + number).
  std::array<int, kRuleSizes> stage{};
};

//! The size rule of one ladder program.
struct SizeRule {
  std::string ladder;    //!< the program that offers it as `--stages auto`, e.g. "reduce_ladder"
  std::string prefix;    //!< the stages' names without their number, e.g. "reduce_kernel_"
  std::string coverage;  //!< the coverage files the rows come from, e.g. "coverage_reduce_ch07_*"
  //! One row per ladder of the coverage. A type or variant that has no row of its own takes the
  //! row of its variant for another type, else the first row (rule_row).
  std::vector<SizeRuleRow> rows;
};

//! Chapter 7's reduction (reduce_ladder): sums of float, int and double; stages 9, 12 and 13.
const SizeRule& ch07_reduce_rule();
//! Chapter 8's reduction (reduce_ladder_ch08): sum, max and min of float, int and double; stage 7.
const SizeRule& ch08_reduce_rule();
//! Chapter 8's scan (scan_ladder): float, int and double, exclusive and inclusive; stages 7, 8, 9.
const SizeRule& scan_rule();
//! Chapter 8's histogram (histogram_ladder): uint8 samples, uniform, one-bin, zipf and image data
//! into 256 bins; stages 4 and 7.
const SizeRule& histogram_rule();

//! Which measured size a size n takes its stage from: the index, 0 to kRuleSizes - 1, of the
//! nearest of 2^10, 2^12, ..., 2^30 on a log scale. The boundary between two measured sizes is the
//! odd power of two between them, which belongs to the larger (2^21 takes 2^22's stage); n below
//! 2^10 (n = 0 included) takes 2^10's, n above 2^30 takes 2^30's.
//! @param[in] n number of elements (any value)
int rule_size_index(std::size_t n);

//! The row of `rule` for `type` and `variant`: its own, else the row of the same variant for
//! another type (a histogram of int samples takes the uint8 row of its --dist), else the first row
//! (a distribution without a ladder of its own takes uniform's).
//! @param[in] rule the size rule (at least one row)
//! @param[in] type input type
//! @param[in] variant as P::rule_variant spells it
const SizeRuleRow& rule_row(const SizeRule& rule, DType type, const std::string& variant);

//! True when `rule` has a row of its own for `type` and `variant` (a ladder of the coverage
//! measured it), false when rule_row lends it another's.
bool rule_measured(const SizeRule& rule, DType type, const std::string& variant);

//! The stage the rule names for `type`, `variant` and n elements: SizeRule::prefix and the number
//! rule_row gives at rule_size_index(n), e.g. "scan_stage_9". It may not run on every GPU (scan
//! stage 8 and chapter 7's stage 13 need sm_90): rule_stage_here says what runs instead.
//! @param[in] rule the size rule
//! @param[in] type input type
//! @param[in] variant as P::rule_variant spells it
//! @param[in] n number of elements (any value)
std::string rule_stage_name(const SizeRule& rule, DType type, const std::string& variant, std::size_t n);

//! One sentence for a report on where the rule comes from and what it names here: the coverage
//! files, "measured on sm_90 only" where `cc` is another architecture, and the row it lends where
//! `type` and `variant` have none of their own.
//! @param[in] rule the size rule
//! @param[in] type input type
//! @param[in] variant as P::rule_variant spells it
//! @param[in] cc the GPU's compute capability as 10 x major + minor (90 for sm_90)
std::string rule_source_note(const SizeRule& rule, DType type, const std::string& variant, int cc);

//! What the rule runs at one size: the stage, and each stage of the rule that it passed over on
//! the way.
template <class P>
struct RuleChoice {
  const Stage<P>* stage = nullptr;       //!< the stage that runs
  std::vector<std::string> passed_over;  //!< "scan_stage_8: it needs sm_90 ..." for each one passed over
};

//! The stage that `--stages auto` runs for `a` (its type, its n and the problem's settings) among
//! `stages` on a GPU with `limits`: the one rule_stage_name names or, where that one cannot run
//! here (validate_config refuses `a` at its block, or device_refusal says why), the stage it names
//! as Stage::instead, and so on (chapter 7's stage 13 gives way to stage 12, scan stage 8 to
//! stage 7, histogram stage 7 to stage 4 and stage 4 to stage 0).
//! @tparam P the problem
//! @param[in] rule the ladder's size rule
//! @param[in] variant the problem's settings as P::rule_variant spells them
//! @param[in] stages the ladder's stages, where the names are looked up
//! @param[in] a the launch arguments: type, n and the problem's settings (block and grid are set here)
//! @param[in] block_of the block a stage runs at (--block, or the stage's default on this GPU)
//! @param[in] limits the limits of the GPU it runs on
//! @throws UsageError when no stage of that chain is among `stages` and can run, naming why
template <class P>
RuleChoice<P> rule_stage_here(const SizeRule& rule, const std::string& variant,
                              const std::vector<const Stage<P>*>& stages, typename P::Args a,
                              const std::function<int(const Stage<P>&)>& block_of, const DeviceLimits& limits) {
  RuleChoice<P> choice;
  std::string name = rule_stage_name(rule, a.type, variant, a.n);
  for (std::size_t hops = 0; hops <= stages.size(); ++hops) {
    const Stage<P>* s = nullptr;
    for (const Stage<P>* t : stages)
      if (t->name == name) s = t;
    if (!s) break;
    a.block = block_of(*s);
    a.grid = 0;
    std::string why;
    try {
      validate_config(*s, a);
      why = device_refusal(*s, a, limits);
    } catch (const UsageError& e) {  // "<stage>: <rule>"
      why = e.what();
      if (why.rfind(s->name + ": ", 0) == 0) why.erase(0, s->name.size() + 2);
    }
    if (why.empty()) {
      choice.stage = s;
      return choice;
    }
    choice.passed_over.push_back(s->name + ": " + why);
    name = s->instead;
  }
  std::string tried;
  for (const std::string& p : choice.passed_over) tried += "; " + p;
  throw UsageError("--stages auto: the size rule's stage for n = " + std::to_string(a.n) +
                   " cannot run here" + tried + (name.empty() ? "" : "; and " + name + " is not in this ladder") +
                   "; name the stages to run with --stages");
}

}  // namespace harness
