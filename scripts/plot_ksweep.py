#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""plot_ksweep.py: kernel time against K from `convolab-cli bench --ksweep ... --json` reports.

  python3 scripts/plot_ksweep.py docs/bench/pocl-ksweep-720p.json -o docs/ksweep.png

One panel per report (its first size): every strategy's kernel median at each K it ran (log scale), auto as a
thick line with what it ran at each K, OpenCV's filter2D on the CPU per channel (ms a frame, the same frames) as
a dotted line, and the crossover (the K from which fft is the fastest row) as a vertical line. Prints the table
behind it: per K the fastest row, auto's choice and its gap. Needs matplotlib.  (apt-get install python3-matplotlib: not in install-deps, no test needs it)
"""
import json

from plot_reports import report_panels, save


def load(path):
    doc = json.load(open(path))
    sweep = doc.get("ksweep")
    if not sweep:
        raise SystemExit(f"{path}: no 'ksweep' object (run bench with --ksweep)")
    size = sweep["points"][0]["size"]
    return doc, sweep, size


def choice_gap(doc, p):
    """The row of the strategy auto ran / the fastest row - 1 (choice_over_fastest; computed for older reports)."""
    if "choice_over_fastest" in p:
        return p["choice_over_fastest"]
    picked = p["auto_active"].removeprefix("auto:").split("/")[0]
    for r in doc["results"]:
        if (r["status"] == "ok" and r["size"] == p["size"] and r["k"] == p["k"] and r["strategy"] == picked
                and p["fastest_kernel_ms"]):
            return r["kernel_ms_median"] / p["fastest_kernel_ms"] - 1
    return None


def main():
    a, fig, panels = report_panels("ksweep.png", 8.5, 5.6)
    for ax, path in panels:
        doc, sweep, size = load(path)
        series = {}
        for r in doc["results"]:
            if r["status"] != "ok" or r["size"] != size or r["strategy"] == "auto":
                continue
            series.setdefault(r["strategy"], []).append((r["k"], r["kernel_ms_median"]))
        for name, pts in sorted(series.items()):
            pts.sort()
            style = "-" if name in ("fft", "dynamic", "lowrank", "separable") else "--"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", ms=3, lw=1.2, label=name)
        points = [p for p in sweep["points"] if p["size"] == size]
        auto = [(p["k"], p["auto_kernel_ms"], p["auto_active"]) for p in points if p["auto_kernel_ms"]]
        if auto:
            ax.plot([p[0] for p in auto], [p[1] for p in auto], "-", color="black", lw=3, alpha=0.35,
                    label="auto (what it ran, above each point)")
            for k, ms, active in auto:
                ax.annotate(active.replace("auto:", "").split("/")[0], (k, ms), textcoords="offset points",
                            xytext=(0, 7), ha="center", fontsize=6.5)
        cv = [(p["k"], p["cv_cpu_per_channel_ms"]) for p in points if p["cv_cpu_per_channel_ms"]]
        if cv:
            ax.plot([p[0] for p in cv], [p[1] for p in cv], ":", color="black", marker="s", ms=4, lw=1.6,
                    label="OpenCV filter2D per channel, CPU (frame)")
        for c in sweep["crossover"]:
            if c["size"] == size and c["fft_fastest_from_k"]:
                ax.axvline(c["fft_fastest_from_k"], color="tab:red", lw=0.8, alpha=0.6)
                ax.annotate(f"fft fastest from K = {c['fft_fastest_from_k']}", (c["fft_fastest_from_k"], 0.96),
                            xycoords=("data", "axes fraction"), xytext=(-4, 0), textcoords="offset points", ha="right",
                            fontsize=8, color="tab:red")
        d = doc["device"]
        ax.set_title(f"{d['name']} ({d['platform']}): {doc['config']['filter']} K x K, {size}", fontsize=9)
        ax.set_xlabel("K")
        ax.set_ylabel("kernel time, median (ms; OpenCV: frame)")
        ax.set_yscale("log")
        ax.set_xticks(sweep["k"])
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, ncol=2, loc="lower right")
        print(f"{path}: {d['name']}, {size}")
        print(f"  {'K':>3} {'fastest':>22} {'ms':>10} {'auto ran':>26} {'ms':>10} {'gap':>8} {'its row':>8}")
        for p in points:
            gap = f"{100 * p['auto_over_fastest']:+.1f}%" if p["auto_over_fastest"] is not None else "-"
            choice = choice_gap(doc, p)
            choice = f"{100 * choice:+.1f}%" if choice is not None else "-"
            auto_ms = f"{p['auto_kernel_ms']:.3f}" if p["auto_kernel_ms"] else "-"
            fastest_ms = f"{p['fastest_kernel_ms']:.3f}" if p["fastest_kernel_ms"] else "-"
            print(f"  {p['k']:>3} {p['fastest']:>22} {fastest_ms:>10} {p['auto_active']:>26} {auto_ms:>10} {gap:>8}"
                  f" {choice:>8}")
    save(fig, a.output)


if __name__ == "__main__":
    main()
