#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""plot_sweep.py: kernel time against pixels from `convolab-cli bench --kernel-loop N` JSON reports.

  python3 scripts/plot_sweep.py docs/bench/h100-sweep-dense.json docs/bench/h100-sweep-gaussian.json \
      -o docs/size_sweep.png

For each strategy: the kernel event of a lone launch (what `bench` reports: a frame's upload, kernel,
download, one after another), the event of back-to-back launches, and the device time per launch over a
back-to-back loop; plus the empty-kernel launch floor and a device-to-device frame copy. Prints the
least-squares fit T = a + b * Mpix for each line. Needs matplotlib (the GPU machine has it).
"""
import json

from plot_reports import report_panels, save


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return my - b * mx, b


def main():
    a, fig, panels = report_panels("size_sweep.png", 6.5, 5)
    for ax, path in panels:
        doc = json.load(open(path))
        title = f"{doc['device']['name']}: {doc['config']['filter']} {doc['config']['k']}x{doc['config']['k']}"
        series = {}
        for r in doc["results"]:
            if r.get("status") != "ok":
                continue
            mp = r["width"] * r["height"] / 1e6
            s = r["strategy"]
            series.setdefault(f"{s}: lone launch (bench)", []).append((mp, r["kernel_ms_median"] * 1000))
            for lp in r.get("kernel_loop", []):
                if lp["status"] != "ok" or lp["variant"]:
                    continue
                series.setdefault(f"{s}: back-to-back, event", []).append((mp, lp["event_ms_median"] * 1000))
                series.setdefault(f"{s}: back-to-back, span/launch", []).append(
                    (mp, lp["span_ms_per_launch"] * 1000))
        for f in doc.get("launch_floor", []):
            w, h = (int(v) for v in f["size"].split("x"))
            mp = w * h / 1e6
            series.setdefault("empty kernel, frame grid", []).append((mp, f["empty_frame_grid"]["event_ms_median"] * 1000))
            series.setdefault("device copy of one frame", []).append((mp, f["copy_frame"]["event_ms_median"] * 1000))
        print(title)
        for name, pts in sorted(series.items()):
            pts.sort()
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            c, slope = fit(xs, ys)
            style = "--" if "lone" in name else (":" if "empty" in name or "copy" in name else "-")
            ax.plot(xs, ys, style, marker="o", ms=3, label=f"{name} ({c:.1f} + {slope:.1f}/Mpix us)")
            print(f"  {name:45s} T = {c:7.2f} us + {slope:7.2f} us/Mpix   points: " +
                  ", ".join(f"{x:.2f}:{y:.1f}" for x, y in pts))
        ax.set_xlabel("megapixels")
        ax.set_ylabel("kernel time (us)")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7)
    save(fig, a.output)


if __name__ == "__main__":
    main()
