//! @file report.hpp
//! @brief Results as records, written as a Markdown table, CSV (RFC 4180) or JSON (nlohmann/json).
#pragma once
#include <iosfwd>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace harness {

//! One value of a record: text, a real number, an integer or a flag.
using Cell = std::variant<std::string, double, long long, bool>;

//! An ordered list of named values: one row of a result table.
struct Record {
  std::vector<std::pair<std::string, Cell>> fields;  //!< column name and value, in column order
  //! Appends a column.
  Record& add(std::string name, Cell value) {
    fields.emplace_back(std::move(name), std::move(value));
    return *this;
  }
  //! The value of column `name`, or nullptr.
  const Cell* find(const std::string& name) const;
};

//! A cell as text: reals with `digits` significant digits ("%.*g"), flags as true/false.
std::string cell_text(const Cell& c, int digits = 6);

//! A Markdown table from a header row and body rows (cells already formatted).
std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows);

//! Writes records as CSV: a header line of the first record's column names, then one line each,
//! every value under its column by name (a column a record lacks is left empty).
//! @throws std::logic_error when a record has a column the first record lacks
//! Fields holding a comma, quote or newline are quoted, with quotes doubled (RFC 4180).
void write_csv(std::ostream& os, const std::vector<Record>& records);

//! Records as a JSON array of objects (reals as numbers, NaN and infinities as null).
std::string to_json(const std::vector<Record>& records);

//! Checks, before any work, that `path` can be opened for writing. Leaves no file behind: a file
//! that did not exist is removed again, so a program that stops early writes nothing.
//! @throws UsageError naming the path when it cannot.
void check_writable(const std::string& path);

//! Writes `text` to the file `path`; throws UsageError if it cannot be opened for writing.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace harness
