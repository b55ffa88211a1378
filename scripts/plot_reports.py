# SPDX-License-Identifier: MIT
"""plot_reports.py: what the plot scripts of bench reports share (plot_sweep.py, plot_ksweep.py).

Their command line (`REPORT.json ... -o OUT.png`), a figure of one panel per report, and writing it. matplotlib
is imported here, only when a figure is made (no test needs it; apt-get install python3-matplotlib).
"""
import argparse


def report_panels(default_output, panel_width, panel_height):
    """Parses `reports... [-o OUTPUT]` and opens a figure of one panel per report, side by side.

    Returns (args, fig, [(axes, report path), ...]).
    """
    ap = argparse.ArgumentParser()
    ap.add_argument("reports", nargs="+")
    ap.add_argument("-o", "--output", default=default_output)
    args = ap.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(args.reports), figsize=(panel_width * len(args.reports), panel_height),
                             squeeze=False)
    return args, fig, list(zip(axes[0], args.reports))


def save(fig, output):
    """Lays the panels out, writes the PNG and says so."""
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    print("wrote", output)
