#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws docs/benchmarks.png: kernel time per strategy and frame size from `convolab-cli bench --json` files.

usage: scripts/plot_bench.py OUT.png LABEL=FILE.json [LABEL=FILE.json ...]   (needs python3-matplotlib)
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    out, runs = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    fig, axes = plt.subplots(1, len(runs), figsize=(6.5 * len(runs), 4.8), squeeze=False)
    for ax, (label, path) in zip(axes[0], runs):
        doc = json.load(open(path))
        ok = [r for r in doc["results"] if r["status"] == "ok"]
        sizes = list(dict.fromkeys(r["size"] for r in ok))
        strategies = list(dict.fromkeys(r["strategy"] for r in ok))
        width = 0.8 / len(sizes)
        for i, size in enumerate(sizes):
            times = {r["strategy"]: r["kernel_ms_median"] * 1000 for r in ok if r["size"] == size}
            xs = [s + (i - (len(sizes) - 1) / 2) * width for s in range(len(strategies))]
            ax.bar(xs, [times.get(s, 0) for s in strategies], width, label=size)
        for cv in doc.get("opencv", []):
            if cv["variant"] in ("cv_ocl_single_filter",) and cv["status"] == "ok":
                ax.axhline(cv["loop_mean_ms"] * 1000, linestyle="--", linewidth=1, color="grey")
        ax.set_yscale("log")
        ax.set_xticks(range(len(strategies)))
        ax.set_xticklabels(strategies, rotation=30)
        ax.set_ylabel("kernel time per frame (µs, log)")
        ax.set_title(f"{label}: {doc['device']['name']}", fontsize=9)
        ax.legend(fontsize=8)
        ax.grid(axis="y", which="both", alpha=0.3)
    fig.suptitle("ConvoLab: dense random per-channel 7×7, reflect101, RGB8 (dashed: OpenCV UMat, one filter)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
