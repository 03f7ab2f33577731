// CPU test: the size rule (common/size_rule.hpp), what `--stages auto` runs in the four ladders.
// - it names, for every problem, type, variant and size from 0 to past 2^31, a stage of its ladder
//   that takes those arguments, and some stage runs on every GPU a reader has (the rule's own on
//   sm_90, where it was measured; elsewhere the stage it names as `instead`);
// - its rows hold the committed H100 coverage (docs/results/H100/coverage): at every measured size
//   the rule's stage is the fastest verified stage of that ladder, or within 2% of it;
// - `--stages auto` parses, and what cannot be run is refused with exit code 2 before any GPU work;
// - the `auto` row of a ladder over sizes names the stage that ran in each cell.
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ch07_stages.hpp"
#include "ch08_histogram_stages.hpp"
#include "ch08_reduce_stages.hpp"
#include "ch08_scan_stages.hpp"
#include "drivers_impl.hpp"
#include "size_rule.hpp"

using namespace harness;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Pointers to `stages` (kept alive by the caller).
template <class P>
std::vector<const Stage<P>*> pointers(const std::vector<Stage<P>>& stages) {
  std::vector<const Stage<P>*> p;
  for (const Stage<P>& s : stages) p.push_back(&s);
  return p;
}

// The problem's settings that `variant` names (P::rule_variant's inverse).
Reduce::Config config_of(const Reduce::Config&, const std::string& variant) { return {parse_op(variant)}; }
Scan::Config config_of(const Scan::Config&, const std::string& variant) { return {variant == "inclusive"}; }
Histogram::Config config_of(const Histogram::Config& c, const std::string&) { return c; }

// Every n the rule must answer for: 0, and 2^k - 1, 2^k, 2^k + 1 for k = 0 .. 32.
std::vector<std::size_t> sizes_to_check() {
  std::vector<std::size_t> n{0};
  for (int k = 0; k <= 32; ++k) {
    const std::size_t p = std::size_t{1} << k;
    for (std::size_t v : {p - 1, p, p + 1}) n.push_back(v);
  }
  return n;
}

// For every type and variant, every size and every reader GPU: rule_stage_here finds a stage of the
// ladder that takes the arguments and runs there; on sm_90 it is the rule's own stage, which then
// takes the type and the variant (validate_config). Returns the number of checks.
template <class P>
int check_rule_runs(const SizeRule& rule, const std::vector<Stage<P>>& ladder, const std::vector<DType>& types,
                    const std::vector<std::string>& variants) {
  const std::vector<const Stage<P>*> stages = pointers(ladder);
  int checks = 0;
  for (DType type : types) {
    for (const std::string& variant : variants) {
      const typename P::Config config = config_of(typename P::Config{}, variant);
      CHECK(P::rule_variant(config, variant) == variant);  // what the ladder hands the rule
      for (const DeviceLimits& gpu : reader_gpus()) {
        for (std::size_t n : sizes_to_check()) {
          typename P::Args a;
          P::apply(config, a);
          a.type = type;
          a.n = n;
          const std::string named = rule_stage_name(rule, type, variant, n);
          INFO(rule.ladder << ": " << dtype_name(type) << " " << variant << ", n = " << n << " on " << gpu.name
                           << ": the rule names " << named);
          const std::function<int(const Stage<P>&)> block_of = [&](const Stage<P>& s) {
            return default_block_of(s, a, gpu);
          };
          RuleChoice<P> choice;
          REQUIRE_NOTHROW(choice = rule_stage_here<P>(rule, variant, stages, a, block_of, gpu));
          REQUIRE(choice.stage != nullptr);
          if (gpu.cc == 90) {
            const Stage<P>* own = nullptr;
            for (const Stage<P>* s : stages)
              if (s->name == named) own = s;
            REQUIRE(own != nullptr);
            if (own->unavailable.empty()) CHECK(choice.stage->name == named);
            else WARN(named << " is not in this build (" << own->unavailable << "): " << choice.stage->name << " runs");
          }
          ++checks;
        }
      }
    }
  }
  return checks;
}

// One committed coverage ladder: the stages' median microseconds per run at each n (verified rows only).
using CoverageTimes = std::map<std::size_t, std::map<std::string, double>>;

// Reads the verified stage rows of one coverage CSV into `times` (columns by name; no quoted fields).
void read_coverage_csv(const std::string& path, CoverageTimes& times) {
  std::ifstream in(path);
  REQUIRE(in.good());
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    return cells;
  };
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    FAIL(path << " has no column " << name);
    return std::size_t{0};
  };
  const std::size_t stage = column("stage"), n = column("n"), verified = column("verified"), us = column("us_median");
  while (std::getline(in, line)) {
    const std::vector<std::string> c = split(line);
    if (c.size() == header.size() && c[verified] == "true") times[std::stoull(c[n])][c[stage]] = std::stod(c[us]);
  }
}

// A coverage ladder, by the name its files share ("reduce_ch08_double_sum"): its rule, type and variant.
struct CoverageLadder {
  const SizeRule* rule;
  DType type;
  std::string variant;
};

// The ladder that coverage_<name>_small.csv and _large.csv hold.
CoverageLadder ladder_of(const std::string& name) {
  std::vector<std::string> p;
  std::stringstream ss(name);
  for (std::string w; std::getline(ss, w, '_');) p.push_back(w);
  if (p[0] == "reduce" && p[1] == "ch07") return {&ch07_reduce_rule(), parse_dtype(p[2]), p[3]};
  if (p[0] == "reduce" && p[1] == "ch08") return {&ch08_reduce_rule(), parse_dtype(p[2]), p[3]};
  if (p[0] == "scan") return {&scan_rule(), parse_dtype(p[1]), p.size() > 2 ? p[2] : "exclusive"};
  REQUIRE(p[0] == "histogram");
  return {&histogram_rule(), parse_dtype(p[1]), p[2]};
}

// The committed ladders, by name.
const std::vector<std::string> kLadders{
    "histogram_uint8_image",  "histogram_uint8_one-bin", "histogram_uint8_uniform", "histogram_uint8_zipf",
    "reduce_ch07_double_sum", "reduce_ch07_float_sum",   "reduce_ch07_int_sum",     "reduce_ch08_double_max",
    "reduce_ch08_double_min", "reduce_ch08_double_sum",  "reduce_ch08_float_max",   "reduce_ch08_float_min",
    "reduce_ch08_float_sum",  "reduce_ch08_int_max",     "reduce_ch08_int_min",     "reduce_ch08_int_sum",
    "scan_double",            "scan_double_inclusive",   "scan_float",              "scan_float_inclusive",
    "scan_int",               "scan_int_inclusive"};

// Runs a ladder program's main with `args` (after the program name); returns its exit code.
template <class P>
int run_ladder_main(const LadderSpec<P>& spec, std::vector<const char*> args) {
  args.insert(args.begin(), spec.program.c_str());
  return ladder_main(static_cast<int>(args.size()), const_cast<char**>(args.data()), spec);
}

}  // namespace

TEST_CASE("a size takes the stage of the nearest measured size, on a log scale", "[cpu][size_rule]") {
  CHECK(kRuleSizes == 11);
  CHECK(rule_size_index(0) == 0);
  CHECK(rule_size_index(1) == 0);
  CHECK(rule_size_index(1000) == 0);
  CHECK(rule_size_index(1 << 10) == 0);
  CHECK(rule_size_index((1 << 11) - 1) == 0);
  CHECK(rule_size_index(1 << 11) == 1);  // the midpoint between 2^10 and 2^12 takes the larger's stage
  CHECK(rule_size_index(1 << 12) == 1);
  CHECK(rule_size_index((1 << 13) - 1) == 1);
  CHECK(rule_size_index(1 << 13) == 2);
  CHECK(rule_size_index((std::size_t{1} << 21) - 1) == 5);  // nearer 2^20
  CHECK(rule_size_index(std::size_t{1} << 21) == 6);        // 2^22's
  CHECK(rule_size_index(std::size_t{1} << 30) == 10);
  CHECK(rule_size_index(std::size_t{1} << 31) == 10);
  CHECK(rule_size_index(~std::size_t{0}) == 10);
  // The names at the thresholds the pages state.
  CHECK(rule_stage_name(scan_rule(), DType::f32, "exclusive", std::size_t{1} << 20) == "scan_stage_9");
  CHECK(rule_stage_name(scan_rule(), DType::f32, "exclusive", std::size_t{1} << 22) == "scan_stage_7");
  CHECK(rule_stage_name(scan_rule(), DType::f64, "exclusive", std::size_t{1} << 22) == "scan_stage_8");
  CHECK(rule_stage_name(scan_rule(), DType::f32, "inclusive", std::size_t{1} << 22) == "scan_stage_8");
  CHECK(rule_stage_name(scan_rule(), DType::i32, "exclusive", std::size_t{1} << 24) == "scan_stage_8");
  CHECK(rule_stage_name(histogram_rule(), DType::u8, "uniform", std::size_t{1} << 18) == "histogram_stage_10");
  CHECK(rule_stage_name(histogram_rule(), DType::u8, "uniform", std::size_t{1} << 20) == "histogram_stage_10");
  CHECK(rule_stage_name(histogram_rule(), DType::u8, "uniform", std::size_t{1} << 22) == "histogram_stage_9");
  CHECK(rule_stage_name(histogram_rule(), DType::u8, "one-bin", std::size_t{1} << 20) == "histogram_stage_10");
  CHECK(rule_stage_name(histogram_rule(), DType::u8, "one-bin", std::size_t{1} << 22) == "histogram_stage_8");
  CHECK(rule_stage_name(ch07_reduce_rule(), DType::f32, "sum", 1000) == "reduce_kernel_12");
  CHECK(rule_stage_name(ch07_reduce_rule(), DType::f32, "sum", std::size_t{1} << 16) == "reduce_kernel_13");
  CHECK(rule_stage_name(ch07_reduce_rule(), DType::f64, "sum", std::size_t{1} << 14) == "reduce_kernel_13");
  CHECK(rule_stage_name(ch07_reduce_rule(), DType::f32, "sum", std::size_t{1} << 22) == "reduce_kernel_10");
  CHECK(rule_stage_name(ch07_reduce_rule(), DType::f32, "sum", std::size_t{1} << 24) == "reduce_kernel_9");
  CHECK(rule_stage_name(ch08_reduce_rule(), DType::i32, "min", 0) == "reduce_stage_7");
  // A case without a ladder of its own borrows a row, and the report says so.
  CHECK_FALSE(rule_measured(histogram_rule(), DType::i32, "one-bin"));
  CHECK(rule_row(histogram_rule(), DType::i32, "one-bin").variant == "one-bin");
  CHECK(rule_row(histogram_rule(), DType::u8, "hot").variant == "uniform");
  CHECK(contains(rule_source_note(histogram_rule(), DType::i32, "hot", 90), "int hot has no ladder of its own"));
  CHECK(contains(rule_source_note(scan_rule(), DType::f32, "exclusive", 75), "measured on sm_90 only"));
  CHECK_FALSE(contains(rule_source_note(scan_rule(), DType::f32, "exclusive", 90), "sm_90 only"));
}

TEST_CASE("the rule names a stage that runs, for every problem, type, variant and size, on every reader GPU",
          "[cpu][size_rule]") {
  const auto ch07_tables = ch07::ladder_tables();
  std::vector<Stage<Reduce>> ch07_stages;
  for (const auto& t : ch07_tables) ch07_stages.insert(ch07_stages.end(), t.stages.begin(), t.stages.end());
  const std::vector<DType> types{DType::f32, DType::f64, DType::i32};
  int checks = 0;
  checks += check_rule_runs(ch07_reduce_rule(), ch07_stages, types, {"sum"});
  checks += check_rule_runs(ch08_reduce_rule(), ch08::ladder_reduce_stages(), types, {"sum", "max", "min"});
  checks += check_rule_runs(scan_rule(), ch08::all_scan_stages(), types, {"exclusive", "inclusive"});
  checks += check_rule_runs(histogram_rule(), ch08::all_histogram_stages(), {DType::u8, DType::i32, DType::f32},
                            Histogram::dist_names());
  CHECK(checks > 10000);
}

TEST_CASE("on a GPU older than sm_90 the rule's sm_90 stages give way to the stage each names instead",
          "[cpu][size_rule]") {
  const auto ladder = ch08::all_scan_stages();
  ScanArgs a;
  a.type = DType::f32;
  a.n = std::size_t{1} << 26;  // stage 8's size
  const RuleChoice<Scan> on_a100 = rule_stage_here<Scan>(
      scan_rule(), "exclusive", pointers(ladder), a, [](const Stage<Scan>& s) { return default_block_of(s); },
      limits_sm80());
  CHECK(on_a100.stage->name == "scan_stage_7");
  REQUIRE(on_a100.passed_over.size() == 1);
  CHECK(contains(on_a100.passed_over[0], "scan_stage_8"));
  // A ladder without the chain's stages: refused, naming what to do.
  const std::vector<const Stage<Scan>*> only_8{&ladder[7]};
  REQUIRE(ladder[7].name == "scan_stage_8");
  try {
    rule_stage_here<Scan>(scan_rule(), "exclusive", only_8, a, [](const Stage<Scan>& s) { return default_block_of(s); },
                          limits_sm80());
    FAIL("a rule whose stages cannot run was not refused");
  } catch (const UsageError& e) {
    CHECK(contains(e.what(), "--stages auto"));
    CHECK(contains(e.what(), "scan_stage_7 is not in this ladder"));
  }
}

TEST_CASE("the rule's rows hold the committed H100 coverage", "[cpu][size_rule]") {
  const std::string dir = std::string(TUTORIAL_SOURCE_DIR) + "/docs/results/H100/coverage/";
  std::map<const SizeRule*, int> rows_covered;
  for (const std::string& name : kLadders) {
    CoverageTimes times;
    read_coverage_csv(dir + "coverage_" + name + "_small.csv", times);
    read_coverage_csv(dir + "coverage_" + name + "_large.csv", times);
    const CoverageLadder l = ladder_of(name);
    CHECK(rule_measured(*l.rule, l.type, l.variant));
    ++rows_covered[l.rule];
    for (int k = kRuleFirstLog2; k <= kRuleLastLog2; k += 2) {
      const std::size_t n = std::size_t{1} << k;
      INFO(name << " at 2^" << k);
      REQUIRE(times.count(n));
      const std::string named = rule_stage_name(*l.rule, l.type, l.variant, n);
      std::string fastest;
      for (const auto& [stage, us] : times[n])
        if (stage.rfind(l.rule->prefix, 0) == 0 && (fastest.empty() || us < times[n][fastest])) fastest = stage;
      REQUIRE(times[n].count(named));
      const double ratio = times[n][named] / times[n][fastest];
      INFO("the rule names " << named << ", " << ratio << "x the time of the fastest, " << fastest);
      CHECK(ratio <= 1.02);
    }
  }
  // Every row of every rule is one committed ladder.
  for (const SizeRule* rule : {&ch07_reduce_rule(), &ch08_reduce_rule(), &scan_rule(), &histogram_rule()})
    CHECK(rows_covered[rule] == static_cast<int>(rule->rows.size()));
}

TEST_CASE("--stages auto: parsed beside named stages; what it cannot name is refused before any GPU work",
          "[cpu][size_rule]") {
  const auto ladder = ch08::all_scan_stages();
  const std::vector<const Stage<Scan>*> all = pointers(ladder);
  std::vector<std::string> wanted = detail::stages_asked("auto,scan_stage_7", all, &scan_rule());
  CHECK(detail::take_auto(wanted));
  CHECK(wanted == std::vector<std::string>{"scan_stage_7"});
  wanted = detail::stages_asked("auto", all, &scan_rule());
  CHECK(detail::take_auto(wanted));
  CHECK(wanted.empty());
  wanted = detail::stages_asked("scan_stage_9", all, &scan_rule());
  CHECK_FALSE(detail::take_auto(wanted));
  CHECK_THROWS_AS(detail::stages_asked("auto", all, nullptr), UsageError);  // a ladder without a rule
  CHECK_THROWS_AS(detail::stages_asked("auto,nope", all, &scan_rule()), UsageError);
  CHECK_THROWS_AS(detail::stages_asked("auto,,scan_stage_7", all, &scan_rule()), UsageError);

  LadderSpec<Scan> spec;
  spec.program = "scan_ladder";
  spec.title = "scan";
  spec.stages = ladder;
  spec.size_rule = &scan_rule();
  CHECK(run_ladder_main(spec, {"--stages", "auto,nope"}) == kExitUsage);
  CHECK(run_ladder_main(spec, {"--stages", "auto,"}) == kExitUsage);
  CHECK(run_ladder_main(spec, {"--stages", "auto", "--n", "2^20", "--sizes", "2^10"}) == kExitUsage);
  spec.size_rule = nullptr;
  CHECK(run_ladder_main(spec, {"--stages", "auto"}) == kExitUsage);
}

TEST_CASE("the auto row of a ladder over sizes names the stage that ran in each cell", "[cpu][size_rule]") {
  const auto ladder = ch08::all_scan_stages();
  const Stage<Scan>& s7 = ladder[6];
  const Stage<Scan>& s9 = ladder[8];
  REQUIRE(s7.name == "scan_stage_7");
  REQUIRE(s9.name == "scan_stage_9");
  Stage<Scan> cub;
  cub.name = "cub::DeviceScan";
  const std::vector<detail::SizeRow<Scan>> rows =
      detail::size_ladder_rows<Scan>({&s7}, std::vector<const Stage<Scan>*>{&s9, &s7}, cub);
  REQUIRE(rows.size() == 3);  // stage 7, auto, CUB
  CHECK(rows[1].by_rule);
  detail::SizeTable table;
  // [row][size]: stage 7, the auto row (stage 9 at the first size, stage 7 at the second), CUB, the copy.
  table.cells = {{{5.0, 2, true}, {12.0, 2, true}},
                 {{2.0, 1, true}, {12.5, 2, true}},
                 {{4.0, 2, true}, {13.0, 2, true}},
                 {{3.0, 1, true}, {8.0, 1, true}}};
  const auto [us, ratio] = detail::size_tables(rows, table, 2);
  CHECK(us[1][1] == "`auto` (the size rule)");
  CHECK(us[1][2] == "`scan_stage_9` 2.00 (1)");
  CHECK(us[1][3] == "`scan_stage_7` 12.50 (2)");
  CHECK(ratio[1][2] == "`scan_stage_9` 2.00");
  CHECK(us[0][2] == "5.00 (2)");  // a named stage's cells stay numbers
  const detail::MarkdownRows fastest = detail::fastest_stage_row(rows, table, 2);
  CHECK(fastest[0][2] == "`scan_stage_9` (2.00)");  // the auto row counts as the stage it ran
  CHECK(fastest[0][3] == "`scan_stage_7` (1.08)");
}
