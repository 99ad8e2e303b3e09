#!/usr/bin/env python3
"""Plots of a primitives_bench CSV (op,impl,n,median_us,gbps,block_threads,items_per_thread).

    python3 primitives/bench/plot.py primitives/bench/results/<gpu-name>.csv [--out DIR]

For every op: <stem>_<op>_time.png (median time against n, log-log) and <stem>_<op>_gbps.png
(effective GB/s against n); and <stem>_scan_sweep.png (the blocked scans' block-size sweep:
time per block_threads x items_per_thread, one panel per size). PNGs go next to the CSV unless
--out names a folder.
"""
import argparse
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Reference implementations first, then the own variants, so colours stay stable across ops.
ORDER = ["own", "own_partition", "cub", "thrust", "thrust_copy_if", "memcpy", "blocked_brent_kung",
         "blocked_blelloch", "work_efficient", "naive", "scan_scatter", "lsd", "split_1bit",
         "own_host_count", "thrust_host_count"]
STYLE = {"own": dict(linewidth=2.5, color="C3"),
         "own_partition": dict(linewidth=2, color="C3", linestyle=":"),
         "own_chained": dict(linewidth=1.5, color="C1", linestyle="-."), "cub": dict(color="C0"),
         "thrust": dict(color="C2"), "memcpy": dict(color="black", linestyle="--")}


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["n"] = int(r["n"])
        r["median_us"] = float(r["median_us"])
        r["gbps"] = float(r["gbps"])
        r["block_threads"] = int(r.get("block_threads") or 0)
        r["items_per_thread"] = int(r.get("items_per_thread") or 0)
    return rows


def impl_key(impl):
    return (ORDER.index(impl) if impl in ORDER else len(ORDER), impl)


def plot_op(op, rows, stem, out_dir, title_suffix):
    series = defaultdict(list)
    for r in rows:
        series[r["impl"]].append((r["n"], r["median_us"], r["gbps"]))
    written = []
    for metric, index, ylabel, log_y in (("time", 1, "median time (us)", True),
                                         ("gbps", 2, "effective GB/s", False)):
        fig, ax = plt.subplots(figsize=(8, 5))
        others = 0  # implementations without a style: colours after those STYLE uses
        for impl in sorted(series, key=impl_key):
            points = sorted(series[impl])
            style = STYLE.get(impl)
            if style is None:
                style = dict(color=f"C{4 + others}")
                others += 1
            ax.plot([p[0] for p in points], [p[index] for p in points], marker=".",
                    label=impl, **style)
        ax.set_xscale("log", base=2)
        if log_y:
            ax.set_yscale("log")
        ax.set_xlabel("n (items)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{op}{title_suffix}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        path = os.path.join(out_dir, f"{stem}_{op}_{metric}.png")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def plot_sweep(rows, stem, out_dir, title_suffix):
    sizes = sorted({r["n"] for r in rows})
    fig, axes = plt.subplots(1, len(sizes), figsize=(6 * len(sizes), 4.5), squeeze=False)
    for ax, n in zip(axes[0], sizes):
        by_impl = defaultdict(dict)
        for r in rows:
            if r["n"] == n:
                by_impl[r["impl"]][(r["block_threads"], r["items_per_thread"])] = r["median_us"]
        for i, impl in enumerate(sorted(by_impl)):
            items = sorted({k[1] for k in by_impl[impl]})
            for j, ipt in enumerate(items):
                points = sorted((t, us) for (t, it), us in by_impl[impl].items() if it == ipt)
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                        linestyle="-" if i == 0 else "--", color=f"C{j}",
                        label=f"{impl}, {ipt} items/thread")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("block_threads")
        ax.set_ylabel("median time (us)")
        ax.set_title(f"blocked scan sweep, n = {n}{title_suffix}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    path = os.path.join(out_dir, f"{stem}_scan_sweep.png")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", help="folder for the PNGs (default: the CSV's folder)")
    args = parser.parse_args()
    rows = read_rows(args.csv)
    if not rows:
        sys.exit(f"{args.csv}: no rows")
    stem = os.path.splitext(os.path.basename(args.csv))[0]
    out_dir = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out_dir, exist_ok=True)
    title_suffix = f" ({stem})"
    by_op = defaultdict(list)
    for r in rows:
        by_op[r["op"]].append(r)
    written = []
    for op, op_rows in by_op.items():
        if op == "scan_sweep":
            written += plot_sweep(op_rows, stem, out_dir, title_suffix)
        else:
            written += plot_op(op, op_rows, stem, out_dir, title_suffix)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
