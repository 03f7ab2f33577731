//! @file drivers.hpp
//! @brief The two programs every problem shares: a stage program (one stage: check, time, report)
//! and a ladder (every stage of a chapter, the CUB baseline and the bandwidth ceilings on one input).
//! Both are written once, for any problem P; each problem folder (common/reduce/, common/scan/,
//! common/histogram/) instantiates them.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "stage.hpp"

namespace harness {

struct SizeRule;  // size_rule.hpp

//! A flag that chooses among the forms of a stage program (e.g. chapter 7's `--finish`).
struct VariantFlag {
  std::string flag;                //!< e.g. "--finish"
  std::vector<std::string> names;  //!< its values, the first the default, e.g. "partials", "atomic"
  std::string help;                //!< help text of the flag
};

//! One form of a stage program: the stage, and the value of each of the program's flags that
//! chooses it.
template <class P>
struct StageForm {
  std::vector<std::string> values;  //!< one value per StageProgram::flags, in their order
  Stage<P> stage;                   //!< what runs when the flags have these values
};

//! A stage program: one stage, or a few forms of it chosen by flags.
//! @tparam P the problem
template <class P>
struct StageProgram {
  //! A program of one stage, no flags.
  StageProgram(Stage<P> stage) : forms{{{}, std::move(stage)}} {}  // NOLINT: a stage is a program
  //! A program of several forms: `forms` holds one form for every combination of the flags' values
  //! (stage_main checks that before parsing; a missing or doubled one is a std::logic_error).
  StageProgram(std::vector<VariantFlag> flags, std::vector<StageForm<P>> forms)
      : flags(std::move(flags)), forms(std::move(forms)) {}

  std::vector<VariantFlag> flags;   //!< the flags that choose a form; empty for one form
  std::vector<StageForm<P>> forms;  //!< the first is what the program runs without flags
  //! The stage of the first form (what the program runs without flags).
  const Stage<P>& stage() const { return forms.front().stage; }
};

//! The program whose forms are `stages`, chosen by the one flag `flag`: its n-th value names the
//! n-th stage (stage 7's `--copies 1|2|4`, a broken stage's `--bug`).
//! @param[in] flag the flag; flag.names has one value per stage
//! @param[in] stages the forms, the default first
//! @throws std::logic_error when the counts differ
template <class P>
StageProgram<P> program_by_flag(VariantFlag flag, std::vector<Stage<P>> stages) {
  if (flag.names.size() != stages.size())
    throw std::logic_error(flag.flag + ": " + std::to_string(flag.names.size()) + " values for " +
                           std::to_string(stages.size()) + " stages");
  std::vector<StageForm<P>> forms;
  for (std::size_t k = 0; k < stages.size(); ++k) forms.push_back({{flag.names[k]}, std::move(stages[k])});
  return StageProgram<P>({std::move(flag)}, std::move(forms));
}

//! Runs a stage program: parses the flags (those the stage accepts), checks the stage on data whose
//! exact answer is known, times it on the --dist input (after --warmup runs, median of --iters, L2
//! flushed) and checks that input too (exact, or its error against the depth bound, or "not
//! checked"), then prints the device, the configuration, the time, GB/s, % of peak, the roofline
//! and both checks; --csv / --json write the same as a record. With --profile: one checked
//! warm-up, then exactly one launch between cudaProfilerStart/Stop inside an NVTX range named after
//! the stage (for `ncu --profile-from-start off`).
//! @return 0 when the checks passed; 1 when a check failed or CUDA failed; 2 for bad flags or sizes
//!         the stage does not accept; 77 when no GPU is visible
template <class P>
int stage_main(int argc, char** argv, const StageProgram<P>& program);

//! stage_main for a program of one stage.
template <class P>
int stage_main(int argc, char** argv, const Stage<P>& stage) {
  return stage_main<P>(argc, argv, StageProgram<P>(stage));
}

//! One table of a ladder that has several (e.g. the same stages with another finish).
template <class P>
struct LadderTable {
  //! Its rows' value in the ladder's table_column, e.g. "partials"; a stage named "<name>_<key>" is
  //! numbered in the `#` column as "<name>" would be (reduce_kernel_3_partials: 3).
  std::string key;
  std::string title;             //!< its heading in the report
  std::string note;              //!< a paragraph under the heading (may be empty)
  std::vector<Stage<P>> stages;  //!< in ladder order; step speedups compare neighbours
};

//! What a ladder program runs.
template <class P>
struct LadderSpec {
  std::string program;           //!< program name, e.g. "reduce_ladder"
  std::string title;             //!< heading of the report
  std::vector<Stage<P>> stages;  //!< in ladder order; step speedups compare neighbours
  //! Several tables on the same input instead of `stages` (which is then unused): each table has its
  //! own step and total columns (total: against its first row); the baseline and the bandwidth
  //! ceilings are measured once and close every table. Stage names must differ across tables.
  std::vector<LadderTable<P>> tables;
  //! With `tables`: the CSV / JSON column that names each row's table (its key), e.g. "finish";
  //! empty for the baseline and ceiling rows.
  std::string table_column;
  //! The size rule behind `--stages auto` (size_rule.hpp: which stage to run at which size, from
  //! the committed H100 coverage); null: the ladder offers no `auto`.
  const SizeRule* size_rule = nullptr;
};

//! Runs a ladder: every stage that supports the type and settings, P's CUB baseline and P's
//! bandwidth ceilings (P::ceilings(): a device-to-device copy, a streaming read, or both, as for a
//! reduction; P::ceilings_help() says why, in --help and under the tables) on the same input in one run.
//! Each stage is checked on exact data first (the verdict), then timed and checked on the --dist
//! input. The table has, per stage: its number, time (median ms), GB/s, % of peak DRAM bandwidth,
//! step speedup (previous stage's time / this one's), total speedup (first stage's / this one's),
//! ratio to CUB (CUB's time / this one's: above 1 is faster than CUB), the verdict and which check
//! decided it, and the timed input's error check. With LadderSpec::tables, one such table per
//! LadderTable, each closed by the baseline and the ceilings, and the records carry the table's key
//! in LadderSpec::table_column. Flags as stage_main plus --stages (a comma-separated list of names,
//! from any table, and `auto` where LadderSpec::size_rule is set: the stage that rule names for the
//! type, the settings and n, beside any stages named) and --md.
//! With --sizes LIST or --small (2^10, 2^12, ..., 2^22) it runs the same rows at every size instead
//! of one --n, each sample timing --runs-per-sample runs together (replayed from one CUDA graph, or
//! with --sample-timing stream enqueued back to back) and divided by that, and counts the launches
//! one run enqueues (from a CUDA graph of one run): a table of microseconds and launches per run,
//! and one of CUB's time / each row's time, over the sizes (the CSV: one record per row and size).
//! There `auto` is one row that runs the rule's stage at each size, and its cells name that stage.
//! @return 0 when every row passed, 1 otherwise, 2 for bad flags, 77 without a GPU
template <class P>
int ladder_main(int argc, char** argv, const LadderSpec<P>& spec);

}  // namespace harness
