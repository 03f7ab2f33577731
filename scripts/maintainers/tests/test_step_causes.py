#!/usr/bin/env python3
"""CPU tests of scripts/maintainers/step_causes.py with the fake ncu (scripts/maintainers/tests/fake_ncu.py) and stand-in
stage programs: it lists the ladder's steps below 1.05x, profiles both stages of each, gives each a
verdict, and reports what is wrong with a wrong input (a tampered step speed-up, a step whose two
stages have no common bound, a stage program that is not built, a file that is no ladder) with a
non-zero exit code. Standard library only."""
import contextlib
import csv
import io
import os
import shutil
import stat
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import step_causes  # noqa: E402

FAKE_NCU = os.path.join(HERE, "fake_ncu.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# Fixed copies of two committed H200 ladders (chapter 7 before stages 9a and 9b existed), so that the
# expectations below do not move when docs/results/ gets a newer run.
LADDER = os.path.join(HERE, "fixtures", "reduce_ladder_2e28_float_2026-12-02.csv")
HIST_LADDER = os.path.join(HERE, "fixtures", "histogram_ladder_2e30_uint8_uniform_2026-12-02.csv")


def run(argv, env=None):
    """(exit code, stdout) of step_causes.main(argv), with `env` set in os.environ meanwhile."""
    out = io.StringIO()
    saved = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            rc = step_causes.main(argv)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return rc, out.getvalue()


class StepCauses(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.build = os.path.join(self.tmp, "build")
        folder = os.path.join(self.build, "ch07_reduction_opt")
        os.makedirs(folder)
        for name in ["reduce_kernel_%d" % i for i in range(12)] + ["reduce_kernel_9a", "reduce_kernel_9b"]:
            p = os.path.join(folder, name)
            with open(p, "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(p, os.stat(p).st_mode | stat.S_IEXEC)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def argv(self, ladder=LADDER, *more):
        return [ladder, "--build-dir", self.build, "--ncu", FAKE_NCU, "--assume-gpu",
                "--reports", os.path.join(self.tmp, "reports")] + list(more)

    def tampered(self, stage, column, value):
        """A copy of the committed ladder with one cell changed."""
        with open(LADDER, newline="") as f:
            rows = list(csv.DictReader(f))
        for r in rows:
            if r["stage"] == stage:
                r[column] = value
        path = os.path.join(self.tmp, "tampered.csv")
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        return path

    def test_reports_every_slow_step_with_a_cause(self):
        md = os.path.join(self.tmp, "causes.md")
        rc, out = run(self.argv(LADDER, "--md", md))
        self.assertEqual(rc, 0, out)
        self.assertIn("12 step(s) below 1.05x", out)
        # the atomic table's stages 1 to 7: the same-address atomic at the end of every block
        self.assertEqual(out.count("the atomic finish bounds both"), 7, out)
        # stages 9, 10 and 11 at the memory roof
        self.assertIn("both at the memory roof (DRAM 93.0% and 92.0% of peak)", out)
        # a slow-down names what rose
        self.assertIn("slower, the largest rise: bank conflicts x60.0", out)
        self.assertIn("RESULT: every step below 1.05x has a measured cause", out)
        with open(md) as f:
            text = f.read()
        self.assertIn("| reduce_kernel_9 -> reduce_kernel_10 | 0.2464 / 0.2494 | 0.988x |", text)
        # the reports are read again without profiling
        rc2, out2 = run([LADDER, "--from-reports", "--reports", os.path.join(self.tmp, "reports"),
                         "--ncu", FAKE_NCU])
        self.assertEqual(rc2, 0, out2)
        self.assertEqual(out2.count("the atomic finish bounds both"), 7, out2)

    def test_list_needs_no_ncu(self):
        rc, out = run([LADDER, "--list", "--ncu", os.path.join(self.tmp, "no-such-ncu")])
        self.assertEqual(rc, 0, out)
        self.assertIn("reduce_kernel_6_partials -> reduce_kernel_7_partials: 0.956x", out)
        self.assertNotIn("reduce_kernel_8 -> reduce_kernel_9", out)  # 1.75x: not slow
        rc, out = run([LADDER, "--list", "--threshold", "2"])
        self.assertIn("reduce_kernel_8 -> reduce_kernel_9: 1.748x", out)

    def test_inconsistent_step_is_reported(self):
        # A ladder whose step_speedup disagrees with its own times: reported, exit 1, also by --list.
        path = self.tampered("reduce_kernel_9", "step_speedup", "0.9")
        rc, out = run([path, "--list"])
        self.assertEqual(rc, 1, out)
        self.assertIn("reduce_kernel_8 -> reduce_kernel_9: 0.900x  INCONSISTENT", out)
        rc, out = run(self.argv(path))
        self.assertEqual(rc, 1, out)
        self.assertIn("RESULT: FAILED", out)

    def test_step_without_common_bound_is_unexplained(self):
        # Stage 10 given stage 3's counters (FAKE_NCU_AS): the two share no bound, and it says so.
        rc, out = run(self.argv(), env={"FAKE_NCU_AS": "reduce_kernel_10=reduce_kernel_3@partials"})
        self.assertEqual(rc, 1, out)
        self.assertIn("UNEXPLAINED: no common bound (top stalls long_scoreboard and barrier)", out)

    def test_slowdown_judged_by_its_later_stage(self):
        # A slow-down whose stages share no bound: the later stage's own stall, or its occupancy.
        before = {"stalls": {"long_scoreboard": 20.0}, "occupancy_pct": 90.0, "conflicts": 1000.0}
        later = lambda stalls, occ=88.0, conflicts=1000.0: {"stalls": stalls, "occupancy_pct": occ, "conflicts": conflicts}
        rule, text = step_causes.slowdown_cause(before, later({"barrier": 130.0, "short_scoreboard": 30.0}))
        self.assertEqual(rule, "slower: barrier")
        self.assertIn("stalls most at a block barrier (130.00 warps per issue", text)
        rule, text = step_causes.slowdown_cause(before, later({"short_scoreboard": 11.0}, conflicts=35000.0))
        self.assertEqual(rule, "slower: shared")
        self.assertIn("bank conflicts 1,000 -> 35,000", text)
        rule, text = step_causes.slowdown_cause(before, later({"wait": 2.3}, occ=35.0))
        self.assertEqual(rule, "slower: occupancy")
        self.assertIn("occupancy 90.0% -> 35.0%", text)
        # the same stall with the warps still resident: no rule holds, the step stays UNEXPLAINED
        self.assertIsNone(step_causes.slowdown_cause(before, later({"wait": 2.3}, occ=80.0)))
        # a barrier stall that fell, or one too small to matter, is no cause
        falling = {"stalls": {"long_scoreboard": 60.0, "barrier": 45.0}, "occupancy_pct": 90.0}
        self.assertIsNone(step_causes.slowdown_cause(falling, later({"barrier": 40.0})))
        self.assertIsNone(step_causes.slowdown_cause(before, later({"barrier": 0.2})))
        # a stall reason that appears at 0.02 warps per issue is not named as the largest rise
        rise = step_causes.biggest_rise({"stalls": {"long_scoreboard": 12.0, "misc": 0.0}, "inst": 100.0},
                                        {"stalls": {"long_scoreboard": 220.0, "misc": 0.02}, "inst": 100.0})
        self.assertIn("stall long_scoreboard x18.3", rise)
        # bank conflicts that appear from none are named only from MIN_NEW_COUNT on
        rise = step_causes.biggest_rise({"conflicts": 0.0, "inst": 100.0}, {"conflicts": 3.0, "inst": 130.0})
        self.assertIn("warp instructions x1.3", rise)
        rise = step_causes.biggest_rise({"conflicts": 0.0, "inst": 100.0}, {"conflicts": 557650.0, "inst": 130.0})
        self.assertIn("bank conflicts new (0 -> 557,650)", rise)

    def test_missing_program_is_an_error(self):
        os.remove(os.path.join(self.build, "ch07_reduction_opt", "reduce_kernel_10"))
        rc, out = run(self.argv())
        self.assertEqual(rc, 1, out)
        self.assertIn("ERROR reduce_kernel_9 -> reduce_kernel_10: no stage program called reduce_kernel_10", out)

    def test_no_ladder_is_a_usage_error(self):
        rc, _ = run([os.path.join(self.tmp, "none.csv"), "--list"])
        self.assertEqual(rc, 2)
        bad = os.path.join(self.tmp, "bad.csv")
        with open(bad, "w") as f:
            f.write("name,time\nx,1\n")
        rc, _ = run([bad, "--list"])
        self.assertEqual(rc, 2)

    def test_skip_without_ncu(self):
        rc, out = run([LADDER, "--ncu", os.path.join(self.tmp, "no-such-ncu")])
        self.assertEqual(rc, 77, out)

    def test_programs_of_rows(self):
        row = {"stage": "reduce_kernel_6_volatile_partials", "dist": "signed", "op": "sum"}
        self.assertEqual(step_causes.program_of(row),
                         ("reduce_kernel_6", ["--last-warp", "volatile", "--finish", "partials", "--dist", "signed"]))
        self.assertEqual(step_causes.program_of({"stage": "reduce_kernel_9"}), ("reduce_kernel_9", []))
        self.assertEqual(step_causes.program_of({"stage": "reduce_kernel_9b"}), ("reduce_kernel_9b", []))
        self.assertEqual(step_causes.program_of({"stage": "reduce_kernel_3"}),
                         ("reduce_kernel_3", ["--finish", "atomic"]))
        self.assertEqual(step_causes.program_of({"stage": "histogram_stage_1_fold_all", "bins": "256"}),
                         ("histogram_stage_1", ["--skip-empty", "off", "--bins", "256"]))
        self.assertEqual(step_causes.program_of({"stage": "scan_stage_7", "scan": "inclusive"}),
                         ("scan_stage_7", ["--inclusive"]))
        self.assertEqual(step_causes.program_of({"stage": "reduce_stage_3", "op": "max"}),
                         ("reduce_stage_3", ["--op", "max"]))
        self.assertIsNone(step_causes.program_of({"stage": "cub::DeviceReduce"}))

    def test_histogram_ladder_steps(self):
        # The fold-all row is a step of its own (the ladder's order), and stage 2 follows it.
        rc, out = run([HIST_LADDER, "--list"])
        self.assertEqual(rc, 0, out)
        self.assertIn("histogram_stage_1_fold_all -> histogram_stage_2: 0.876x", out)
        self.assertIn("histogram_stage_4 -> histogram_stage_5: 0.771x", out)


if __name__ == "__main__":
    unittest.main()
