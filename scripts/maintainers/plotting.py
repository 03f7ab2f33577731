"""What the plot scripts share: getting matplotlib and pandas, and reading ladder CSVs by column name.

matplotlib and pandas are imported only when a figure is drawn, so `--help` works without them.
When this Python cannot import them but the distribution's /usr/bin/python3 can (a pyenv, conda or
virtual-environment python3 first on PATH hides the Debian/Ubuntu packages), the script runs itself
again with /usr/bin/python3. Otherwise it says how to install them and exits with 77, the
repository's code for "a tool this needs is not installed" (as profile_stage.sh and
compare_stages.py do without ncu).
"""
import os
import subprocess
import sys

EXIT_MISSING_TOOL = 77
SYSTEM_PYTHON = "/usr/bin/python3"
_REEXEC_GUARD = "TUTORIAL_PLOT_REEXEC"


def _can_import(python):
    try:
        r = subprocess.run([python, "-c", "import matplotlib, pandas"], capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def require_plotting(script):
    """(matplotlib.pyplot, pandas), with matplotlib on the off-screen Agg backend. Re-runs the
    script with the system Python when only that one has them; exits 77 with the install command
    when no Python here has them."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import pandas as pd
        return plt, pd
    except ImportError as e:
        missing = e.name or "matplotlib or pandas"
    here = os.path.realpath(sys.executable or "")
    if (os.environ.get(_REEXEC_GUARD) != "1" and os.path.exists(SYSTEM_PYTHON)
            and os.path.realpath(SYSTEM_PYTHON) != here and _can_import(SYSTEM_PYTHON)):
        os.environ[_REEXEC_GUARD] = "1"
        sys.stdout.flush()
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(sys.argv[0])] + sys.argv[1:])
    sys.stderr.write(
        "%s: this Python (%s) cannot import %s; the plots need matplotlib and pandas.\n"
        "  Debian/Ubuntu (what scripts/tutorial.sh installs when run as root):\n"
        "      sudo apt-get install -y python3-matplotlib python3-pandas\n"
        "  then run the script with the system Python, /usr/bin/python3, if python3 on PATH is another one.\n"
        "  Or, for this Python:  %s -m pip install matplotlib pandas\n"
        % (script, sys.executable or "python3", missing, sys.executable or "python3"))
    sys.exit(EXIT_MISSING_TOOL)


def read_csv(pd, path, required, script, kind):
    """One CSV written by the harness, as a frame. Exits 2 with a plain message, naming the file, when
    it is not a CSV table, has no rows, or lacks one of the `required` columns (`kind` names what it
    should be: "ladder", "contention")."""
    try:
        df = pd.read_csv(path)
    except (pd.errors.EmptyDataError, pd.errors.ParserError) as e:
        sys.stderr.write("%s: %s is not a CSV table: %s\n" % (script, path, e))
        sys.exit(2)
    if df.empty:
        sys.stderr.write("%s: %s has no rows\n" % (script, path))
        sys.exit(2)
    missing = [c for c in required if c not in df.columns]
    if missing:
        sys.stderr.write("%s: %s lacks the column(s) %s: is it a %s CSV?\n" % (script, path, ", ".join(missing), kind))
        sys.exit(2)
    return df


def read_ladder_csvs(pd, paths, required, script):
    """The CSVs in one frame, columns found by name (extra columns are ignored), with 'source' (the
    file's name) and 'kind' (stage, cub, copy or read: the CUB baseline rows start with "cub::", the
    copy ceiling is called "copy (D2D)" ("copy" in results written before the read ceiling came), the
    streaming-read ceiling "read (stream)"). Exits 2 naming a file that read_csv refuses."""
    frames = []
    for p in paths:
        df = read_csv(pd, p, required, script, "ladder")
        df["source"] = os.path.basename(p)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    names = df["stage"].astype(str)
    df["kind"] = "stage"
    df.loc[names.str.startswith("cub::"), "kind"] = "cub"
    df.loc[(names == "copy") | names.str.startswith("copy ("), "kind"] = "copy"
    df.loc[names.str.startswith("read ("), "kind"] = "read"
    return df


def size_text(n):
    """'2^28' for a power of two, else the number."""
    n = int(n)
    k = n.bit_length() - 1
    return "2^%d" % k if n > 0 and n == 1 << k else "%d" % n


def save_figure(fig, ax, out):
    """The plots' common end: a dotted grid, the legend at the upper left, a tight layout, the PNG
    written to `out` at 150 dpi (its folder made if needed) and its path printed. Returns 0."""
    ax.grid(True, which="both", ls=":", lw=0.5)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=150)
    print(out)
    return 0
