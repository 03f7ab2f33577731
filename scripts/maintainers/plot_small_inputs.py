#!/usr/bin/env python3
"""Plots a small-input ladder (`reduce_ladder --small --csv`, `scan_ladder --small --csv`, or any
`--sizes` run): microseconds per run against n, both axes logarithmic, one line per stage chosen,
CUB, and the ceilings (copy, streaming read), each labelled with the launches one run enqueues.
Where the lines stay flat, launches decide; where they start to climb with n, bytes do.

  scripts/maintainers/plot_small_inputs.py docs/results/H100/small/reduce_ladder_small_float.csv \\
      --stages reduce_kernel_9,reduce_kernel_11,reduce_kernel_12 --out small_inputs.png

Columns are read by name (stage, n, us_median, launches; others are ignored). Needs matplotlib and
pandas (Debian/Ubuntu: apt-get install python3-matplotlib python3-pandas); without them it says so
and exits 77. Renders off-screen (Agg). Exit codes: 0 drawn; 2 bad command line or CSV.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotting  # noqa: E402


def launches_text(part):
    """'1 launch', '2 launches' or '1-2 launches' over the sizes of one series."""
    values = sorted({int(v) for v in part["launches"] if str(v) not in ("", "nan")})
    if not values:
        return ""
    span = "%d" % values[0] if len(values) == 1 else "%d-%d" % (values[0], values[-1])
    return "%s launch%s" % (span, "" if span == "1" else "es")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="a ladder CSV written with --small or --sizes")
    ap.add_argument("--stages", default="", help="comma-separated stages to draw (default: every stage row)")
    ap.add_argument("--title", default="", help="the figure's title (default: the device and the element type)")
    ap.add_argument("--out", default="small_inputs.png", help="output PNG (default small_inputs.png)")
    a = ap.parse_args(argv)
    if not os.path.isfile(a.csv):
        ap.error("no such file: %s" % a.csv)
    plt, pd = plotting.require_plotting("plot_small_inputs.py")
    df = plotting.read_ladder_csvs(pd, [a.csv], ("stage", "n", "us_median", "launches"), "plot_small_inputs.py")
    wanted = [s for s in a.stages.split(",") if s]
    missing = [s for s in wanted if s not in set(df["stage"].astype(str))]
    if missing:
        print("plot_small_inputs.py: error: no rows for %s in %s" % (", ".join(missing), a.csv), file=sys.stderr)
        return 2

    fig, ax = plt.subplots(figsize=(9, 5.5))
    series = [(s, df[df["stage"] == s], "-", None) for s in (wanted or
              [s for s in dict.fromkeys(df.loc[df["kind"] == "stage", "stage"].astype(str))])]
    for kind, style, color in (("cub", "-", "black"), ("copy", ":", "0.45"), ("read", "--", "0.45")):
        part = df[df["kind"] == kind]
        if not part.empty:
            series.append((str(part["stage"].iloc[0]), part, style, color))
    for name, part, style, color in series:
        part = part.sort_values("n")
        ax.plot(part["n"], part["us_median"], style, marker="o", ms=3, color=color,
                lw=2 if color == "black" else 1.5, label="%s (%s)" % (name, launches_text(part)))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    from matplotlib import ticker  # after require_plotting: matplotlib is importable here
    for axis in (ax.yaxis,):
        axis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        axis.set_minor_formatter(ticker.FormatStrFormatter("%g"))
    ax.xaxis.set_major_locator(ticker.LogLocator(base=2, numticks=20))
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("microseconds per run (median)")
    device = str(df["device"].iloc[0]) if "device" in df.columns else ""
    dtype = str(df["dtype"].iloc[0]) if "dtype" in df.columns else ""
    timing = str(df["timing"].iloc[0]) if "timing" in df.columns else ""
    ax.set_title(a.title or "Small inputs: %s, %s (%s-timed runs)" % (device, dtype, timing))
    return plotting.save_figure(fig, ax, a.out)


if __name__ == "__main__":
    sys.exit(main())
