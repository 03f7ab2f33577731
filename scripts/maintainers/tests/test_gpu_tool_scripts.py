#!/usr/bin/env python3
"""CPU tests of the scripts in scripts/: every one answers --help and rejects an unknown argument;
and, with fake ncu / compute-sanitizer programs (scripts/maintainers/tests/fake_*.py) standing in for the real
tools, the profiling and sanitizer scripts: the CSV parsing, the metric fallback, the claim verdicts,
the sanitizer expectations, stage names looked up in the build tree. Standard library only."""
import contextlib
import glob
import io
import os
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import check_profile_claims  # noqa: E402
import compare_stages as cs  # noqa: E402
import profiler  # noqa: E402
import run_doc_commands as rdc  # noqa: E402
import run_sanitizers  # noqa: E402

FAKE_NCU = os.path.join(HERE, "fake_ncu.py")
FAKE_SAN = os.path.join(HERE, "fake_sanitizer.py")
MAINTAINERS = os.path.dirname(HERE)         # scripts/maintainers: what maintainers and CI run
SCRIPTS = os.path.dirname(MAINTAINERS)      # scripts: what a reader runs
ROOT = os.path.dirname(SCRIPTS)


def scripts():
    """Every script, the reader's (scripts/) and the maintainers' (scripts/maintainers/): the *.sh and
    the *.py that have a #! line (profiler.py and plotting.py are modules the others import)."""
    out = []
    for p in sorted(glob.glob(os.path.join(SCRIPTS, "*.sh")) + glob.glob(os.path.join(SCRIPTS, "*.py"))
                    + glob.glob(os.path.join(MAINTAINERS, "*.sh")) + glob.glob(os.path.join(MAINTAINERS, "*.py"))):
        with open(p) as f:
            if f.readline().startswith("#!"):
                out.append(p)
    return out


def run_script(path, args, cwd, env=None):
    """(exit code, stdout, stderr) of `bash path args` or `python3 path args`, in `cwd`."""
    cmd = (["bash", path] if path.endswith(".sh") else [sys.executable, path]) + args
    e = dict(os.environ, **(env or {}))
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120, env=e)
    return r.returncode, r.stdout, r.stderr


def run(main, argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(argv)
    return rc, out.getvalue()


class Parsing(unittest.TestCase):
    def test_numbers(self):
        self.assertEqual(profiler.parse_number("1,234,567"), 1234567.0)
        self.assertEqual(profiler.parse_number('"12.5"'), 12.5)
        self.assertEqual(profiler.parse_number("3.2e+05"), 320000.0)
        self.assertIsNone(profiler.parse_number("n/a"))
        self.assertIsNone(profiler.parse_number(""))

    def test_instances(self):
        total, parts = profiler.parse_instances("4,194,304 (BAR: 2,097,152; BAR.SYNC: 1,048,576; LDS: 1,048,576)")
        self.assertEqual(total, 4194304.0)
        self.assertEqual(profiler.opcode_count((total, parts), "BAR"), 3145728.0)

    def test_raw_csv(self):
        text = ('==PROF== Connected\nprogram output\n"ID","Kernel Name","smsp__inst_executed.sum"\n'
                '"","","inst"\n"0","k","1,000"\n"1","k","2,000"\n')
        rows = profiler.parse_raw_csv(text)
        self.assertEqual(len(rows), 2)
        agg = profiler.aggregate([profiler.metrics_of_kernel(r) for r in rows])
        self.assertEqual(agg["smsp__inst_executed.sum"], 3000.0)

    def test_unknown_metric_message(self):
        bad = profiler._unknown_metrics("==ERROR== Failed to find metric regex:^foo_bar\\.(sum|avg)$",
                                  ["foo_bar.sum", "smsp__inst_executed.sum"])
        self.assertEqual(bad, {"foo_bar.sum"})


class CommandLines(unittest.TestCase):
    """--help prints a usage text and exits 0 without doing anything; an unknown argument is refused
    with exit code 2 and a message naming it, before anything is done."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.out = os.path.join(self.tmp, "out-must-not-appear")
        # gpu_machine_check.sh writes to $OUT; size_sweep.sh and make_figures.sh take folders.
        self.env = {"OUT": self.out, "TUTORIAL_NO_INSTALL": "1"}

    def test_every_script_is_covered(self):
        names = {os.path.basename(p) for p in scripts()}
        for expected in ("gpu_machine_check.sh", "tutorial.sh", "profile_stage.sh", "size_sweep.sh",
                         "make_figures.sh", "compare_stages.py", "check_profile_claims.py",
                         "run_sanitizers.py", "plot_ladder.py", "plot_size_sweep.py", "ninja_times.py",
                         "step_causes.py", "plot_small_inputs.py"):
            self.assertIn(expected, names)

    def test_every_script_can_be_run(self):
        # The pages print them as commands (scripts/maintainers/step_causes.py LADDER.csv): each
        # needs its run bit.
        for path in scripts():
            with self.subTest(script=os.path.relpath(path, ROOT)):
                self.assertTrue(os.stat(path).st_mode & stat.S_IXUSR, "chmod +x " + os.path.relpath(path, ROOT))

    def test_help(self):
        for path in scripts():
            with self.subTest(script=os.path.basename(path)):
                rc, out, err = run_script(path, ["--help"], self.tmp, self.env)
                self.assertEqual(rc, 0, out + err)
                self.assertIn("usage", out.lower(), out)
                self.assertEqual(os.listdir(self.tmp), [], "--help must not create anything")

    def test_unknown_argument(self):
        # Scripts that need a positional argument get one, so that the flag is what is refused.
        positional = {"plot_ladder.py": ["x.csv"], "plot_size_sweep.py": ["x.csv"], "ninja_times.py": ["build"],
                      "plot_small_inputs.py": ["x.csv"],
                      "step_causes.py": ["x.csv"], "coverage_table.py": ["results"]}
        for path in scripts():
            with self.subTest(script=os.path.basename(path)):
                args = positional.get(os.path.basename(path), []) + ["--no-such-flag"]
                rc, out, err = run_script(path, args, self.tmp, self.env)
                self.assertEqual(rc, 2, out + err)
                self.assertIn("--no-such-flag", err, out + err)
                self.assertEqual(os.listdir(self.tmp), [], "a refused command must not create anything")

    def test_coverage_table_applies_the_rule(self):
        # One size where the stage is behind CUB by 1.5% but both sit within 2% of the read (passes),
        # one where it is behind by 1.5% away from the floor (fails), one where it is ahead.
        head = "stage,n,verified,us_median\n"
        rows = {1024: (10.15, 10.0, 10.0), 2048: (10.15, 10.0, 5.0), 4096: (9.0, 10.0, 5.0)}
        with open(os.path.join(self.tmp, "coverage_reduce_x_small.csv"), "w") as f:
            f.write(head)
            for n, (stage, cub, read) in rows.items():
                f.write(f"reduce_stage_7,{n},true,{stage}\ncub::DeviceReduce,{n},true,{cub}\nread (stream),{n},,{read}\n")
        rc, out, err = run_script(os.path.join(MAINTAINERS, "coverage_table.py"), [self.tmp], self.tmp, self.env)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("| reduce_x | 0.99 s7 (at the floor) | **0.99 s7** | 1.11 s7 |", out)
        self.assertIn("1 cell(s) below CUB", out)

    def test_gpu_machine_check_rejects_unknown_steps(self):
        rc, out, err = run_script(os.path.join(MAINTAINERS, "gpu_machine_check.sh"), ["build", "ladder"],
                                  self.tmp, self.env)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("'ladder'", err)
        self.assertFalse(os.path.exists(self.out))

    def test_help_states_the_real_defaults(self):
        rc, out, _ = run_script(os.path.join(MAINTAINERS, "gpu_machine_check.sh"), ["--help"], self.tmp, self.env)
        with open(os.path.join(MAINTAINERS, "gpu_machine_check.sh")) as f:
            text = f.read()
        default = text.split('LADDER_SIZES=${LADDER_SIZES:-"', 1)[1].split('"', 1)[0]
        self.assertIn('LADDER_SIZES        exponents of chapter 7\'s float ladders ["%s"]' % default, out)

    def test_plot_help_without_matplotlib(self):
        # --help must work on a Python that has neither matplotlib nor pandas: they are imported
        # only to draw. (-S: no site-packages, where they would live.)
        for name in ("plot_ladder.py", "plot_size_sweep.py", "plot_small_inputs.py"):
            r = subprocess.run([sys.executable, "-S", os.path.join(MAINTAINERS, name), "--help"],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)


class Tools(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.bin = os.path.join(self.tmp, "ch07_reduction_opt")
        self.bin8 = os.path.join(self.tmp, "ch08_reduction_scan_histogram")
        programs = [(self.bin, "reduce_kernel_%d" % i) for i in range(12)]
        programs += [(self.bin, "reduce_kernel_9a"), (self.bin, "reduce_kernel_9b")]
        programs += [(self.bin8, "reduce_stage_%d" % i) for i in range(6)]
        # The scan and histogram programs in a build tree of their own: the sanitizer test counts the
        # programs under self.tmp.
        self.bin8sh = os.path.join(tempfile.mkdtemp(), "ch08_reduction_scan_histogram")
        programs += [(self.bin8sh, "scan_stage_%d" % i) for i in range(1, 9)]
        programs += [(self.bin8sh, "histogram_stage_%d" % i) for i in range(9)]
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
        self.assertEqual(out.count("PASS"), 22, out)
        with open(md) as f:
            text = f.read()
        self.assertIn("| reduce_kernel_8 |", text)
        self.assertIn("| reduce_kernel_3@partials |", text)
        self.assertIn("| 1@partials -> 3@partials |", text)
        # The reports can be read again without profiling.
        rc2, out2 = run(check_profile_claims.main, ["--from-reports", "--reports", os.path.join(self.tmp, "r"),
                                                    "--ncu", FAKE_NCU])
        self.assertEqual(rc2, 0, out2)
        self.assertEqual(out2.count("PASS"), 22, out2)

    def test_claims_ch08(self):
        md = os.path.join(self.tmp, "claims8.md")
        rc, out = run(check_profile_claims.main, ["--chapter", "ch08", "--bin-dir", self.bin8, "--ncu", FAKE_NCU,
                                                  "--assume-gpu", "--reports", os.path.join(self.tmp, "r8"),
                                                  "--md", md])
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.count("PASS"), 8, out)
        with open(md) as f:
            text = f.read()
        self.assertIn("## Chapter 8", text)
        self.assertIn("| reduce_stage_5 |", text)
        self.assertIn("| 3 -> 4 |", text)
        self.assertIn("| 4 -> 5 |", text)

    def test_claims_histogram_and_scan(self):
        for chapter, passes in (("ch08-histogram", 35), ("ch08-scan", 7)):
            with self.subTest(chapter=chapter):
                md = os.path.join(self.tmp, chapter + ".md")
                rc, out = run(check_profile_claims.main, ["--chapter", chapter, "--bin-dir", self.bin8sh, "--ncu",
                                                          FAKE_NCU, "--assume-gpu", "--md", md,
                                                          "--reports", os.path.join(self.tmp, "r_" + chapter)])
                self.assertEqual(rc, 0, out)
                self.assertEqual(out.count("PASS"), passes, out)
        with open(os.path.join(self.tmp, "ch08-histogram.md")) as f:
            text = f.read()
        self.assertIn("| 1 -> 1@fold-all |", text)
        self.assertIn("| 5@one-bin -> 6@one-bin |", text)
        with open(os.path.join(self.tmp, "ch08-scan.md")) as f:
            self.assertIn("| 6 -> 7 | evict-first data", f.read())

    def test_new_claims_can_fail(self):
        # Stage 9a measured as stage 8 (no 16-byte loads), histogram stage 4 as stage 3, scan stage 7
        # with a lower L2 hit rate than stage 6: each claim of the step fails, naming the numbers.
        cases = [("ch07", self.bin, "reduce_kernel_9a=reduce_kernel_8", "524,288 -> 524,288 (+0.0%; needs a fall of >= 60%)"),
                 ("ch08-histogram", self.bin8sh, "histogram_stage_4=histogram_stage_3",
                  "524,288 -> 524,288 (+0.0%; needs a fall of >= 85%)"),
                 ("ch08-scan", self.bin8sh, "scan_stage_7=scan_stage_1", "41.0 -> 50.0 (+9.0 points; needs >= -5)"),
                 # one-bin stage 0 measured as uniform: the atomics spread over the L2 slices
                 ("ch08-histogram", self.bin8sh, "histogram_stage_0@one-bin=histogram_stage_0", "8.3 (needs >= 90)"),
                 # one-bin stage 1 measured as uniform: about 3 wavefronts per shared atomic, not 1
                 ("ch08-histogram", self.bin8sh, "histogram_stage_1@one-bin=histogram_stage_1",
                  "3.20 -> 3.20 (needs <= 1.1)"),
                 # chapter 7's stage 0 measured as stage 9 (no atomics): the share is not there
                 ("ch07", self.bin, "reduce_kernel_0=reduce_kernel_9", "counter not available"),
                 # histogram stage 8 measured as stage 6 (396 blocks, one global atomic per bin per
                 # warp's fold): the grid falls but the merge's atomics do not
                 ("ch08-histogram", self.bin8sh, "histogram_stage_8=histogram_stage_6", "8,448 -> 101,376")]
        for chapter, folder, alias, text in cases:
            with self.subTest(chapter=chapter, alias=alias):
                os.environ["FAKE_NCU_AS"] = alias
                try:
                    rc, out = run(check_profile_claims.main, ["--chapter", chapter, "--bin-dir", folder, "--ncu",
                                                              FAKE_NCU, "--assume-gpu",
                                                              "--reports", os.path.join(self.tmp, "f_" + chapter)])
                finally:
                    del os.environ["FAKE_NCU_AS"]
                self.assertEqual(rc, 1, out)
                self.assertIn(text, out)
                self.assertIn("RESULT: FAILED", out)

    def test_balanced_grid_claims_skip_where_the_grids_coincide(self):
        # Stage 8 measured as stage 7 (the same 1,056 blocks, as on a GPU whose full wave is near
        # sqrt(n / bins)): its four claims read SKIPPED, naming both grids, and the run passes.
        os.environ["FAKE_NCU_AS"] = "histogram_stage_8=histogram_stage_7"
        try:
            rc, out = run(check_profile_claims.main, ["--chapter", "ch08-histogram", "--bin-dir", self.bin8sh, "--ncu",
                                                      FAKE_NCU, "--assume-gpu", "--reports", os.path.join(self.tmp, "r8s")])
        finally:
            del os.environ["FAKE_NCU_AS"]
        self.assertEqual(rc, 0, out)
        self.assertIn("SKIPPED histogram_stage_8: stage 7's full wave (1056 blocks) is within 1.67x of stage 8's grid (1056)", out)
        self.assertEqual(out.count("PASS"), 31, out)

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

    def test_stage_names(self):
        # compare_stages.py and profile_stage.sh take a bare stage name, looked for recursively in
        # the build tree's chapter folders (ch08's programs may sit in reduce/, scan/, histogram/).
        sub = os.path.join(self.bin8, "reduce")
        os.makedirs(sub)
        moved = os.path.join(sub, "reduce_stage_9")
        with open(moved, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(moved, 0o755)
        self.assertEqual(cs.find_program("reduce_kernel_3", [self.tmp]),
                         os.path.join(self.bin, "reduce_kernel_3"))
        self.assertEqual(cs.find_program("reduce_stage_9", [self.tmp]), moved)
        self.assertIsNone(cs.find_program("reduce_kernel_99", [self.tmp]))
        rc, out = run(cs.main, ["--which", "reduce_stage_9", "--build-dir", self.tmp])
        self.assertEqual((rc, out.strip()), (0, moved))
        rc, _ = run(cs.main, ["--which", "reduce_kernel_99", "--build-dir", self.tmp])
        self.assertEqual(rc, 2)
        # The README's command, with names: both stages are profiled (fake ncu) and compared.
        rc, out = run(cs.main, ["--build-dir", self.tmp, "--ncu", FAKE_NCU, "--assume-gpu",
                                "--out-dir", os.path.join(self.tmp, "p"), "reduce_kernel_3", "reduce_kernel_4"])
        self.assertEqual(rc, 0, out)
        self.assertIn("bank conflicts (shared loads)", out)
        rc, _ = run(cs.main, ["--build-dir", self.tmp, "--ncu", FAKE_NCU, "--assume-gpu",
                              "reduce_kernel_3", "no_such_stage"])
        self.assertEqual(rc, 2)
        r = subprocess.run(["bash", os.path.join(SCRIPTS, "profile_stage.sh"), "--build-dir", self.tmp,
                            "--ncu", FAKE_NCU, "--out", os.path.join(self.tmp, "ps"), "reduce_stage_9"],
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, PROFILE_STAGE_ASSUME_GPU="1"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "ps", "reduce_stage_9_n2pow24_b256.ncu-rep")))

    def test_missing_ncu_same_code(self):
        # One rule for both profiling scripts: no ncu is a skip (77), not a usage error.
        no_ncu = os.path.join(self.tmp, "no-such-ncu")
        rc, out = run(cs.main, ["--build-dir", self.tmp, "--ncu", no_ncu, "reduce_kernel_3", "reduce_kernel_4"])
        self.assertEqual(rc, 77, out)
        r = subprocess.run(["bash", os.path.join(SCRIPTS, "profile_stage.sh"), "--build-dir", self.tmp,
                            "--ncu", no_ncu, "reduce_kernel_3"], capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, NCU=""))
        self.assertEqual(r.returncode, 77, r.stdout + r.stderr)
        self.assertIn("SKIPPED", r.stdout)

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
        self.assertIn("= 120 runs", summary)  # 20 programs, 30 forms, 4 tools, 1 size each
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


class DocCommands(unittest.TestCase):
    """run_doc_commands.py's verdicts: each rule can say FAILED where it should."""

    PASS = "  1/2 Test   #1: cpu.a ..........   Passed    0.01 sec\n"
    SKIP = "  2/2 Test   #2: smoke.b ..........***Skipped   0.01 sec\n"

    def test_plain_exit_codes(self):
        self.assertEqual(rdc.verdict_of("build/ch07_reduction_opt/roofline", 0, "")[0], "ok")
        self.assertEqual(rdc.verdict_of("build/ch07_reduction_opt/roofline", 77, "")[0], "skipped")
        self.assertEqual(rdc.verdict_of("build/ch07_reduction_opt/roofline", 2, "")[0], "FAILED")

    def test_ctest_that_finds_nothing_fails(self):
        self.assertEqual(rdc.verdict_of("ctest -L profile", 0, "No tests were found!!!")[0], "FAILED")

    def test_ctest_all_skipped_is_skipped(self):
        self.assertEqual(rdc.verdict_of("ctest --test-dir build -L profile", 0, self.SKIP)[0], "skipped")
        verdict, note = rdc.verdict_of("ctest --preset release", 0, self.PASS + self.SKIP)
        self.assertEqual((verdict, note), ("ok", "1 passed, 1 skipped"))

    def test_stub_checks_must_fail(self):
        self.assertEqual(rdc.verdict_of("scripts/exercise.sh ch07/01", 1, "FAIL")[0], "ok")
        self.assertEqual(rdc.verdict_of("scripts/exercise.sh ch07/01", 0, "PASS")[0], "FAILED")
        self.assertEqual(rdc.verdict_of("scripts/exercise.sh ch07/01 --solution", 1, "FAIL")[0], "FAILED")
        self.assertEqual(rdc.verdict_of("ctest --test-dir build -L exercise", 8, "")[0], "ok")
        self.assertEqual(rdc.verdict_of("ctest --test-dir build -L exercise", 0, self.PASS)[0], "FAILED")
        self.assertEqual(rdc.verdict_of("scripts/exercise.sh ch07/01", 77, "")[0], "skipped")

    def test_failed_tests_are_seen(self):
        out = "  3/3 Test   #3: sanitizer.stages .....***Failed  12.00 sec\n" + \
              "  4/4 Test   #4: x.y ..................***Timeout 60.00 sec\n"
        self.assertEqual(rdc.CTEST_NOT_PASSED.findall(out), ["sanitizer.stages", "x.y"])
        self.assertEqual(rdc.CTEST_PASSED.findall(out), [])

    def test_timeout_keeps_the_output(self):
        rc, out = rdc.run("echo started; sleep 30", 1)
        self.assertEqual(rc, -1)
        self.assertIn("started", out)
        self.assertIn("timed out after 1 s", out)

    def test_outputs_and_inputs(self):
        outs, args = rdc.outputs_and_inputs("build/x/histogram_contention --n 2^28 --csv contention.csv")
        self.assertEqual(outs, ["contention.csv"])
        self.assertNotIn("contention.csv", args)
        outs, args = rdc.outputs_and_inputs("scripts/maintainers/plot_contention.py contention.csv --out contention.png")
        self.assertEqual(outs, ["contention.png"])
        self.assertIn("contention.csv", args)

    def test_ctest_passed_and_listed(self):
        self.assertEqual(rdc.CTEST_PASSED.findall(self.PASS + self.SKIP), ["cpu.a"])
        self.assertEqual(rdc.CTEST_SKIPPED.findall(self.PASS + self.SKIP), ["smoke.b"])
        listed = "Test project /x\n  Test   #1: cpu.a\n  Test  #12: smoke.b\n\nTotal Tests: 2\n"
        self.assertEqual(rdc.CTEST_LISTED.findall(listed), ["cpu.a", "smoke.b"])


if __name__ == "__main__":
    unittest.main()
