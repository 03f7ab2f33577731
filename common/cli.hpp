//! @file cli.hpp
//! @brief The command line shared by every stage program and ladder, built on CLI11.
#pragma once
#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace harness {

//! Parses an element count: a decimal integer ("1000"), a power of two ("2^24"), or a power of two
//! plus or minus an integer ("2^31+1", "2^20-3"). Whitespace is not allowed.
//! @throws UsageError for anything else, for negative results and for values past 2^62.
std::size_t parse_size(const std::string& text);

//! Parses a list of element counts: sizes as parse_size reads them, separated by commas, where
//! "A..B" stands for A, 2A, 4A, ... up to B ("2^10..2^22": every power of two from 2^10 to 2^22).
//! @throws UsageError for an empty list, an empty item, a bad size, a range whose A is 0 or whose B
//!         is below A, or more than 64 sizes in all.
std::vector<std::size_t> parse_size_list(const std::string& text);

//! The comma-separated items of `text` ("a,b,c"); empty text: no item.
//! @param text the list as typed
//! @param option the flag the list came from, named in the error (e.g. "--stages")
//! @throws UsageError for an empty item ("a,,b", "a,", ",a")
std::vector<std::string> split_list(const std::string& text, const std::string& option);

//! Options of a stage program or ladder, as given on the command line.
struct RunOptions {
  std::string n_text = "2^24";   //!< --n as typed
  std::size_t n = 0;             //!< --n parsed by parse_size (set by parse_command_line)
  int block = 256;               //!< --block, threads per block
  bool block_given = false;      //!< --block was on the command line (else each stage's default block)
  std::size_t grid = 0;          //!< --grid, blocks (0: the stage chooses)
  std::string type = "float";    //!< --type: float, double or int
  std::string dist = "signed";   //!< --dist: one of the problem's distributions
  int iters = 50;                //!< --iters, timed repetitions
  int warmup = 5;                //!< --warmup, untimed runs before timing
  std::uint64_t seed = 42;       //!< --seed of the input generator
  std::string csv;               //!< --csv FILE: write results as CSV
  std::string json;              //!< --json FILE: write results as JSON
  std::string md;                //!< --md FILE: write the Markdown report (ladders)
  bool profile = false;          //!< --profile: one warm-up, then one launch in a profiler range
  bool no_flush = false;         //!< --no-flush: keep the L2 warm between timed runs
  double max_seconds = 0;        //!< --max-seconds: cap the timed repetitions of slow stages
};

//! What a program offers: optional flags, and the values its flags accept.
struct OptionSet {
  bool grid = false;     //!< --grid (grid-stride stages)
  bool profile = true;   //!< --profile (stage programs)
  bool md = false;       //!< --md (ladders)
  int min_block = 32;    //!< smallest --block accepted (a power of two)
  int max_block = 1024;  //!< largest --block accepted (a power of two)
  std::vector<std::string> types{"float", "double", "int"};  //!< --type values accepted
  std::vector<std::string> dists{"signed", "uniform", "skewed", "exact"};  //!< --dist values; the first is the default
  std::string dist_help = "Input distribution";  //!< help text of --dist
  //! What to run for a --type not in `types` (a stage program's Stage::instead); empty: the refusal
  //! only lists the types accepted.
  std::string types_instead;
};

//! Adds the common flags to `app`, writing into `opts`.
void add_run_options(CLI::App& app, RunOptions& opts, const OptionSet& which);

//! Parses a finite decimal number as require_decimal_numbers accepts it ("2", "-0.5", "1e-3").
//! @param[in] text the number as typed
//! @param[in] what names the option or list it came from, for the message
//! @throws UsageError for anything else ("nan", "inf", "0x1p-1", "3abc", "", a value past double's range)
double parse_decimal(const std::string& text, const std::string& what);

//! Makes every numeric option of `app` accept only numbers written in base 10, checked before
//! CLI11 converts them: integers as "0" or digits without a leading zero (a '-' only for signed
//! ones), other numbers finite ("0.5", "1e-3"). So "010", "0x10", "-1" for a count or a seed,
//! "nan", "inf" and "3abc" are refused with the option's name, instead of CLI11's base-0 reading
//! (8, 16, 2^64 - 1). Flags are left alone. parse_flags calls it, so every program gets it.
void require_decimal_numbers(CLI::App& app);

//! Parses a command line with CLI11 (after require_decimal_numbers). Returns std::nullopt when the program should go on; otherwise
//! the exit code to return at once: 0 after --help, 2 (kExitUsage) after a message naming the bad
//! flag or value. The one place where parse errors become exit codes.
std::optional<int> parse_flags(CLI::App& app, int argc, const char* const* argv);

//! Parses the command line of a stage program or ladder (parse_flags, then --n). Returns std::nullopt when the program should go on; otherwise the exit
//! code to return at once: 0 after --help, 2 (kExitUsage) after a message naming the bad flag or
//! value (unknown flags, malformed numbers, values outside their range).
std::optional<int> parse_command_line(CLI::App& app, RunOptions& opts, int argc,
                                      const char* const* argv);

}  // namespace harness
