#!/usr/bin/env python3
"""Plots a histogram contention sweep (histogram_contention --csv ...): GB/s against the share of
samples in the hottest bin, one line per stage, CUB dashed, the streaming-read ceiling dotted.

  scripts/maintainers/plot_contention.py contention.csv --out docs/figures/histogram_contention.png

The x axis is logarithmic (shares from 1/bins, uniform data, to 1, every sample in one bin); the
y axis is GB/s of samples read (1e9 bytes/s), logarithmic by default (--linear for linear), since
stage 0 and stage 6 differ by orders of magnitude. Rows whose check failed are drawn as crosses.
Needs matplotlib and pandas; renders off-screen (Agg).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotting  # noqa: E402  (imports matplotlib and pandas only when a figure is drawn)

REQUIRED = ["hot_share", "stage", "gb_per_s", "verified", "is_cub"]
CEILING = "read ceiling"


def as_bool(series):
    """CSV flags as written by the harness ("true"/"false") or pandas' own booleans."""
    return series.astype(str).str.lower().isin(["true", "1"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="?", help="CSV written by histogram_contention --csv (required)")
    ap.add_argument("--out", default="histogram_contention.png", help="output image (PNG or SVG)")
    ap.add_argument("--linear", action="store_true", help="linear GB/s axis")
    ap.add_argument("--title", default=None, help="plot title (default: from the CSV)")
    args = ap.parse_args()
    if not args.csv:
        ap.error("the following arguments are required: csv")
    if not os.path.isfile(args.csv):
        ap.error("no such file: %s (write it with build/ch08_reduction_scan_histogram/histogram_contention "
                 "--csv %s, which needs a GPU)" % (args.csv, args.csv))

    plt, pd = plotting.require_plotting("plot_contention.py")
    df = plotting.read_csv(pd, args.csv, REQUIRED, "plot_contention.py", "contention")
    df["verified"] = as_bool(df["verified"])
    df["is_cub"] = as_bool(df["is_cub"])

    fig, ax = plt.subplots(figsize=(9, 5.5))
    for stage, rows in df.groupby("stage", sort=False):
        rows = rows.sort_values("hot_share")
        if stage == CEILING:
            style = dict(linestyle=":", color="black", linewidth=1.5)
        elif rows["is_cub"].any():
            style = dict(linestyle="--", color="black", linewidth=2)
        else:
            style = dict(linestyle="-", marker="o", markersize=3)
        label = stage.replace("histogram_", "")
        ax.plot(rows["hot_share"], rows["gb_per_s"], label=label, **style)
        bad = rows[~rows["verified"]]
        if len(bad):
            ax.plot(bad["hot_share"], bad["gb_per_s"], "x", color="red", markersize=9)

    ax.set_xscale("log")
    if not args.linear:
        ax.set_yscale("log")
    ax.set_xlabel("share of samples in the hottest bin")
    ax.set_ylabel("GB/s (samples read)")
    first = df.iloc[0]
    title = args.title or "Histogram contention: %s samples, n = %s, %s bins" % (
        first.get("dtype", first.get("type", "?")), first.get("n", "?"), int(first["bins"]) if "bins" in first else "?")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(args.out, dpi=150)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
