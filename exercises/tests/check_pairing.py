#!/usr/bin/env python3
"""Checks that the exercises and their solutions pair up (a CPU test, cpu.exercise_pairing).

Usage: check_pairing.py [REPO_ROOT]   (default: two folders above this file)

For every chapter folder exercises/chNN/ and solutions/chNN/:
  - every file in one has a twin of the same name in the other;
  - every stub contains a TODO(student) marker, and no solution does (an exercise never ships
    solved, a solution never ships unfinished);
  - every exercise NN_name.cuh has its test source exercises/tests/test_chNN_NN.cpp, registered in
    exercises/CMakeLists.txt (tutorial_add_exercises(chNN NUMBERS ... NN ...)).
Exit 0 when all hold, 1 with one line per problem otherwise, 2 for a bad command line.
"""
import os
import re
import sys

MARKER = "TODO(student)"


def main(argv):
    if any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__.strip())
        return 0
    if len(argv) > 2:
        print("check_pairing.py: error: at most one argument, the repository root (--help)", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    ex_root, sol_root = os.path.join(root, "exercises"), os.path.join(root, "solutions")
    cmake = open(os.path.join(ex_root, "CMakeLists.txt"), encoding="utf-8").read()
    problems, checked = [], 0
    chapters = sorted(d for d in os.listdir(ex_root) if re.fullmatch(r"ch\d+", d))
    chapters += sorted(d for d in os.listdir(sol_root) if re.fullmatch(r"ch\d+", d) and d not in chapters)
    if not chapters:
        problems.append("no chapter folders (exercises/chNN) found")
    for ch in chapters:
        ex_dir, sol_dir = os.path.join(ex_root, ch), os.path.join(sol_root, ch)
        ex = set(os.listdir(ex_dir)) if os.path.isdir(ex_dir) else set()
        sol = set(os.listdir(sol_dir)) if os.path.isdir(sol_dir) else set()
        for f in sorted(ex - sol):
            problems.append(f"exercises/{ch}/{f} has no solution solutions/{ch}/{f}")
        for f in sorted(sol - ex):
            problems.append(f"solutions/{ch}/{f} has no exercise exercises/{ch}/{f}")
        for f in sorted(ex & sol):
            checked += 1
            stub = open(os.path.join(ex_dir, f), encoding="utf-8").read()
            solved = open(os.path.join(sol_dir, f), encoding="utf-8").read()
            if MARKER not in stub:
                problems.append(f"exercises/{ch}/{f} has no {MARKER} marker (does it ship solved?)")
            if MARKER in solved:
                problems.append(f"solutions/{ch}/{f} still has a {MARKER} marker")
            if stub == solved:
                problems.append(f"exercises/{ch}/{f} is identical to its solution")
            m = re.match(r"(\d+)_\w+\.(cuh|cu|hpp|cpp)$", f)
            if not m:
                continue  # not a coding exercise (questions, notes)
            num = m.group(1)
            test = os.path.join(ex_root, "tests", f"test_{ch}_{num}.cpp")
            if not os.path.isfile(test):
                problems.append(f"exercises/{ch}/{f} has no test source exercises/tests/test_{ch}_{num}.cpp")
            reg = re.search(rf"tutorial_add_exercises\(\s*{ch}\s+NUMBERS([^)]*?)(LIBS|\))", cmake)
            if not reg or num not in reg.group(1).split():
                problems.append(f"exercises/{ch}/{f} is not registered in exercises/CMakeLists.txt")
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print(f"ok: {checked} exercise files paired with their solutions in {', '.join(chapters)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
