#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "errors.hpp"

namespace harness {

const Cell* Record::find(const std::string& name) const {
  for (const auto& [k, v] : fields)
    if (k == name) return &v;
  return nullptr;
}

std::string cell_text(const Cell& c, int digits) {
  if (const auto* s = std::get_if<std::string>(&c)) return *s;
  if (const auto* b = std::get_if<bool>(&c)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<long long>(&c)) return std::to_string(*i);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, std::get<double>(c));
  return buf;
}

std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows) {
  std::ostringstream os;
  auto line = [&](const std::vector<std::string>& cells) {
    os << "|";
    for (const auto& c : cells) os << " " << c << " |";
    os << "\n";
  };
  line(header);
  os << "|";
  for (std::size_t i = 0; i < header.size(); ++i) os << " --- |";
  os << "\n";
  for (const auto& r : rows) line(r);
  return os.str();
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"') q += '"';
    q += ch;
  }
  return q + "\"";
}

}  // namespace

void write_csv(std::ostream& os, const std::vector<Record>& records) {
  if (records.empty()) return;
  bool first = true;
  for (const auto& f : records.front().fields) {
    os << (first ? "" : ",") << csv_field(f.first);
    first = false;
  }
  os << "\n";
  // Every row is written under the first record's columns, by name: a column a row lacks is left
  // empty, and a row with a column the header lacks is an error (it would shift the others).
  const auto& header = records.front().fields;
  for (const auto& r : records) {
    for (const auto& f : r.fields) {
      const bool known = std::any_of(header.begin(), header.end(), [&](const auto& h) { return h.first == f.first; });
      if (!known) throw std::logic_error("write_csv: column '" + f.first + "' is not in the first row's header");
    }
    first = true;
    for (const auto& h : header) {
      const Cell* c = r.find(h.first);
      os << (first ? "" : ",") << (c ? csv_field(cell_text(*c, 10)) : std::string());
      first = false;
    }
    os << "\n";
  }
}

std::string to_json(const std::vector<Record>& records) {
  nlohmann::ordered_json arr = nlohmann::ordered_json::array();
  for (const auto& r : records) {
    nlohmann::ordered_json obj = nlohmann::ordered_json::object();
    for (const auto& [k, v] : r.fields) {
      std::visit(
          [&, key = k](const auto& x) {
            using X = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<X, double>) {
              if (std::isfinite(x)) obj[key] = x;
              else obj[key] = nullptr;
            } else {
              obj[key] = x;
            }
          },
          v);
    }
    arr.push_back(std::move(obj));
  }
  return arr.dump(2) + "\n";
}

void check_writable(const std::string& path) {
  const bool existed = static_cast<bool>(std::ifstream(path));
  {
    std::ofstream f(path, std::ios::app);  // appends nothing: an existing file is left as it is
    if (!f) throw UsageError("cannot open '" + path + "' for writing");
  }
  if (!existed) std::remove(path.c_str());  // a program that stops early leaves no empty file behind
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  if (!f) throw UsageError("cannot open '" + path + "' for writing");
  f << text;
  if (!f) throw UsageError("could not write '" + path + "'");
}

}  // namespace harness
