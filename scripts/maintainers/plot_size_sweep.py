#!/usr/bin/env python3
"""Plots a size sweep (scripts/size_sweep.sh): GB/s against n for one stage and CUB, one line style
per series (L2 flushed between runs, or kept warm with --no-flush), with the L2 capacity marked.

  scripts/maintainers/plot_size_sweep.py flushed=sweep/sweep_flushed.csv warm=sweep/sweep_warm.csv \\
      --stage reduce_kernel_8 --out sweep/size_sweep.png

Each input is LABEL=CSV or just CSV (the label is then the file name); the CSVs are ladder CSVs
concatenated over sizes; columns are read by name (stage, n, dtype, gb_per_s; others are ignored).

Needs matplotlib and pandas (Debian/Ubuntu: apt-get install python3-matplotlib python3-pandas);
without them it says so and exits 77. Renders off-screen (Agg).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotting  # noqa: E402

DTYPE_BYTES = {"float": 4, "f32": 4, "double": 8, "f64": 8, "int": 4, "i32": 4}
STYLES = ["-", "--", ":", "-."]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="LABEL=CSV or CSV")
    ap.add_argument("--stage", help="stage to plot (default: the first non-CUB, non-copy stage found)")
    ap.add_argument("--l2-mb", type=float, default=60.0, help="L2 size in MB (1e6 bytes) to mark (default 60)")
    ap.add_argument("--no-copy", action="store_true", help="leave out the copy-ceiling line")
    ap.add_argument("--out", default="size_sweep.png", help="output PNG (default size_sweep.png)")
    a = ap.parse_args(argv)

    inputs = []
    for item in a.inputs:
        label, _, path = item.partition("=") if "=" in item else (None, None, item)
        if not os.path.isfile(path):
            ap.error("no such file: %s" % path)
        inputs.append((label or os.path.splitext(os.path.basename(path))[0], path))
    plt, pd = plotting.require_plotting("plot_size_sweep.py")
    series = [(label, plotting.read_ladder_csvs(pd, [path], ("stage", "n", "dtype", "gb_per_s"),
                                                "plot_size_sweep.py"))
              for label, path in inputs]

    stage = a.stage
    if not stage:
        names = [s for _, df in series for s in df["stage"].astype(str)
                 if s != "copy" and not s.startswith("cub::")]
        if not names:
            sys.exit("plot_size_sweep.py: no stage rows")
        stage = names[0]

    fig, ax = plt.subplots(figsize=(9, 5.5))
    elem = 4
    for si, (label, df) in enumerate(series):
        style = STYLES[si % len(STYLES)]
        elem = DTYPE_BYTES.get(str(df["dtype"].iloc[0]), 4)
        groups = [(stage, df[df["stage"] == stage], "C0"),
                  ("CUB", df[df["stage"].astype(str).str.startswith("cub::")], "C1")]
        if not a.no_copy:
            groups.append(("copy (read+write)", df[df["kind"] == "copy"], "0.5"))
        for name, part, color in groups:
            part = part.sort_values("n")
            if part.empty:
                continue
            ax.plot(part["n"], part["gb_per_s"], style, marker="o", ms=3, color=color,
                    label="%s, %s" % (name, label))
    l2_elems = a.l2_mb * 1e6 / elem
    ax.axvline(l2_elems, color="red", lw=1, ls=":")
    ax.annotate("L2 = %.0f MB" % a.l2_mb, (l2_elems, ax.get_ylim()[1]), textcoords="offset points",
                xytext=(4, -12), color="red", fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("GB/s (input bytes / median time)")
    ax.set_title("Size sweep: %s vs CUB" % stage)
    return plotting.save_figure(fig, ax, a.out)


if __name__ == "__main__":
    sys.exit(main())
