#!/usr/bin/env python3
"""Runs every command that the README and the chapter pages show, as printed, from the repository's
root, and reports each: ok (exit 0), skipped (exit 77: no GPU, or a tool such as ncu is not
installed) or FAILED (anything else).

The commands are the lines of the pages' fenced code blocks (```sh, ```bash or unlabelled) and the
inline code spans that start like a command (scripts/..., python3 scripts/..., build/<folder>/<program>
..., ctest ..., cmake ...). Comments after " #" are dropped, lines ending in a backslash are joined,
and lines with a placeholder (<...>, ... or chNN/NN) are listed but not run. A command shown on several pages
runs once; its other places report the same verdict.

Some commands are shown *to fail*: an exercise stub's check (`scripts/exercise.sh ch07/01`,
`ctest ... -L exercise`) must report the stub's failure until the student fills it in, so for them a
failure (exit 1 or 8) is "ok (fails, as a stub must)" and a pass is FAILED. A ctest command that finds
no tests ("No tests were found", e.g. run outside the build folder) is FAILED: it proved nothing.
`cmake --build build --target docs` is "skipped" where doxygen is not installed (it needs it), a
command with `--gpus K` is "skipped" on a machine with fewer than K GPUs, and a command that reads a
file (`plot_contention.py contention.csv`) that a skipped command was to write is "skipped" too.

A ctest command whose tests (as `ctest ... -N` lists them) all passed in an earlier ctest command of
the same run is "ok" without running them again: `ctest --test-dir build -L profile` after
`ctest --preset release` proves nothing new, and on a GPU machine the whole suite takes many minutes.
The note names the earlier command. A cmake or tutorial.sh command that rebuilds a program in build/
forgets the earlier passes.

  scripts/maintainers/run_doc_commands.py --list              # what would run, page by page
  scripts/maintainers/run_doc_commands.py                      # run everything (on a GPU machine: minutes)
  scripts/maintainers/run_doc_commands.py --skip tutorial.sh   # leave out the commands that rebuild everything

Files and folders the commands write into the repository that git does not ignore and that were
not there before (ladder.md, ladder.csv, sweep/ ...) are listed at the end and, unless --keep,
removed.

Exit codes: 0 no command failed; 1 a command failed; 2 bad command line.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FENCE_RE = re.compile(r"^\s*(```|~~~)\s*([A-Za-z]*)")
INLINE_RE = re.compile(r"`([^`]+)`")
COMMAND_START = re.compile(r"^(scripts/\S+|python3 scripts/\S+|ctest\b|cmake\b|build/[^/\s]+/\S+)")
NOT_PROGRAMS = re.compile(r"(/|\.(html|md|csv|json|png|txt|cuh|hpp|cpp|cu|py|sh|log))$")


def pages():
    out = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "start_here.md"),
           os.path.join(ROOT, "exercises", "README.md"), os.path.join(ROOT, "solutions", "README.md")]
    for here, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "build")) and d != "docs")
        rel = os.path.relpath(here, ROOT)
        if re.match(r"^ch\d\d_", rel) and "tests" not in rel.split(os.sep):
            # Every page of a chapter folder: its README first, then the others (stages_9_11.md,
            # profiling.md, scan/stage8.md, ...) by name.
            md = sorted(f for f in files if f.endswith(".md"))
            out += [os.path.join(here, f) for f in sorted(md, key=lambda f: (f != "README.md", f))]
    return [p for p in out if os.path.isfile(p)]


def clean(line):
    """A command line without its trailing comment."""
    return re.sub(r"\s+#\s.*$", "", line).strip()


def is_command(text):
    if not COMMAND_START.match(text):
        return False
    first = text.split()[0] if not text.startswith("python3 ") else text.split()[1]
    return " " in text or not NOT_PROGRAMS.search(first)


def commands_of(page):
    """[(line number, command)] shown on `page`."""
    found, fence, lang, pending, start = [], None, "", "", 0
    with open(page, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for no, line in enumerate(lines, 1):
        m = FENCE_RE.match(line)
        if m:
            if fence is None:
                fence, lang = m.group(1), m.group(2).lower()
            elif line.strip() == fence:
                fence = None
            continue
        if fence is not None:
            if lang not in ("", "sh", "bash", "console", "shell"):
                continue
            text = clean(line)
            if not pending:
                start = no
            if text.endswith("\\"):
                pending += text[:-1].strip() + " "
                continue
            text = (pending + text).strip()
            pending = ""
            if text and is_command(text):
                found.append((start, text))
            continue
        for span in INLINE_RE.findall(line):
            span = span.strip()
            if is_command(span):
                found.append((no, span))
    seen, out = set(), []
    for no, c in found:
        if c not in seen:
            seen.add(c)
            out.append((no, c))
    return out


CTEST_PASSED = re.compile(r"Test\s+#\d+:\s+(\S+)\s+\.+\s+Passed\b")
CTEST_NOT_PASSED = re.compile(r"Test\s+#\d+:\s+(\S+)\s+\.+\s*\*{3}(?:Failed|Timeout|Exception|Not Run)")
CTEST_SKIPPED = re.compile(r"Test\s+#\d+:\s+(\S+)\s+\.+\**\s*Skipped\b")
STUB_CHECK = re.compile(r"^(scripts/exercise\.sh ch\d\d/\d\d(?!.*--solution)|ctest .*-L exercise\b)")


def verdict_of(cmd, rc, out):
    """(verdict, note) for one command's exit code and output."""
    if "--target docs" in cmd and shutil.which("doxygen") is None:
        return "skipped", "doxygen is not installed here"
    if cmd.startswith("ctest") and "No tests were found" in out:
        return "FAILED", "ctest found no tests: run it where the tests are (--test-dir build)"
    if STUB_CHECK.match(cmd):
        if rc == 77 or (rc == 0 and re.search(r"tests did not run|Skipped", out) and
                        not re.search(r"\bPassed\b", out)):
            return "skipped", "no GPU: the stubs' tests were skipped"
        if rc in (1, 8):
            return "ok", "fails, as a stub must"
        if rc == 0:
            return "FAILED", "a stub passed its check: the check cannot fail"
        return "FAILED", ""
    if rc == 0 and cmd.startswith("ctest"):
        n_passed, n_skipped = len(CTEST_PASSED.findall(out)), len(CTEST_SKIPPED.findall(out))
        if n_skipped and not n_passed:
            return "skipped", "every test it ran was skipped (%d)" % n_skipped
        if n_skipped:
            return "ok", "%d passed, %d skipped" % (n_passed, n_skipped)
    if rc == 0:
        return "ok", ""
    if rc == 77:
        return "skipped", ""
    return "FAILED", ""


def reusable_ctest(cmd):
    """A ctest command whose passes count for later ones (not a stub check, which must fail)."""
    return cmd.startswith("ctest") and not STUB_CHECK.match(cmd)


def may_rebuild(cmd):
    """A command that may rebuild the programs the tests run."""
    return cmd.startswith("cmake") or "tutorial.sh" in cmd


CTEST_LISTED = re.compile(r"^\s*Test\s+#\d+:\s+(\S+)\s*$", re.M)
OUTPUT_FLAG = re.compile(r"^--(csv|md|json|out)$")


def gpu_count():
    """GPUs this machine shows (nvidia-smi -L, narrowed by CUDA_VISIBLE_DEVICES); None without nvidia-smi."""
    if shutil.which("nvidia-smi") is None:
        return None
    r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    if r.returncode != 0:
        return 0
    n = sum(1 for l in r.stdout.splitlines() if l.startswith("GPU "))
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        n = min(n, len([v for v in visible.split(",") if v.strip()]))
    return n


def outputs_and_inputs(cmd):
    """(files the command writes through --csv/--md/--json/--out, the other arguments)."""
    words, outs, args = cmd.split(), [], []
    for i, w in enumerate(words):
        if i > 0 and OUTPUT_FLAG.match(words[i - 1]):
            outs.append(w)
        else:
            args.append(w)
    return outs, args


def ctest_listed(cmd):
    """The test names `cmd -N` lists (cmd a plain ctest command), or [] when it cannot say."""
    if not re.match(r"^ctest [^;&|<>]*$", cmd):
        return []
    try:
        r = subprocess.run(["bash", "-c", cmd + " -N"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return []
    return CTEST_LISTED.findall(r.stdout) if r.returncode == 0 else []


def build_fingerprint():
    """The executables under build/ with their modification times: what a cmake command may change."""
    out = set()
    for here, dirs, files in os.walk(os.path.join(ROOT, "build"), followlinks=True):
        dirs[:] = [d for d in dirs if d != "CMakeFiles"]
        for f in files:
            p = os.path.join(here, f)
            if os.access(p, os.X_OK) and os.path.isfile(p):
                out.add((p, os.stat(p).st_mtime_ns))
    return frozenset(out) or None


def run(cmd, timeout):
    """(exit code, stdout + stderr) of `cmd` under bash in the root; on timeout the whole process
    group is killed (ctest's test programs too) and the output so far is kept, exit code -1."""
    p = subprocess.Popen(["bash", "-c", cmd], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return -1, (out or b"").decode("utf-8", "replace") + "\ntimed out after %d s" % timeout


def untracked():
    r = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "--directory"], cwd=ROOT,
                       capture_output=True, text=True)
    return set(r.stdout.split()) if r.returncode == 0 else set()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="print the commands, run nothing")
    ap.add_argument("--only", default="", help="run only the commands that contain this text")
    ap.add_argument("--skip", action="append", default=[], help="leave out commands that contain this text (repeatable)")
    ap.add_argument("--timeout", type=int, default=1800,
                    help="seconds per command (default 1800: on one H200 the whole test suite takes many minutes)")
    ap.add_argument("--keep", action="store_true", help="keep the files the commands write into the root")
    ap.add_argument("--logs", default="", metavar="DIR",
                    help="write each command's whole output to DIR/<NN>_<command>.log (ctest's per-test times, ...)")
    a = ap.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # a log that is cut short still shows what ran

    todo = []
    for page in pages():
        for no, cmd in commands_of(page):
            todo.append((os.path.relpath(page, ROOT), no, cmd))
    if a.list:
        for page, no, cmd in todo:
            print("%s:%d: %s" % (page, no, cmd))
        return 0

    # The ctest commands run broadest first (most tests listed by -N), in the slots the pages give
    # them, so that a narrower one can stand on the tests a broader one already passed. A ctest
    # command never moves past a cmake or tutorial.sh command (they may rebuild what it tests).
    def selected(c):
        return not ((a.only and a.only not in c) or any(x in c for x in a.skip))

    size, segment = {}, []
    for i in range(len(todo) + 1):
        c = todo[i][2] if i < len(todo) else None
        if c is None or (selected(c) and may_rebuild(c)):
            for c2 in {todo[j][2] for j in segment} - set(size):
                size[c2] = len(ctest_listed(c2))
            for j, item in zip(segment, sorted((todo[j] for j in segment), key=lambda t: -size[t[2]])):
                todo[j] = item
            segment = []
        elif reusable_ctest(c) and selected(c):
            segment.append(i)

    if a.logs:
        os.makedirs(a.logs, exist_ok=True)
    before = untracked()
    results = {"ok": 0, "skipped": 0, "FAILED": 0, "not run": 0}
    failed = []
    ran = {}  # command -> (where, verdict, note): a command shown on several pages runs once
    passed = {}  # test name -> the ctest command in which it passed
    unwritten = {}  # file -> where the skipped command that was to write it is shown
    gpus = gpu_count()

    def record(verdict, where, cmd, note, detail):
        """Counts and prints a verdict, and keeps it for the command's other places."""
        ran[cmd] = (where, verdict, note)
        results[verdict] += 1
        print("%-8s %s: %s  (%s)" % (verdict, where, cmd, detail), flush=True)

    for page, no, cmd in todo:
        where = "%s:%d" % (page, no)
        if not selected(cmd):
            continue
        if re.search(r"<[^>]+>|\.\.\.|\bNN\b", cmd):
            print("not run  %s: %s (a placeholder)" % (where, cmd))
            results["not run"] += 1
            continue
        if cmd in ran:
            first, verdict, note = ran[cmd]
            results[verdict] += 1
            print("%-8s %s: %s  (same command as %s)" % (verdict, where, cmd, first))
            continue
        outs, args = outputs_and_inputs(cmd)
        need = re.search(r"--gpus\s+(\d+)", cmd)
        reads = [w for w in args if w in unwritten]
        skip_note = ""
        if need and gpus and int(need.group(1)) > gpus:
            skip_note = "needs %s GPUs, this machine has %d" % (need.group(1), gpus)
        elif reads:
            skip_note = "reads %s, which the skipped command at %s was to write" % (reads[0], unwritten[reads[0]])
        if skip_note:
            record("skipped", where, cmd, skip_note, skip_note)
            unwritten.update({o: where for o in outs})
            continue
        if passed and reusable_ctest(cmd):
            names = ctest_listed(cmd)
            if names and all(n in passed for n in names):
                earlier = sorted({passed[n] for n in names})
                note = "its %d tests all passed above, in %s; listed with -N, not run again" % (
                    len(names), " and ".join("`%s`" % e for e in earlier))
                record("ok", where, cmd, note, note)
                continue
        rebuilds = build_fingerprint() if may_rebuild(cmd) else None
        t0 = time.time()
        rc, out = run(cmd, a.timeout)
        verdict, note = verdict_of(cmd, rc, out)
        if a.logs:
            name = "%02d_%s.log" % (len(ran) + 1, re.sub(r"[^A-Za-z0-9._-]+", "_", cmd)[:80].strip("_"))
            with open(os.path.join(a.logs, name), "w", encoding="utf-8") as f:
                f.write("$ %s\n# %s, exit %d, %.1f s\n%s" % (cmd, where, rc, time.time() - t0, out))
        if reusable_ctest(cmd):
            for name in CTEST_PASSED.findall(out):
                passed.setdefault(name, cmd)
            for name in CTEST_NOT_PASSED.findall(out):
                passed.pop(name, None)  # failed here: an earlier pass no longer vouches for it
        for o in outs:
            if verdict == "skipped":
                unwritten[o] = where
            else:
                unwritten.pop(o, None)
        if rebuilds and build_fingerprint() != rebuilds:
            # Programs were rebuilt: earlier passes no longer stand for them, and a ctest command
            # shown again further on runs again instead of repeating its verdict.
            passed.clear()
            for c in [c for c in ran if c.startswith("ctest")]:
                del ran[c]
        record(verdict, where, cmd, note, "exit %d, %.1f s%s" % (rc, time.time() - t0, "; " + note if note else ""))
        if verdict == "FAILED":
            failed.append(cmd)
            print("\n".join("         | " + l for l in out.strip().splitlines()[-15:]))
    print("\n%d ok, %d skipped, %d FAILED, %d not run" %
          (results["ok"], results["skipped"], results["FAILED"], results["not run"]))
    new = sorted(untracked() - before)
    if new:
        print("written into the repository's root: %s" % " ".join(new))
        if not a.keep:
            for n in new:
                p = os.path.join(ROOT, n)
                if os.path.isdir(p):
                    shutil.rmtree(p)
                elif os.path.exists(p):
                    os.remove(p)
            print("  (removed; --keep keeps them)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
