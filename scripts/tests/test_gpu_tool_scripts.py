#!/usr/bin/env python3
"""CPU tests of the profiling and sanitizer scripts, with fake ncu / compute-sanitizer programs
(scripts/tests/fake_*.py) standing in for the real tools: the CSV parsing, the metric fallback, the
claim verdicts and the sanitizer expectations. Standard library only."""
import contextlib
import io
import os
import stat
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import check_profile_claims  # noqa: E402
import compare_stages as cs  # noqa: E402
import run_sanitizers  # noqa: E402

FAKE_NCU = os.path.join(HERE, "fake_ncu.py")
FAKE_SAN = os.path.join(HERE, "fake_sanitizer.py")


def run(main, argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(argv)
    return rc, out.getvalue()


class Parsing(unittest.TestCase):
    def test_numbers(self):
        self.assertEqual(cs.parse_number("1,234,567"), 1234567.0)
        self.assertEqual(cs.parse_number('"12.5"'), 12.5)
        self.assertEqual(cs.parse_number("3.2e+05"), 320000.0)
        self.assertIsNone(cs.parse_number("n/a"))
        self.assertIsNone(cs.parse_number(""))

    def test_instances(self):
        total, parts = cs.parse_instances("4,194,304 (BAR: 2,097,152; BAR.SYNC: 1,048,576; LDS: 1,048,576)")
        self.assertEqual(total, 4194304.0)
        self.assertEqual(cs.opcode_count((total, parts), "BAR"), 3145728.0)

    def test_raw_csv(self):
        text = ('==PROF== Connected\nprogram output\n"ID","Kernel Name","smsp__inst_executed.sum"\n'
                '"","","inst"\n"0","k","1,000"\n"1","k","2,000"\n')
        rows = cs.parse_raw_csv(text)
        self.assertEqual(len(rows), 2)
        agg = cs.aggregate([cs.metrics_of_kernel(r) for r in rows])
        self.assertEqual(agg["smsp__inst_executed.sum"], 3000.0)

    def test_unknown_metric_message(self):
        bad = cs._unknown_metrics("==ERROR== Failed to find metric regex:^foo_bar\\.(sum|avg)$",
                                  ["foo_bar.sum", "smsp__inst_executed.sum"])
        self.assertEqual(bad, {"foo_bar.sum"})


class Tools(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.bin = os.path.join(self.tmp, "ch07_reduction_opt")
        self.bin8 = os.path.join(self.tmp, "ch08_reduction_scan_histogram")
        programs = [(self.bin, "reduce_kernel_%d" % i) for i in range(12)]
        programs += [(self.bin8, "reduce_stage_%d" % i) for i in range(5)]
        for folder, name in programs:
            os.makedirs(folder, exist_ok=True)
            p = os.path.join(folder, name)
            with open(p, "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(p, os.stat(p).st_mode | stat.S_IEXEC)

    def test_claims(self):
        md = os.path.join(self.tmp, "claims.md")
        rc, out = run(check_profile_claims.main, ["--bin-dir", self.bin, "--ncu", FAKE_NCU, "--assume-gpu",
                                                  "--reports", os.path.join(self.tmp, "r"), "--md", md])
        # The fake counters are shaped like the sm_90 SASS: no branch to diverge from 2 to 3.
        self.assertEqual(rc, 0, out)
        self.assertNotIn("NOT OBSERVABLE", out)
        self.assertEqual(out.count("PASS"), 8, out)
        with open(md) as f:
            self.assertIn("| reduce_kernel_8 |", f.read())
        # The reports can be read again without profiling.
        rc2, out2 = run(check_profile_claims.main, ["--from-reports", "--reports", os.path.join(self.tmp, "r"),
                                                    "--ncu", FAKE_NCU])
        self.assertEqual(rc2, 0, out2)
        self.assertEqual(out2.count("PASS"), 8, out2)

    def test_claims_ch08(self):
        md = os.path.join(self.tmp, "claims8.md")
        rc, out = run(check_profile_claims.main, ["--chapter", "ch08", "--bin-dir", self.bin8, "--ncu", FAKE_NCU,
                                                  "--assume-gpu", "--reports", os.path.join(self.tmp, "r8"),
                                                  "--md", md])
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.count("PASS"), 6, out)
        with open(md) as f:
            text = f.read()
        self.assertIn("## Chapter 8", text)
        self.assertIn("| reduce_stage_4 |", text)
        self.assertIn("| 3 -> 4 |", text)

    def test_claim_failure_is_reported(self):
        # A stage whose counters do not move as claimed fails the run (exit 1), naming the step.
        os.environ["FAKE_NCU_AS"] = "reduce_stage_3=reduce_stage_2"
        try:
            rc, out = run(check_profile_claims.main, ["--chapter", "ch08", "--bin-dir", self.bin8, "--ncu", FAKE_NCU,
                                                      "--assume-gpu", "--reports", os.path.join(self.tmp, "r8f")])
        finally:
            del os.environ["FAKE_NCU_AS"]
        self.assertEqual(rc, 1, out)
        self.assertIn("8.00 -> 8.00", out)  # 2 -> 3: the barriers did not fall
        self.assertIn("RESULT: FAILED", out)

    def test_skip_without_ncu(self):
        rc, out = run(check_profile_claims.main, ["--ncu", os.path.join(self.tmp, "no-such-ncu")])
        self.assertEqual(rc, 77)
        self.assertIn("SKIPPED", out)

    def test_sanitizers(self):
        argv = ["--build-dir", self.tmp, "--sanitizer", FAKE_SAN, "--assume-gpu",
                "--log-dir", os.path.join(self.tmp, "logs")]
        rc, out = run(run_sanitizers.main, argv)
        self.assertEqual(rc, 0, out)
        self.assertIn("hazards reported, as expected", out)
        with open(os.path.join(self.tmp, "logs", "summary.txt")) as f:
            summary = f.read()
        self.assertIn("= 144 runs", summary)  # 17 programs, 18 forms, 4 tools, 2 sizes
        self.assertIn("RESULT: every stage clean", summary)
        os.environ["FAKE_SANITIZER_DIRTY"] = "reduce_kernel_2:memcheck"
        try:
            rc, out = run(run_sanitizers.main, argv + ["--only", "reduce_kernel_2"])
        finally:
            del os.environ["FAKE_SANITIZER_DIRTY"]
        self.assertEqual(rc, 1, out)

    def test_sanitizer_skip(self):
        rc, out = run(run_sanitizers.main, ["--sanitizer", "", "--build-dir", self.tmp]) \
            if not __import__("shutil").which("compute-sanitizer") else (77, "SKIPPED")
        self.assertEqual(rc, 77)


if __name__ == "__main__":
    unittest.main()
