// CPU tests: Markdown, CSV and JSON output.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "catch.hpp"
#include "errors.hpp"
#include "report.hpp"

using namespace harness;

TEST_CASE("CSV quotes fields with commas and quotes", "[cpu][report]") {
  Record r;
  r.add("stage", std::string("a,b")).add("note", std::string("say \"hi\"")).add("n", 5LL)
      .add("ok", true).add("x", 0.5);
  std::ostringstream os;
  write_csv(os, {r});
  CHECK(os.str() == "stage,note,n,ok,x\n\"a,b\",\"say \"\"hi\"\"\",5,true,0.5\n");
}

TEST_CASE("JSON keeps column order and writes NaN as null", "[cpu][report]") {
  Record r;
  r.add("stage", std::string("s")).add("ms", std::nan("")).add("n", 3LL);
  const std::string j = to_json({r});
  CHECK(j.find("\"stage\": \"s\"") < j.find("\"ms\": null"));
  CHECK(j.find("\"n\": 3") != std::string::npos);
}

TEST_CASE("Markdown table", "[cpu][report]") {
  CHECK(markdown_table({"a", "b"}, {{"1", "2"}}) == "| a | b |\n| --- | --- |\n| 1 | 2 |\n");
  CHECK(cell_text(Cell{1.23456789}, 3) == "1.23");
}

TEST_CASE("check_writable leaves no empty file behind", "[cpu][report]") {
  const std::string path = "check_writable_probe.csv";
  std::remove(path.c_str());
  harness::check_writable(path);
  CHECK_FALSE(static_cast<bool>(std::ifstream(path)));
  CHECK_THROWS_AS(harness::check_writable("/nonexistent-dir/x.csv"), harness::UsageError);
}

TEST_CASE("CSV rows are written by column name, never shifted", "[cpu][report]") {
  Record a, b, c;
  a.add("stage", std::string("s")).add("ms", 1.5).add("ok", true);
  b.add("stage", std::string("copy")).add("ok", true);  // no "ms": left empty, not shifted
  c.add("stage", std::string("x")).add("extra", 1LL);
  std::ostringstream os;
  write_csv(os, {a, b});
  CHECK(os.str() == "stage,ms,ok\ns,1.5,true\ncopy,,true\n");
  std::ostringstream bad;
  CHECK_THROWS_AS(write_csv(bad, {a, c}), std::logic_error);
}
