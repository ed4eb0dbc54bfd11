#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plots the scaling.csv of bench/run_gpu_scaling.sh: strong scaling
(speed-up over one GPU at one size, one process and a rank per GPU, beside
ideal and the FGCS paper's 82 % parallel efficiency) and weak scaling
(efficiency at a near-constant size per GPU, time per iteration scaled to
the cells per GPU of the one-GPU run).

Usage: bench/plot_gpu_scaling.py SCALING.csv OUT.png --strong N:R
       --weak N:R,N:R,... [--title TEXT]
  --strong: the box size N refined R times of the strong runs
  --weak:   the sizes of the weak runs, on 1, 2, 4 ... GPUs in that order
Prints the tables it plots."""
import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows_of(path):
    out = []
    for r in csv.DictReader(open(path)):
        if r["rc"] != "0" or not r["s_per_iteration"]:
            continue
        r["gpus"], r["cells"] = int(r["gpus"]), int(r["cells"])
        r["spi"] = float(r["s_per_iteration"])
        r["size"] = "%s:%s" % (r["box_n"], r["refine"])
        out.append(r)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--strong", required=True)
    ap.add_argument("--weak", required=True)
    ap.add_argument("--title", default="fvstar, explicit SSP-RK2, double, GPU only")
    a = ap.parse_args()
    rows = rows_of(a.csv)
    strong = [r for r in rows if r["size"] == a.strong]
    base = [r for r in strong if r["gpus"] == 1 and r["mode"] == "proc"]
    if not base:
        sys.exit("plot_gpu_scaling: no 1-GPU run of size %s" % a.strong)
    t1 = base[0]["spi"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    print("strong, %d cells: mode, GPUs, ms/iteration, speed-up, efficiency" % base[0]["cells"])
    gmax = max(r["gpus"] for r in rows)
    for mode, style, label in (("proc", "o-", "one process, blocks pinned to GPUs"),
                               ("mpi", "s--", "one StarPU-MPI rank per GPU")):
        pts = sorted((r["gpus"], t1 / r["spi"]) for r in strong if r["mode"] == mode or r["gpus"] == 1)
        for g, s in pts:
            print("  %s, %d, %.3f, %.2f, %.0f %%" % (mode, g, 1e3 * t1 / s, s, 100 * s / g))
        ax1.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label)
    gs = list(range(1, gmax + 1))
    ax1.plot(gs, gs, ":", color="gray", label="ideal")
    ax1.plot(gs, [1 + 0.82 * (g - 1) for g in gs], "-.", color="tab:green",
             label="82 % efficiency (FGCS paper, 96 vs 64 GPUs)")
    ax1.set_xlabel("GPUs")
    ax1.set_ylabel("speed-up over one GPU")
    ax1.set_title("strong scaling, %.1fM cells" % (base[0]["cells"] / 1e6))
    ax1.set_xticks(gs)
    ax1.legend(fontsize=8)
    ax1.grid(alpha=0.3)

    sizes = a.weak.split(",")
    weak = []
    for g, size in zip((1, 2, 4, 8, 16), sizes):
        hit = [r for r in rows if r["size"] == size and r["gpus"] == g and r["mode"] == "proc"]
        if hit:
            weak.append(hit[0])
    if not weak or weak[0]["gpus"] != 1:
        sys.exit("plot_gpu_scaling: no 1-GPU weak run")
    w1 = weak[0]["spi"] / weak[0]["cells"]
    print("weak: GPUs, cells, cells per GPU, ms/iteration, efficiency")
    eff = []
    for r in weak:
        e = w1 / (r["spi"] / (r["cells"] / r["gpus"]))
        eff.append((r["gpus"], e))
        print("  %d, %d, %d, %.3f, %.0f %%" % (r["gpus"], r["cells"], r["cells"] // r["gpus"], 1e3 * r["spi"],
                                                100 * e))
    ax2.plot([p[0] for p in eff], [100 * p[1] for p in eff], "o-", label="one process")
    ax2.axhline(95, ls=":", color="gray", label="issue's target at 8 GPUs (95 %)")
    ax2.axhline(82, ls="-.", color="tab:green", label="FGCS paper (82 %)")
    ax2.set_ylim(0, 105)
    ax2.set_xticks(gs)
    ax2.set_xlabel("GPUs")
    ax2.set_ylabel("weak-scaling efficiency, %")
    ax2.set_title("weak scaling, about %.1fM cells per GPU" % (weak[0]["cells"] / 1e6))
    ax2.legend(fontsize=8)
    ax2.grid(alpha=0.3)
    fig.suptitle(a.title, fontsize=10)
    fig.tight_layout()
    fig.savefig(a.png, dpi=120)
    print("plot_gpu_scaling: wrote %s" % a.png)


if __name__ == "__main__":
    main()
