#!/usr/bin/env python3
"""Plots one or more ladder CSV files (reduce_ladder --csv ...): a roofline with every stage as a
point, and a bar chart of GB/s per stage with the CUB and copy ceilings as horizontal lines.

  scripts/plot_ladder.py docs/results/h200/reduce_ladder_2e24_float.csv \\
      docs/results/h200/reduce_ladder_2e28_float.csv --out-dir docs/figures

Writes <out-dir>/<prefix>_roofline.png and <out-dir>/<prefix>_bandwidth.png (prefix: --prefix, or
the first CSV's name). The roofline's peaks come from --peak-gbs and --peak-tflops (defaults: the
H200's 4814 GB/s and 66.9 TFLOP/s FP32); each stage sits at its arithmetic intensity,
1 / sizeof(element) FLOP/byte (one addition per element read), at the GFLOP/s it reached.
Needs matplotlib and pandas; renders off-screen (Agg).
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

DTYPE_BYTES = {"float": 4, "f32": 4, "double": 8, "f64": 8, "int": 4, "i32": 4, "int64": 8, "i64": 8,
               "uint8": 1, "u8": 1}
REQUIRED = ["stage", "n", "dtype", "gb_per_s", "gflop_per_s", "ms_median"]
CUB_PREFIX = "cub::"


def load(paths):
    """All CSVs in one frame, with a 'source' column (which file) and 'kind' (stage, cub, copy)."""
    frames = []
    for p in paths:
        df = pd.read_csv(p)
        missing = [c for c in REQUIRED if c not in df.columns]
        if missing:
            sys.exit("plot_ladder.py: %s lacks the column(s) %s: is it a ladder CSV?" % (p, ", ".join(missing)))
        df["source"] = os.path.basename(p)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df["kind"] = "stage"
    df.loc[df["stage"].astype(str).str.startswith(CUB_PREFIX), "kind"] = "cub"
    df.loc[df["stage"].astype(str) == "copy", "kind"] = "copy"
    return df


def series_label(df_part):
    """'n = 2^24 float' for one file's rows."""
    n = int(df_part["n"].iloc[0])
    k = n.bit_length() - 1
    size = "2^%d" % k if n == 1 << k else "%d" % n
    return "n = %s %s" % (size, df_part["dtype"].iloc[0])


def short(stage):
    """A short tick label: reduce_kernel_3 -> 3, reduce_stage_2 -> s2, others unchanged."""
    s = str(stage)
    for prefix, tag in (("reduce_kernel_", ""), ("reduce_stage_", "s")):
        if s.startswith(prefix):
            return tag + s[len(prefix):]
    return s


def roofline(df, peak_gbs, peak_tflops, out):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    peak_gflops = peak_tflops * 1e3
    ridge = peak_gflops / peak_gbs  # FLOP/byte
    ai_min, ai_max = 1 / 32, max(ridge * 4, 1.0)
    xs = [ai_min * (ai_max / ai_min) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(peak_gflops, peak_gbs * x) for x in xs], color="black", lw=2,
            label="roofline: %.0f GB/s, %.1f TFLOP/s FP32" % (peak_gbs, peak_tflops))
    ax.axvline(ridge, color="grey", ls=":", lw=1)
    ax.annotate("ridge %.1f FLOP/byte" % ridge, (ridge, peak_gflops), textcoords="offset points",
                xytext=(4, -14), fontsize=8, color="grey")
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    sources = list(dict.fromkeys(df["source"]))
    for si, src in enumerate(sources):
        part = df[(df["source"] == src) & (df["kind"] != "copy") & (df["gflop_per_s"] > 0)]
        if part.empty:
            continue
        color = colors[si % len(colors)]
        stages = part[part["kind"] == "stage"].reset_index(drop=True)
        for i, r in stages.iterrows():
            # Every stage has the same AI: spread the points sideways (a fraction of an octave,
            # by stage and by file) so that each label stays readable.
            shift = 0.09 * (i - (len(stages) - 1) / 2) + 0.03 * (si - (len(sources) - 1) / 2)
            x = (1.0 / DTYPE_BYTES.get(str(r["dtype"]), 4)) * 2 ** shift
            ax.scatter([x], [r["gflop_per_s"]], color=color, s=22, zorder=3,
                       label=series_label(part) if i == 0 else None)
            ax.annotate(short(r["stage"]), (x, r["gflop_per_s"]), textcoords="offset points",
                        xytext=(4, 0), fontsize=7, color=color)
        for _, r in part[part["kind"] == "cub"].iterrows():
            x = 1.0 / DTYPE_BYTES.get(str(r["dtype"]), 4)
            ax.scatter([x], [r["gflop_per_s"]], marker="*", s=90, color=color, edgecolor="black", zorder=4,
                       label="CUB (%s)" % series_label(part))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=10)
    ax.set_xlim(ai_min, ai_max)
    top = max(peak_gflops * 2, df["gflop_per_s"].max() * 2)
    low = max(1e-3, min(df.loc[df["gflop_per_s"] > 0, "gflop_per_s"].min() / 2, peak_gbs * ai_min / 2))
    ax.set_ylim(low, top)
    ax.set_xlabel("arithmetic intensity (FLOP/byte); stages spread sideways around 1/sizeof(element)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title("Reduction stages on the roofline (%s)" % str(df["device"].iloc[0]) if "device" in df else "")
    ax.grid(True, which="both", ls=":", lw=0.5)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    plt.close(fig)


def bandwidth_bars(df, peak_gbs, out):
    sources = list(dict.fromkeys(df["source"]))
    stages = list(dict.fromkeys(df.loc[df["kind"] == "stage", "stage"]))
    fig, ax = plt.subplots(figsize=(max(7, 0.9 * len(stages) + 3), 6.5))
    width = 0.8 / max(1, len(sources))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for si, src in enumerate(sources):
        part = df[df["source"] == src]
        color = colors[si % len(colors)]
        vals = [part.loc[(part["stage"] == s) & (part["kind"] == "stage"), "gb_per_s"] for s in stages]
        ys = [v.iloc[0] if len(v) else 0 for v in vals]
        xs = [i + (si - (len(sources) - 1) / 2) * width for i in range(len(stages))]
        ax.bar(xs, ys, width=width, color=color, label=series_label(part))
        for kind, style, what in (("cub", "--", "CUB"), ("copy", ":", "copy ceiling (read+write)")):
            row = part[part["kind"] == kind]
            if not row.empty:
                ax.axhline(row["gb_per_s"].iloc[0], color=color, ls=style, lw=1.5,
                           label="%s, %s: %.0f GB/s" % (what, series_label(part), row["gb_per_s"].iloc[0]))
    ax.axhline(peak_gbs, color="black", lw=1, label="peak %.0f GB/s" % peak_gbs)
    ax.set_xticks(range(len(stages)))
    ax.set_xticklabels([short(s) for s in stages])
    ax.set_xlabel("stage")
    ax.set_ylabel("GB/s (input bytes / median time)")
    ax.set_title("Reduction ladder: bandwidth per stage")
    ax.grid(True, axis="y", ls=":", lw=0.5)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", help="ladder CSV files (reduce_ladder --csv)")
    ap.add_argument("--out-dir", default=".", help="where the PNGs go (default .)")
    ap.add_argument("--prefix", help="file name prefix (default: the first CSV's name)")
    ap.add_argument("--peak-gbs", type=float, default=4814.0, help="peak DRAM bandwidth, GB/s (default 4814)")
    ap.add_argument("--peak-tflops", type=float, default=66.9, help="peak FP32, TFLOP/s (default 66.9)")
    a = ap.parse_args(argv)
    for p in a.csv:
        if not os.path.isfile(p):
            ap.error("no such file: %s" % p)
    if a.peak_gbs <= 0 or a.peak_tflops <= 0:
        ap.error("peaks must be positive")
    df = load(a.csv)
    if df[df["kind"] == "stage"].empty:
        sys.exit("plot_ladder.py: no stage rows in %s" % ", ".join(a.csv))
    os.makedirs(a.out_dir, exist_ok=True)
    prefix = a.prefix or os.path.splitext(os.path.basename(a.csv[0]))[0]
    roof = os.path.join(a.out_dir, prefix + "_roofline.png")
    bars = os.path.join(a.out_dir, prefix + "_bandwidth.png")
    roofline(df, a.peak_gbs, a.peak_tflops, roof)
    bandwidth_bars(df, a.peak_gbs, bars)
    print(roof)
    print(bars)
    return 0


if __name__ == "__main__":
    sys.exit(main())
