#!/usr/bin/env python3
"""Plots one or more ladder CSV files (the ladders' --csv output): a bar chart of GB/s per stage
with the CUB and copy lines, and a roofline with every stage (of the first CSV) as a point.

  scripts/maintainers/plot_ladder.py docs/results/H200/ch07/reduce_ladder_2e28_float.csv \\
      --out-dir docs/figures --prefix ch07_2e28

Writes <out-dir>/<prefix>_bandwidth.png and <out-dir>/<prefix>_roofline.png (prefix: --prefix, or
the first CSV's name); several CSVs (other sizes, types or operators) become several series.
scripts/maintainers/make_figures.sh redraws every figure of the chapter pages from docs/results/ this way.

Columns are read by name; other columns are ignored. Needed: stage, gb_per_s. Used when present:
n, dtype, op (the series' name), label (the stage's idea, under its number), pct_peak_bw (the peak
bandwidth, as gb_per_s / pct_peak_bw x 100, unless --peak-gbs is given), gflop_per_s (the roofline's
y; without it, n / ms_median), ms_median, device (the title). Rows called "cub::..." are the CUB
baseline and "copy" the bandwidth ceiling; every other row is a stage.

The roofline's compute roof is --peak-tflops (default: the H200's 66.9 TFLOP/s FP32). Each stage
sits at its arithmetic intensity, gflop_per_s / gb_per_s (1/sizeof(element) FLOP/byte for a
reduction: one operation per element read); stages at the same place share one label.

Needs matplotlib and pandas (Debian/Ubuntu: apt-get install python3-matplotlib python3-pandas);
without them it says so and exits 77. Renders off-screen (Agg).
"""
import argparse
import math
import os
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotting  # noqa: E402

REQUIRED = ["stage", "gb_per_s"]
DEFAULT_PEAK_GBS = 4814.0    # H200, from its memory clock and bus width
DEFAULT_PEAK_TFLOPS = 66.9   # H200 FP32


def short(stage):
    """The stage's number as a tick: reduce_kernel_3 -> 3, reduce_stage_2 -> 2,
    reduce_kernel_6_volatile -> 6 volatile; other names unchanged."""
    s = str(stage)
    for prefix in ("reduce_kernel_", "reduce_stage_", "scan_stage_", "histogram_stage_"):
        if s.startswith(prefix):
            return s[len(prefix):].replace("_", " ")
    return s


def num(v, whole_from=10):
    """A bar label: whole numbers from `whole_from` up, two significant digits below it."""
    return "%.0f" % v if v >= whole_from else "%.2g" % v


def series_label(part):
    """'2^28 float sum' for one file's rows (the parts that the CSV has); a ladder with two finishes
    adds the finish of the series (split_finishes)."""
    if "series" in part and str(part["series"].iloc[0]) not in ("", "nan"):
        return str(part["series"].iloc[0])
    bits = []
    if "n" in part:
        bits.append(plotting.size_text(part["n"].iloc[0]))
    for col in ("dtype", "op"):
        if col in part and str(part[col].iloc[0]) not in ("", "nan"):
            bits.append(str(part[col].iloc[0]))
    return " ".join(bits) or str(part["source"].iloc[0])


def split_finishes(df):
    """A chapter-7 ladder runs stages 1 to 8 with two finishes (column `finish`: atomic, partials).
    Each finish becomes its own series, its stages named as in the other (reduce_kernel_4_partials ->
    reduce_kernel_4), so that the bar chart puts a stage's two finishes side by side. CUB and the copy
    stay with the first finish's series (they were measured once). Other ladders are unchanged."""
    if "finish" not in df:
        return df
    finishes = [f for f in dict.fromkeys(df.loc[df["kind"] == "stage", "finish"]) if str(f) not in ("", "nan")]
    if len(finishes) < 2:
        return df
    df = df.copy()
    base = df["source"].astype(str)
    label = df.apply(lambda r: "%s %s" % (plotting.size_text(r["n"]), r["dtype"]) if "n" in df and "dtype" in df
                     else str(r["source"]), axis=1)
    first = finishes[0]
    fin = df["finish"].astype(str)
    fin = fin.where((df["kind"] == "stage") & ~fin.isin(["", "nan"]), str(first))
    df["source"] = base + " / " + fin
    df["series"] = label + ", " + fin + " finish"
    df["stage"] = df["stage"].astype(str).str.replace(r"_partials$", "", regex=True)
    return df


def peak_from_csv(df):
    """Peak DRAM bandwidth in GB/s implied by gb_per_s and pct_peak_bw, or None."""
    if "pct_peak_bw" not in df:
        return None
    ok = df[(df["pct_peak_bw"] > 0) & (df["gb_per_s"] > 0) & ~df["kind"].isin(["copy", "read"])]
    if ok.empty:
        return None
    return float((ok["gb_per_s"] / ok["pct_peak_bw"] * 100.0).median())


def add_gflops(df):
    """A gflop_per_s column: the CSV's, or n / ms_median (one operation per element)."""
    if "gflop_per_s" in df:
        return df
    if "n" in df and "ms_median" in df:
        df["gflop_per_s"] = df["n"] / (df["ms_median"] * 1e-3) / 1e9
        return df
    sys.exit("plot_ladder.py: the roofline needs gflop_per_s, or n and ms_median")


def device_name(df):
    return str(df["device"].iloc[0]) if "device" in df else ""


def bandwidth_bars(plt, df, peak_gbs, out):
    sources = list(dict.fromkeys(df["source"]))
    stage_rows = df[df["kind"] == "stage"]
    stages = list(dict.fromkeys(stage_rows["stage"]))
    labels = {}
    if "label" in df:
        for s in stages:
            labels[s] = str(stage_rows.loc[stage_rows["stage"] == s, "label"].iloc[0])
    fig, ax = plt.subplots(figsize=(max(8.0, 1.05 * len(stages) + 2.5), 6.4))
    width = 0.8 / max(1, len(sources))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    single = len(sources) == 1
    top = peak_gbs
    for si, src in enumerate(sources):
        part = df[df["source"] == src]
        color = colors[si % len(colors)]
        ys, pcts = [], []
        for s in stages:
            row = part[(part["stage"] == s) & (part["kind"] == "stage")]
            ys.append(float(row["gb_per_s"].iloc[0]) if len(row) else 0.0)
            pcts.append(100.0 * ys[-1] / peak_gbs)
        xs = [i + (si - (len(sources) - 1) / 2) * width for i in range(len(stages))]
        # A stage the series does not have (a finish that stage has not) gets no bar and no label.
        have = [(x, y, pct) for x, y, pct, s in zip(xs, ys, pcts, stages)
                if len(part[(part["stage"] == s) & (part["kind"] == "stage")])]
        ax.bar([h[0] for h in have], [h[1] for h in have], width=width * 0.92, color=color,
               label=series_label(part) if not single else None)
        for x, y, pct in have:
            if single:
                ax.annotate("%s\n%s%%" % (num(y), num(pct, 1)), (x, y), textcoords="offset points", xytext=(0, 3),
                            ha="center", va="bottom", fontsize=7.5)
            else:
                ax.annotate("%s (%s%%)" % (num(y), num(pct, 1)), (x, y),
                            textcoords="offset points", xytext=(0, 3), ha="center", va="bottom",
                            fontsize=6.5, rotation=90)
        cub = part[part["kind"] == "cub"]
        if not cub.empty:
            v = float(cub["gb_per_s"].iloc[0])
            ax.axhline(v, color=color if not single else "tab:orange", ls="--", lw=1.4,
                       label="CUB%s: %.0f GB/s" % ("" if single else " (%s)" % series_label(part), v))
            top = max(top, v)
    # The copy ceiling depends on the bytes, not on the operator: one line unless the files differ.
    copies = df[df["kind"] == "copy"]
    if not copies.empty:
        vals = [float(v) for v in copies["gb_per_s"]]
        if max(vals) - min(vals) <= 0.02 * max(vals):
            ax.axhline(vals[0], color="0.35", ls=":", lw=1.6,
                       label="copy ceiling (device-to-device, read + write): %.0f GB/s" % vals[0])
        else:
            for si, src in enumerate(sources):
                row = copies[copies["source"] == src]
                if not row.empty:
                    ax.axhline(float(row["gb_per_s"].iloc[0]), color=colors[si % len(colors)], ls=":", lw=1.4,
                               label="copy ceiling (%s): %.0f GB/s" % (series_label(df[df["source"] == src]),
                                                                      float(row["gb_per_s"].iloc[0])))
    # The streaming-read ceiling: what a kernel that only reads the bytes reaches (a reduction's roof).
    reads = df[df["kind"] == "read"]
    if not reads.empty:
        v = float(reads["gb_per_s"].max())
        ax.axhline(v, color="0.55", ls="-.", lw=1.4, label="read ceiling (streaming read only): %.0f GB/s" % v)
        top = max(top, v)
    ax.axhline(peak_gbs, color="black", lw=1, label="peak DRAM bandwidth: %.0f GB/s" % peak_gbs)
    ax.set_ylim(0, top * 1.16)
    ax.set_xlim(-0.6, len(stages) - 0.4)
    ax.set_xticks(range(len(stages)))
    ax.set_xticklabels(["%s\n%s" % (short(s), textwrap.fill(labels.get(s, ""), 13)) for s in stages],
                       fontsize=7.5)
    ax.set_ylabel("GB/s (bytes the problem must move / median time)")
    title = "Ladder: GB/s per stage" + (" (%s)" % series_label(df[df["source"] == sources[0]]) if single else "")
    if device_name(df):
        title += ", " + device_name(df)
    ax.set_title(title + "\nbar labels: GB/s and % of peak", fontsize=11)
    ax.grid(True, axis="y", ls=":", lw=0.5)
    if single:
        ax.legend(fontsize=8, loc="upper left", framealpha=0.95)
    else:
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def clusters(points, rel=0.04):
    """Groups [(y, name)] (sorted by y) whose y lie within `rel` of the group's first."""
    groups = []
    for y, name in sorted(points, key=lambda p: p[0]):
        if groups and y <= groups[-1][0][0] * (1 + rel):
            groups[-1].append((y, name))
        else:
            groups.append([(y, name)])
    return groups


def range_label(names, order):
    """'1-7' when `names` are consecutive rows of the ladder (`order`: every name in ladder order),
    else the names joined in ladder order."""
    pos = sorted(order.index(n) for n in names)
    if len(pos) > 2 and pos == list(range(pos[0], pos[-1] + 1)):
        return "%s-%s" % (order[pos[0]], order[pos[-1]])
    return ", ".join(order[p] for p in pos)


def roofline(plt, df, peak_gbs, peak_tflops, out):
    """The roofline with the stages of the first CSV as points (the other files' stages would sit
    on the same intensity, on top of these)."""
    df = df[df["source"] == df["source"].iloc[0]]
    fig, ax = plt.subplots(figsize=(9, 6))
    peak_gflops = peak_tflops * 1e3
    ridge = peak_gflops / peak_gbs  # FLOP/byte
    pts = df[~df["kind"].isin(["copy", "read"]) & (df["gflop_per_s"] > 0) & (df["gb_per_s"] > 0)].copy()
    pts["ai"] = pts["gflop_per_s"] / pts["gb_per_s"]
    ai_lo = min(pts["ai"].min() / 4, 1 / 16) if not pts.empty else 1 / 16
    ai_hi = max(ridge * 4, 1.0)
    xs = [ai_lo * (ai_hi / ai_lo) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(peak_gflops, peak_gbs * x) for x in xs], color="black", lw=2,
            label="roofline: %.0f GB/s, %.1f TFLOP/s" % (peak_gbs, peak_tflops))
    copies = df[df["kind"] == "copy"]
    if not copies.empty:
        c = float(copies["gb_per_s"].iloc[0])
        ax.plot(xs, [min(peak_gflops, c * x) for x in xs], color="0.45", ls=":", lw=1.4,
                label="measured copy bandwidth: %.0f GB/s" % c)
    ax.axvline(ridge, color="grey", ls=":", lw=1)
    ax.annotate("ridge %.1f FLOP/byte" % ridge, (ridge, peak_gflops), textcoords="offset points",
                xytext=(4, -14), fontsize=8, color="grey")
    color = plt.rcParams["axes.prop_cycle"].by_key()["color"][0]
    part = pts
    if not part.empty:
        # Every stage of a reduction has the same intensity: the points are spread a little sideways.
        shift = 1.0
        stages = part[part["kind"] == "stage"].reset_index(drop=True)
        spread = [2 ** (0.035 * (i - (len(stages) - 1) / 2)) for i in range(len(stages))]
        x_of = {}
        for i, r in stages.iterrows():
            x = r["ai"] * shift * spread[i]
            x_of[short(r["stage"])] = x
            ax.scatter([x], [r["gflop_per_s"]], color=color, s=24, zorder=3,
                       label=("stages, " + series_label(part)) if i == 0 else None)
        order = [short(s) for s in stages["stage"]]
        for group in clusters([(r["gflop_per_s"], short(r["stage"])) for _, r in stages.iterrows()]):
            names = [g[1] for g in group]
            y = sum(g[0] for g in group) / len(group)
            x = max(x_of[n] for n in names)
            ax.annotate(range_label(names, order), (x, y), textcoords="offset points", xytext=(6, -3),
                        fontsize=8, color=color)
        for _, r in part[part["kind"] == "cub"].iterrows():
            ax.scatter([r["ai"] * shift], [r["gflop_per_s"]], marker="*", s=140, color="tab:orange",
                       edgecolor="black", zorder=4, label="CUB, " + series_label(part))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=10)
    ax.set_xlim(ai_lo, ai_hi)
    low = pts["gflop_per_s"].min() / 3 if not pts.empty else 1.0
    ax.set_ylim(max(1e-3, low), peak_gflops * 3)
    ax.set_xlabel("arithmetic intensity (FLOP/byte); the stages' points are spread a little sideways")
    ax.set_ylabel("GFLOP/s (one operation per element)")
    title = "Stages on the roofline" + (" (%s)" % device_name(df) if device_name(df) else "")
    ax.set_title(title + "\nmemory-bound: the roof at this intensity is the peak bandwidth x FLOP/byte",
                 fontsize=11)
    ax.grid(True, which="both", ls=":", lw=0.5)
    ax.legend(fontsize=8, loc="upper left", framealpha=0.95)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", help="ladder CSV files (a ladder's --csv output)")
    ap.add_argument("--out-dir", default=".", help="where the PNGs go (default .)")
    ap.add_argument("--prefix", help="file name prefix (default: the first CSV's name)")
    ap.add_argument("--peak-gbs", type=float,
                    help="peak DRAM bandwidth, GB/s (default: from the CSV's pct_peak_bw, else %.0f)" % DEFAULT_PEAK_GBS)
    ap.add_argument("--peak-tflops", type=float, default=DEFAULT_PEAK_TFLOPS,
                    help="peak FP32, TFLOP/s, the roofline's flat part (default %.1f, the H200)" % DEFAULT_PEAK_TFLOPS)
    a = ap.parse_args(argv)
    for p in a.csv:
        if not os.path.isfile(p):
            ap.error("no such file: %s" % p)
    if (a.peak_gbs is not None and a.peak_gbs <= 0) or a.peak_tflops <= 0:
        ap.error("peaks must be positive")
    plt, pd = plotting.require_plotting("plot_ladder.py")
    df = plotting.read_ladder_csvs(pd, a.csv, REQUIRED, "plot_ladder.py")
    if df[df["kind"] == "stage"].empty:
        sys.exit("plot_ladder.py: no stage rows in %s" % ", ".join(a.csv))
    df = add_gflops(df)
    df = split_finishes(df)
    peak_gbs = a.peak_gbs or peak_from_csv(df) or DEFAULT_PEAK_GBS
    if not math.isfinite(peak_gbs) or peak_gbs <= 0:
        peak_gbs = DEFAULT_PEAK_GBS
    os.makedirs(a.out_dir, exist_ok=True)
    prefix = a.prefix or os.path.splitext(os.path.basename(a.csv[0]))[0]
    bars = os.path.join(a.out_dir, prefix + "_bandwidth.png")
    roof = os.path.join(a.out_dir, prefix + "_roofline.png")
    bandwidth_bars(plt, df, peak_gbs, bars)
    roofline(plt, df, peak_gbs, a.peak_tflops, roof)
    print(bars)
    print(roof)
    return 0


if __name__ == "__main__":
    sys.exit(main())
