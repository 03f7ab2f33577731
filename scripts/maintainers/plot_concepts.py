#!/usr/bin/env python3
"""Draws the pages' concept figures from the code's own parameters (no GPU, no results needed):

  reduction_tree_banks.png  interleaved against sequential addressing: the tree of 16 elements, and
                            for one warp at each level of a 256-thread block, how many words each of
                            the 32 shared-memory banks serves (1 = no conflict)
  blelloch_sweeps.png       Blelloch's up-sweep and down-sweep on 8 elements, level by level
  lookback_flags.png        the decoupled look-back: each tile's status flag over time
  scan_stage8_roles.png     scan stage 8's warp roles around its ring of shared-memory stages

The block size, the ring's depth and vectors per thread and the role threads are read from
ch08_reduction_scan_histogram/scan/scan_stage_8_bulk_copy_pipeline.cuh (kStage8Shape, its row for floats,
kPipelineShapeBlock, kPipelineRoleThreads); the bank count (32) and warp size (32) are the hardware's.

  scripts/maintainers/plot_concepts.py [--out-dir docs/figures] [--root .]
Exit codes: 0 drawn; 2 a parameter could not be read; 77 matplotlib is not installed.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plotting import require_plotting  # noqa: E402

BANKS = 32
WARP = 32


def stage8_params(root):
    path = os.path.join(root, "ch08_reduction_scan_histogram/scan/scan_stage_8_bulk_copy_pipeline.cuh")
    text = open(path, encoding="utf-8").read()
    def grab(pattern, what):
        m = re.search(pattern, text)
        if not m:
            sys.stderr.write("plot_concepts.py: cannot read %s from %s\n" % (what, path))
            sys.exit(2)
        return m
    # The default shape of 4-byte types (the figure draws floats): kStage8Shape's first branch.
    shape = grab(r"kStage8Shape\s*=\s*sizeof\(T\)\s*==\s*4\s*\?\s*PipelineShape\{(\d+),\s*(\d+)\}", "kStage8Shape")
    block = grab(r"kPipelineShapeBlock\s*=\s*(\d+)", "kPipelineShapeBlock")
    roles = grab(r"kPipelineRoleThreads\s*=\s*(\d+)", "kPipelineRoleThreads")
    # The default schedule is -early: its kernel always has the reduce warp (EarlySchedule).
    return {"vectors": int(shape.group(1)), "stages": int(shape.group(2)), "block": int(block.group(1)),
            "role_threads": int(roles.group(1)), "early": True}


def bank_colour(plt, b):
    return plt.get_cmap("tab20")(b % 20) if b < 20 else plt.get_cmap("tab20b")(b % 20)


def reduction_tree(plt, out, block):
    n = 16
    fig = plt.figure(figsize=(13, 8.2))
    gs = fig.add_gridspec(2, 2, height_ratios=[1.1, 1])
    for col, (name, scheme) in enumerate([("interleaved addressing (stride doubles; thread t works on 2·s·t)", "inter"),
                                          ("sequential addressing (stride halves; thread t works on t)", "seq")]):
        ax = fig.add_subplot(gs[0, col])
        levels = []
        s = 1 if scheme == "inter" else n // 2
        while (s < n) if scheme == "inter" else (s >= 1):
            pairs = []
            for t in range(n):
                if scheme == "inter":
                    i = 2 * s * t
                    if i + s < n:
                        pairs.append((i, i + s))
                elif t < s:
                    pairs.append((t, t + s))
            levels.append((s, pairs))
            s = s * 2 if scheme == "inter" else s // 2
        for lv, (s, pairs) in enumerate(levels + [(0, [])]):
            y = -lv
            active = {a for a, _ in pairs}
            for i in range(n):
                ax.add_patch(plt.Rectangle((i - 0.4, y - 0.3), 0.8, 0.6, color=bank_colour(plt, i % BANKS),
                                           alpha=1.0 if (lv == 0 or i in active or (lv == len(levels) and i == 0)) else 0.25))
                ax.text(i, y, str(i), ha="center", va="center", fontsize=7)
            for a, b in pairs:
                ax.annotate("", xy=(a, y - 1 + 0.3), xytext=(b, y - 0.3),
                            arrowprops=dict(arrowstyle="->", lw=0.8, color="black"))
                ax.plot([a, a], [y - 0.3, y - 1 + 0.3], lw=0.8, color="black")
            if lv < len(levels):
                ax.text(n - 0.2, y - 0.5, "stride %d" % s, fontsize=8, va="center")
        ax.set_xlim(-1, n + 2.5)
        ax.set_ylim(-len(levels) - 0.6, 0.6)
        ax.axis("off")
        ax.set_title(name, fontsize=10)
    # One warp's accesses at each level of a `block`-thread block: words per bank.
    for col, scheme in enumerate(["inter", "seq"]):
        ax = fig.add_subplot(gs[1, col])
        strides = []
        s = 1 if scheme == "inter" else block // 2
        while (s < block) if scheme == "inter" else (s >= 1):
            strides.append(s)
            s = s * 2 if scheme == "inter" else s // 2
        rows = []
        for s in strides:
            words = {}
            for lane in range(WARP):
                i = 2 * s * lane if scheme == "inter" else lane
                if (scheme == "inter" and i + s < block) or (scheme == "seq" and lane < s):
                    words.setdefault(i % BANKS, set()).add(i)
            rows.append([len(words.get(b, ())) for b in range(BANKS)])
        for r, (s, row) in enumerate(zip(strides, rows)):
            for b, k in enumerate(row):
                if k:
                    ax.add_patch(plt.Rectangle((b, r), 1, 1, color=bank_colour(plt, b), alpha=min(1.0, 0.25 + 0.15 * k)))
                    ax.text(b + 0.5, r + 0.5, str(k), ha="center", va="center", fontsize=6)
            worst = max(row) if any(row) else 0
            ax.text(BANKS + 0.5, r + 0.5, "%d-way" % worst if worst > 1 else "no conflict", va="center", fontsize=8)
        ax.set_xlim(0, BANKS + 7)
        ax.set_ylim(len(strides), 0)
        ax.set_yticks([r + 0.5 for r in range(len(strides))])
        ax.set_yticklabels(["stride %d" % s for s in strides], fontsize=7)
        ax.set_xticks([b + 0.5 for b in range(0, BANKS, 4)])
        ax.set_xticklabels([str(b) for b in range(0, BANKS, 4)], fontsize=7)
        ax.set_xlabel("bank (word index mod 32); number = words of that bank warp 0 touches (its first operand)", fontsize=8)
        ax.set_title("warp 0 of a %d-thread block, shared-memory banks" % block, fontsize=9)
        for sp in ("top", "right"):
            ax.spines[sp].set_visible(False)
    fig.suptitle("Reduction tree: interleaved vs sequential addressing (colour = shared-memory bank)", fontsize=12)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def blelloch(plt, out):
    a = [3, 1, 7, 0, 4, 1, 6, 3]
    n = len(a)
    states, notes, arrows = [list(a)], ["input"], [[]]
    x = list(a)
    d = 1
    while d < n:
        ar = []
        for i in range(2 * d - 1, n, 2 * d):
            x[i] += x[i - d]
            ar.append((i - d, i, "+"))
        states.append(list(x)); notes.append("up-sweep, stride %d" % d); arrows.append(ar)
        d *= 2
    x[n - 1] = 0
    states.append(list(x)); notes.append("clear the root"); arrows.append([])
    d = n // 2
    while d >= 1:
        ar = []
        for i in range(2 * d - 1, n, 2 * d):
            t = x[i - d]
            x[i - d] = x[i]
            x[i] += t
            ar.append((i, i - d, "swap"))
        states.append(list(x)); notes.append("down-sweep, stride %d" % d); arrows.append(ar)
        d //= 2
    fig, ax = plt.subplots(figsize=(9, 0.75 * len(states) + 1))
    for r, (st, note, ar) in enumerate(zip(states, notes, arrows)):
        y = -r * 1.3
        changed = {j for p in ar for j in p[:2]}
        phase = "down" if note.startswith("down") else ("up" if note.startswith("up") else "other")
        for i, v in enumerate(st):
            c = "#9ecae1" if phase == "up" and i in changed else "#fdae6b" if phase == "down" and i in changed else "#eeeeee"
            ax.add_patch(plt.Rectangle((i - 0.42, y - 0.35), 0.84, 0.7, color=c))
            ax.text(i, y, str(v), ha="center", va="center", fontsize=10)
        for src, dst, kind in ar:
            ax.annotate("", xy=(dst, y + 0.35), xytext=(src, y + 1.3 - 0.35),
                        arrowprops=dict(arrowstyle="->", lw=0.9, color="#3182bd" if kind == "+" else "#e6550d"))
            if kind == "swap":
                ax.annotate("", xy=(src, y + 0.35), xytext=(src, y + 1.3 - 0.35),
                            arrowprops=dict(arrowstyle="->", lw=0.9, color="#e6550d"))
        ax.text(n + 0.1, y, note, va="center", fontsize=9)
    ax.text(n + 0.1, -len(states) * 1.3 + 0.5, "result: exclusive scan of the input", fontsize=9, style="italic")
    ax.set_xlim(-0.7, n + 3.5)
    ax.set_ylim(-len(states) * 1.3 + 0.3, 0.8)
    ax.axis("off")
    ax.set_title("Blelloch scan: up-sweep (blue: x[i] += x[i - stride]) and down-sweep\n"
                 "(orange: left child gets the parent's value, right child parent + old left)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def lookback(plt, out):
    from matplotlib.colors import ListedColormap
    tiles, steps = 10, 18
    # A model, not a measurement: tile i's block starts at start[i], has its aggregate 3 steps later;
    # its look-back then reads predecessors one step each, waiting on INVALID, adding AGGREGATE and
    # stopping at INCLUSIVE; it publishes INCLUSIVE the step after.
    start = [0, 1, 1, 2, 8, 3, 4, 4, 9, 6]
    agg_t, inc_t = [None] * tiles, [None] * tiles
    status = [[0] * steps for _ in range(tiles)]  # 0 INVALID, 1 AGGREGATE, 2 INCLUSIVE
    walks = {}
    for t in range(steps):
        for i in range(tiles):
            if agg_t[i] is None and t >= start[i] + 3:
                agg_t[i] = t
                if i == 0:
                    inc_t[i] = t
        for i in range(1, tiles):
            if agg_t[i] is not None and inc_t[i] is None and agg_t[i] < t:
                w = walks.setdefault(i, {"at": i - 1, "path": []})
                j = w["at"]
                if inc_t[j] is not None and inc_t[j] < t:
                    w["path"].append((t, j, "I")); inc_t[i] = t + 1
                elif agg_t[j] is not None and agg_t[j] < t:
                    w["path"].append((t, j, "A")); w["at"] = j - 1
                else:
                    w["path"].append((t, j, "wait"))
        for i in range(tiles):
            status[i][t] = 2 if inc_t[i] is not None and inc_t[i] <= t else 1 if agg_t[i] is not None and agg_t[i] <= t else 0
    fig, ax = plt.subplots(figsize=(11, 4.8))
    cmap = ListedColormap(["#d9d9d9", "#fdae6b", "#74c476"])
    ax.imshow(status, aspect="auto", cmap=cmap, vmin=0, vmax=2, origin="upper", extent=(-0.5, steps - 0.5, tiles - 0.5, -0.5))
    focus = 7
    for t, j, kind in walks.get(focus, {"path": []})["path"]:
        ax.plot(t, j, marker="o" if kind != "wait" else "x", color="black", ms=5)
    pts = walks.get(focus, {"path": []})["path"]
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color="black", lw=0.8)
        ax.annotate("tile %d's look-back: x = waits on INVALID,\no = adds an AGGREGATE or stops at INCLUSIVE" % focus,
                    xy=(pts[-1][0], pts[-1][1]), xytext=(pts[-1][0] + 2, pts[-1][1] + 2.5), fontsize=8,
                    arrowprops=dict(arrowstyle="->", lw=0.7))
    ax.set_xlabel("time (steps of a model, not a measurement)")
    ax.set_ylabel("tile (order taken from the tile counter)")
    ax.set_yticks(range(tiles))
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(color="#d9d9d9", label="INVALID: nothing published"),
                       Patch(color="#fdae6b", label="AGGREGATE: the tile's own sum"),
                       Patch(color="#74c476", label="INCLUSIVE: the sum of all tiles up to it")],
              loc="lower left", fontsize=8, framealpha=0.9)
    ax.set_title("Decoupled look-back: each tile's status flag over time", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def stage8_roles(plt, out, p):
    consumers = p["block"] // WARP
    fig, ax = plt.subplots(figsize=(11, 6.2))
    ax.set_xlim(0, 11); ax.set_ylim(0, 7); ax.axis("off")
    def box(x, y, w, h, text, c, size=8.5):
        ax.add_patch(plt.Rectangle((x, y), w, h, color=c, ec="black", lw=0.8))
        ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=size)
    box(0.3, 5.4, 2.4, 1.0, "producer warp\nlane 0: cp.async.bulk\n(TMA) of a whole tile", "#c6dbef")
    box(0.3, 3.0, 2.4, 1.0, "reduce warp\nsums the tile,\npublishes AGGREGATE", "#fdd0a2")
    box(0.3, 0.6, 2.4, 1.0, "look-back warp\nfinds the prefix,\npublishes INCLUSIVE", "#c7e9c0")
    ring_x = 3.5
    pitch = min(1.35, 4.5 / p["stages"])  # the ring fits between the role warps and the consumers
    tile_w = pitch - 0.12
    tile_kib = p["block"] * p["vectors"] * 16 // 1024
    for s in range(p["stages"]):
        box(ring_x + s * pitch, 3.0, tile_w, 1.0, "stage %d\n%d KiB\ntile" % (s, tile_kib), "#f0f0f0", 8 if tile_w < 1 else 8.5)
    ax.text(ring_x + p["stages"] * pitch / 2, 4.25, "ring of %d shared-memory stages (mbarriers per stage:\nfull, sums_ready, aggregate_ready, prefix_ready, empty)" % p["stages"],
            ha="center", fontsize=8)
    for w in range(consumers):
        box(8.9, 0.4 + w * 0.78, 1.8, 0.62, "consumer warp %d" % w, "#dadaeb")
    ax.text(9.8, 0.4 + consumers * 0.78 + 0.1, "%d consumer warps\n(%d vectors of 16 B per thread)" % (consumers, p["vectors"]), ha="center", fontsize=8)
    def arrow(x0, y0, x1, y1, text, c="black"):
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0), arrowprops=dict(arrowstyle="->", lw=1.0, color=c))
        ax.text((x0 + x1) / 2, (y0 + y1) / 2 + 0.12, text, fontsize=7.5, ha="center", color=c)
    arrow(2.7, 5.9, ring_x + tile_w / 2, 4.05, "tile bytes -> full[s]", "#3182bd")
    arrow(ring_x + tile_w / 2, 3.0, 2.7, 3.5, "full[s]", "#3182bd")
    arrow(2.7, 3.2, 2.7 - 0.0, 1.65, "aggregate_ready[s]", "#e6550d")
    arrow(ring_x + pitch + tile_w / 2, 3.0, 2.7, 1.1, "full[s]", "#3182bd")
    arrow(ring_x + (p["stages"] - 1) * pitch + tile_w, 3.5, 8.9, 3.5, "full[s]:\nscan it", "#3182bd")
    arrow(2.7, 0.9, 8.9, 0.9, "prefix_ready[s]: the tile's exclusive prefix", "#31a354")
    arrow(8.9, 2.3, ring_x + pitch + tile_w / 2, 2.95, "empty[s]", "#636363")
    arrow(ring_x + 0.2, 2.95, 1.5, 5.35, "", "#636363")
    ax.text(2.4, 4.6, "empty[s]: stage free again", fontsize=7.5, color="#636363")
    ax.set_title("Scan stage 8 on floats (%dx%d%s, block %d + %d role threads = %d): warp roles around the ring"
                 % (p["vectors"], p["stages"], "-early" if p["early"] else "", p["block"], p["role_threads"],
                    p["block"] + p["role_threads"]), fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", default="docs/figures")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    a = ap.parse_args()
    p = stage8_params(a.root)
    plt, _ = require_plotting("plot_concepts.py")
    os.makedirs(a.out_dir, exist_ok=True)
    reduction_tree(plt, os.path.join(a.out_dir, "reduction_tree_banks.png"), block=256)
    blelloch(plt, os.path.join(a.out_dir, "blelloch_sweeps.png"))
    lookback(plt, os.path.join(a.out_dir, "lookback_flags.png"))
    stage8_roles(plt, os.path.join(a.out_dir, "scan_stage8_roles.png"), p)
    print("plot_concepts.py: 4 figures in %s (stage 8: %s)" % (a.out_dir, p))
    return 0


if __name__ == "__main__":
    sys.exit(main())
