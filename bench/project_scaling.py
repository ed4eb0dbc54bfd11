#!/usr/bin/python3
"""On-paper strong and weak scaling of fvstar to 8, 64 and 200 H200s (issue 12).

Reads the halo sizes that bench/measure_halos.sh measured with fvstar's own
partitioner (CSV per block; default bench/results/data/2026-11-26-s10/halos/,
the face-only halos; bench/results/data/2026-11-25-scaling/ the earlier
ones), applies the model of bench/results/2026-11-25-scaling-projection.md
(with the face-only exchanges of 2026-11-26-scaling-projection.md), prints
the tables (Markdown) and writes the plot.

    /usr/bin/python3 bench/project_scaling.py [DATA_DIR] [--png OUT.png] [--json OUT.json]

Standard library and matplotlib only (Debian's python3-matplotlib).
Every constant below is labelled MEASURED (with its file) or ASSUMED.
"""
import csv
import glob
import json
import os
import sys

# ---------------------------------------------------------------- inputs
# MEASURED, bench/results/2026-11-22-gpu-stage-h200.md sections 1 and 4:
# ns per cell per RK stage, double, StarPU, one H200: M6 medium 999,786
# cells 0.831; M6 coarse refined twice 19,646,528 cells 0.725 (box 10.1M:
# 0.690). Fitted to t_stage(n) = A * n + T0 (two points, the M6 pair):
N_SMALL, NS_SMALL = 999786, 0.831
N_LARGE, NS_LARGE = 19646528, 0.725
T0_STAGE = (NS_SMALL - NS_LARGE) / (1.0 / N_SMALL - 1.0 / N_LARGE)  # ns per stage, fixed
A_STAGE = NS_LARGE - T0_STAGE / N_LARGE  # ns per cell per stage
RK_STAGES = 2  # SSP-RK2 (cases' default; the stage bench used it)
# src/kernels/stages.h: per RK stage, second order with the limiter not
# frozen, the Q halo (5 values) to every ghost, the gradient's (15) and the
# limiter's (5) to the ghosts that share a face with an owned cell (since
# 2026-11-26: about a third of them, measured per block as face_ghost*;
# halo CSVs without those columns, the 2026-11-25 ones, count every ghost
# for every exchange, the model of then). (values, face ghosts only)
EXPLICIT_EXCHANGES = [(5, False), (15, True), (5, True)]
# the implicit update's dq halo after each sweep: 5 values, face ghosts
DQ_EXCHANGE = (5, True)
# Tasks per RK stage of one block: "about 20 tasks per iteration" (same file,
# section 4) over 2 stages -> per-task fixed cost (ASSUMED: T0 spread evenly).
TASKS_PER_STAGE = 10.0
T_TASK = T0_STAGE / TASKS_PER_STAGE  # ns

# MEASURED, bench/results/2026-11-25-implicit-m6.md ("Cost of one implicit
# iteration and of one sweep"), one H100, M6 medium 978,993 cells: a
# point-implicit iteration with 60 sweep pairs (120 sweeps) 68.8 ms; one
# sweep (stored single) 0.54 ms = 0.55 ns/cell; explicit RK stage 1.00 ms.
IMP_N = 978993
IMP_ITER_MS = 68.8
IMP_SWEEP_MS = 0.54
IMP_STAGE_H100_MS = 1.00
SWEEPS = 120
# ASSUMED: a sweep is 5-8 colour-group tasks per block (same file); 6 tasks
# at the per-task fixed cost T_TASK; the rest scales with the cells.
SWEEP_TASKS = 6
# ASSUMED: the H200 runs a sweep faster than the H100 by the ratio measured
# for the explicit stage on the M6 medium mesh (0.831 ns H200 / 1.03 ns H100).
H200_OVER_H100 = 0.831 / 1.03

# ASSUMED interconnect (vendor figures, not measured here)
G = 8  # GPUs per node (H200 NVL / HGX node)
BW_NVLINK = 450e9  # B/s per direction per GPU
BW_IB_NODE = 50e9  # B/s per direction per node (one NDR 400 Gb/s port per node, shared by 8 GPUs)
BW_HOST = 25e9  # B/s, per GPU, host-staged halo (D2H + shared memory + H2D over PCIe 5): one rank per GPU without CUDA-aware transport
LAT_INTRA = 5e-6  # s per message within a node
LAT_INTER = 10e-6  # s per message across nodes
BYTES = 8  # double
LAT_SERIAL = True  # ASSUMED (the brief's form): one latency per neighbour, paid one after the other
EXCH_FIXED = 0.0  # s per halo exchange of a block with neighbours (0: the model above; calibrated below)

# MEASURED, bench/results/2026-11-26-gpu-scaling-2h200.md (2 H200s, NVLink,
# one process, face-only halos): (cells, s/iteration on 1 GPU, on 2 GPUs)
MEAS_2GPU = [(10368000, 14.426e-3, 8.202e-3), (41154000, 56.249e-3, 29.549e-3)]

GPUS = [8, 64, 200]
DATE = "2026-11-26, face-only halos"


# ------------------------------------------------------------- halo data
def load(data_dir):
    """{(mesh_label, cut, P): [block dict]}"""
    out = {}
    for path in sorted(glob.glob(os.path.join(data_dir, "halo-*.csv"))):
        label = os.path.basename(path)[5:-4]
        with open(path) as f:
            for r in csv.DictReader(f):
                key = (label, r["cut"], int(r["P"]))
                b = {k: int(r[k]) for k in ("cells", "owned", "ghost", "sent", "nbrs", "ghost_intra",
                                           "ghost_inter", "nbrs_intra", "nbrs_inter", "edge_cut")}
                b["imbalance"] = float(r["imbalance"])
                for k in ("", "_intra", "_inter"):  # older CSVs: every ghost in every exchange
                    b["face_ghost" + k] = int(r["face_ghost" + k]) if r.get("face_ghost" + k) else b["ghost" + k]
                out.setdefault(key, []).append(b)
    return out


def scaled(blocks, owned_new):
    """The measured blocks rescaled to owned_new cells per block (mean):
    cells x f, ghost cells x f^(2/3) (surface over volume), neighbours kept."""
    mean = sum(b["owned"] for b in blocks) / len(blocks)
    f = owned_new / mean
    s = f ** (2.0 / 3.0)
    out = []
    for b in blocks:
        c = dict(b)
        c["owned"] = b["owned"] * f
        for k in ("ghost", "sent", "ghost_intra", "ghost_inter", "face_ghost", "face_ghost_intra",
                  "face_ghost_inter"):
            c[k] = b[k] * s
        out.append(c)
    return out


# ------------------------------------------------------------------ model
def exchange_time(blocks, values, host_staged=False, face=False):
    """Seconds of one halo exchange of `values` reals per ghost cell (face:
    to the ghosts that share a face only): the slowest block; per block:
    latency per neighbour + its intra-node bytes over NVLink (or
    host-staged) + its node's inter-node bytes over the node's IB port
    (summed, not overlapped with each other)."""
    g = "face_ghost" if face else "ghost"
    node_inter = {}
    for i, b in enumerate(blocks):
        node_inter[i // G] = node_inter.get(i // G, 0) + max(b[g + "_inter"], 0)
    worst = 0.0
    for i, b in enumerate(blocks):
        if LAT_SERIAL:
            t = b["nbrs_intra"] * LAT_INTRA + b["nbrs_inter"] * LAT_INTER
        else:  # all messages in flight together: one latency per exchange
            t = LAT_INTER if b["nbrs_inter"] else (LAT_INTRA if b["nbrs_intra"] else 0.0)
        t += b[g + "_intra"] * values * BYTES / (BW_HOST if host_staged else BW_NVLINK)
        t += EXCH_FIXED if b["nbrs"] else 0.0
        t += node_inter[i // G] * values * BYTES / BW_IB_NODE
        worst = max(worst, t)
    return worst


def stage_compute(n):
    return (A_STAGE * n + T0_STAGE) * 1e-9


def sweep_compute(n, gpu="h200"):
    per_cell = (IMP_SWEEP_MS * 1e6 - SWEEP_TASKS * T_TASK) / IMP_N  # ns, H100
    if gpu == "h200":
        per_cell *= H200_OVER_H100
    return (per_cell * n + SWEEP_TASKS * T_TASK) * 1e-9


def imp_rest_compute(n, gpu="h200"):
    """Implicit iteration less its sweeps: residual (one explicit stage),
    diagonal, update; measured 68.8 ms - 120 x 0.54 ms = 4.0 ms on the H100,
    taken as 4.0 / 1.00 = 4 explicit stages' worth of work."""
    k = (IMP_ITER_MS - SWEEPS * IMP_SWEEP_MS) / IMP_STAGE_H100_MS
    return k * stage_compute(n) if gpu == "h200" else k * stage_compute(n) / H200_OVER_H100


def explicit_iter(blocks, overlap, host_staged=False):
    """Seconds per SSP-RK2 iteration on len(blocks) GPUs (1 block = 1 GPU)."""
    n = max(b["owned"] for b in blocks)
    comp = stage_compute(n)
    comm = 0.0 if len(blocks) == 1 else sum(exchange_time(blocks, v, host_staged, f) for v, f in EXPLICIT_EXCHANGES)
    per_stage = max(comp, comm) if overlap else comp + comm
    return RK_STAGES * per_stage


def implicit_iter(blocks, overlap, host_staged=False):
    """Seconds per point-implicit iteration (60 sweep pairs): the residual's
    3 exchanges once, then one dq exchange (5 values) after each sweep."""
    n = max(b["owned"] for b in blocks)
    rest, sw = imp_rest_compute(n), sweep_compute(n)
    if len(blocks) == 1:
        return rest + SWEEPS * sw
    res_comm = sum(exchange_time(blocks, v, host_staged, f) for v, f in EXPLICIT_EXCHANGES)
    dq = exchange_time(blocks, DQ_EXCHANGE[0], host_staged, DQ_EXCHANGE[1])
    if overlap:
        return max(rest, res_comm) + SWEEPS * max(sw, dq)
    return rest + res_comm + SWEEPS * (sw + dq)


def calibrate(bl2):
    """(EXCH_FIXED, BW_NVLINK) that make the model's halo cost per RK stage
    on 2 GPUs that of the two measured runs: measured excess per stage
    (t2 - t1 / 2) / stages = 3 x fixed + latency + intra-node bytes / bw,
    solved for fixed and bw from the two sizes (the measured 2-block
    partition of box120 rescaled to each)."""
    rows = []
    for cells, t1, t2 in MEAS_2GPU:
        b = bl2 if abs(cells - bl2[0]["cells"]) / cells < 0.05 else scaled(bl2, cells / 2)
        w = max(b, key=lambda x: stage_values(x, "intra"))
        lat = len(EXPLICIT_EXCHANGES) * w["nbrs_intra"] * LAT_INTRA
        rows.append(((t2 - t1 / 2) / RK_STAGES - lat, stage_values(w, "intra") * BYTES))
    (e1, v1), (e2, v2) = rows
    inv_bw = (e2 - e1) / (v2 - v1)
    fixed = (e1 - v1 * inv_bw) / len(EXPLICIT_EXCHANGES)
    return fixed, 1.0 / inv_bw


def single(n):
    return [{"owned": n, "ghost": 0, "sent": 0, "nbrs": 0, "ghost_intra": 0, "ghost_inter": 0,
             "nbrs_intra": 0, "nbrs_inter": 0, "face_ghost": 0, "face_ghost_intra": 0, "face_ghost_inter": 0}]


def stage_values(b, where):
    """Reals a block receives per RK stage from blocks `where` (intra or
    inter): every exchange of EXPLICIT_EXCHANGES."""
    return sum(v * b[("face_ghost_" if f else "ghost_") + where] for v, f in EXPLICIT_EXCHANGES)


# ------------------------------------------------------------ the tables
def halo_table(data):
    rows = []
    print("## Measured halos (fvstar's METIS cut; per block = per GPU)\n")
    print("| mesh | cells | cut | P | cells/block (mean) | ghost cells/block mean (max) | ghost/owned mean (max block) "
          "| inter-node ghosts, % of all | neighbours mean (max) | inter-node neighbours mean | edge cut | imbalance |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (label, cut, P), bl in sorted(data.items(), key=lambda kv: (kv[1][0]["cells"], kv[0][2], kv[0][1])):
        own = [b["owned"] for b in bl]
        gh = [b["ghost"] for b in bl]
        ratio = [b["ghost"] / b["owned"] for b in bl]
        gi = sum(b["ghost_inter"] for b in bl)
        nb = [b["nbrs"] for b in bl]
        ne = sum(b["nbrs_inter"] for b in bl) / len(bl)
        r = dict(mesh=label, cells=bl[0]["cells"], cut=cut, P=P, owned_mean=sum(own) / P, ghost_mean=sum(gh) / P,
                 ghost_max=max(gh), ratio_mean=sum(ratio) / P, ratio_max=max(ratio), inter_pct=100.0 * gi / sum(gh),
                 nbrs_mean=sum(nb) / P, nbrs_max=max(nb), nbrs_inter_mean=ne, edge_cut=bl[0]["edge_cut"],
                 imbalance=bl[0]["imbalance"])
        rows.append(r)
        print(f"| {label} | {r['cells']:,} | {cut} | {P} | {r['owned_mean']:,.0f} | {r['ghost_mean']:,.0f} ({r['ghost_max']:,}) "
              f"| {r['ratio_mean']:.3f} ({r['ratio_max']:.3f}) | {r['inter_pct']:.0f} | {r['nbrs_mean']:.1f} ({r['nbrs_max']}) "
              f"| {r['nbrs_inter_mean']:.1f} | {r['edge_cut']:,} | {r['imbalance']:.3f} |")
    print()
    return rows


def surface_check(data):
    """ghost ~ c * owned^(2/3): c per measured (mesh, P), flat cut."""
    print("## Surface-to-volume check: c = mean ghost / mean owned^(2/3)\n")
    print("| mesh | " + " | ".join(f"P={P}" for P in [2] + GPUS) + " |")
    print("|---|" + "---|" * (1 + len(GPUS)))
    for label in sorted({k[0] for k in data}):
        cs = []
        for P in [2] + GPUS:
            bl = data.get((label, "flat", P))
            if not bl:
                cs.append("-")
                continue
            o = sum(b["owned"] for b in bl) / P
            g = sum(b["ghost"] for b in bl) / P
            cs.append(f"{g / o ** (2 / 3):.2f}")
        print(f"| {label} | " + " | ".join(cs) + " |")
    print()


def fmt(e):
    return f"{100 * e:.0f}%"


def project(data):
    """Efficiency tables; returns the curves for the plot."""
    global LAT_SERIAL, BW_IB_NODE, SWEEP_TASKS, EXCH_FIXED, BW_NVLINK
    ref = "box120"  # the measured 10.4M tet box: the partition shape that the other sizes are scaled from
    curves = {}
    res = {"constants": {"A_stage_ns": A_STAGE, "T0_stage_us": T0_STAGE / 1e3, "T_task_us": T_TASK / 1e3,
                         "sweep_ns_per_cell_h200": (IMP_SWEEP_MS * 1e6 - SWEEP_TASKS * T_TASK) / IMP_N * H200_OVER_H100,
                         "BW_NVLINK": BW_NVLINK, "BW_IB_NODE": BW_IB_NODE, "LAT_INTRA": LAT_INTRA,
                         "LAT_INTER": LAT_INTER, "G": G}, "tables": []}

    def blocks_for(total, P, cut):
        """Blocks of a `total`-cell mesh on P GPUs: measured (box120 at 10.4M,
        box60 at 1.3M, M6) or the box120 partition at P rescaled."""
        bl = data.get((ref, cut, P)) or data.get((ref, "flat", P))
        if P == 1:
            return single(total)
        if abs(total - bl[0]["cells"]) / total < 0.05:
            return bl
        return scaled(bl, total / P)

    cut = "nodes"
    print(f"Model constants: explicit stage {A_STAGE:.3f} ns/cell + {T0_STAGE / 1e3:.0f} us per stage "
          f"(fit to the two measured M6 points); per-task fixed cost {T_TASK / 1e3:.1f} us; sweep "
          f"{res['constants']['sweep_ns_per_cell_h200']:.3f} ns/cell + {SWEEP_TASKS * T_TASK / 1e3:.0f} us (H200, assumed ratio).\n")
    for scheme, fn in (("explicit SSP-RK2", explicit_iter), ("point-implicit, 60 sweep pairs", implicit_iter)):
        for mode, host in (("NVLink within a node", False), ("host-staged within a node (one rank per GPU, no CUDA-aware path)", True)):
            print(f"## {scheme}: parallel efficiency, {mode}\n")
            print("Strong: E(P) = T(1 GPU) / (P T(P)); weak: E(P) = T(1 GPU, n) / T(P GPUs, n per GPU). "
                  "No overlap / perfect overlap of halos with compute.\n")
            print("| scaling | size | " + " | ".join(f"{P} GPUs" for P in GPUS) + " | ms/iteration at 200 (no overlap) |")
            print("|---|---|" + "---|" * (len(GPUS) + 1))
            for kind, size in (("strong", 10.368e6), ("strong", 100e6), ("weak", 2e6), ("weak", 10e6)):
                cells = []
                effs = {}
                for ov in (False, True):
                    for P in GPUS:
                        if kind == "strong":
                            t1 = fn(single(size), ov, host)
                            tp = fn(blocks_for(size, P, cut), ov, host)
                            e = t1 / (P * tp)
                        else:
                            t1 = fn(single(size), ov, host)
                            tp = fn(scaled(data[(ref, cut if P > G else "flat", P)], size), ov, host)
                            e = t1 / tp
                        effs[(ov, P)] = (e, tp)
                for P in GPUS:
                    cells.append(f"{fmt(effs[(False, P)][0])} / {fmt(effs[(True, P)][0])}")
                lab = f"{size / 1e6:.1f}M cells" if kind == "strong" else f"{size / 1e6:.0f}M cells per GPU"
                print(f"| {kind} | {lab} | " + " | ".join(cells) + f" | {1e3 * effs[(False, 200)][1]:.3f} |")
                res["tables"].append({"scheme": scheme, "link": mode, "scaling": kind, "size": size,
                                      "eff_no_overlap": {P: effs[(False, P)][0] for P in GPUS},
                                      "eff_overlap": {P: effs[(True, P)][0] for P in GPUS}})
                if not host:
                    curves[(scheme, kind, size)] = ([P for P in GPUS], [effs[(False, P)][0] for P in GPUS],
                                                    [effs[(True, P)][0] for P in GPUS])
            print()

    print("## Sensitivity: what changes the picture (no overlap / perfect overlap)\n")
    print("| variant | scheme | strong 100M: 64 / 200 GPUs | weak 2M per GPU: 64 / 200 | weak 10M per GPU: 64 / 200 |")
    print("|---|---|---|---|---|")
    base = (LAT_SERIAL, BW_IB_NODE, SWEEP_TASKS)
    for vname, lat_serial, ib, host, stasks in (
            ("as above (latency x neighbours, 50 GB/s IB per node, NVLink)", True, 50e9, False, 6),
            ("host-staged halos within a node (25 GB/s per GPU)", True, 50e9, True, 6),
            ("one latency per exchange (messages in flight together)", False, 50e9, False, 6),
            ("one NDR 400 Gb/s port per GPU (400 GB/s per node)", True, 400e9, False, 6),
            ("both: one latency per exchange and a port per GPU", False, 400e9, False, 6),
            ("no fixed cost per sweep (0.45 ns/cell, all of the measured 0.55 x 0.81)", True, 50e9, False, 0)):
        LAT_SERIAL, BW_IB_NODE, SWEEP_TASKS = lat_serial, ib, stasks
        for scheme, fn in (("explicit", explicit_iter), ("implicit", implicit_iter)):
            cells = []
            for kind, size in (("strong", 100e6), ("weak", 2e6), ("weak", 10e6)):
                txt = []
                for P in (64, 200):
                    e = []
                    for ov in (False, True):
                        t1 = fn(single(size), ov, host)
                        if kind == "strong":
                            e.append(t1 / (P * fn(blocks_for(size, P, cut), ov, host)))
                        else:
                            e.append(t1 / fn(scaled(data[(ref, cut, P)], size), ov, host))
                    txt.append(f"{fmt(e[0])}/{fmt(e[1])}")
                cells.append(" ; ".join(txt))
            print(f"| {vname} | {scheme} | " + " | ".join(cells) + " |")
            res["tables"].append({"variant": vname, "scheme": scheme, "cells": cells})
    LAT_SERIAL, BW_IB_NODE, SWEEP_TASKS = base
    print()

    # the split of one explicit iteration at 200 GPUs, 10.4M measured partition
    print("## Where the time goes: explicit, 10.4M box (measured partition, nodes cut), per RK stage, microseconds\n")
    print("| GPUs | cells/GPU (max) | compute | latency (max block) | NVLink bytes | IB bytes (busiest node) | comm total |")
    print("|---|---|---|---|---|---|---|")
    for P in GPUS:
        bl = blocks_for(10.368e6, P, cut)
        n = max(b["owned"] for b in bl)
        lat = max(b["nbrs_intra"] * LAT_INTRA + b["nbrs_inter"] * LAT_INTER for b in bl) * 3
        nvl = max(stage_values(b, "intra") for b in bl) * BYTES / BW_NVLINK
        node = {}
        for i, b in enumerate(bl):
            node[i // G] = node.get(i // G, 0) + stage_values(b, "inter")
        ib = max(node.values()) * BYTES / BW_IB_NODE
        comm = sum(exchange_time(bl, v, False, f) for v, f in EXPLICIT_EXCHANGES)
        print(f"| {P} | {n:,.0f} | {1e6 * stage_compute(n):.0f} | {1e6 * lat:.0f} | {1e6 * nvl:.0f} | {1e6 * ib:.0f} | {1e6 * comm:.0f} |")
    print()

    # against the measured two-GPU point (2026-11-22-gpu-stage-h200.md section 9)
    bl = data.get((ref, "flat", 2))
    if bl:
        for total, meas in ((bl[0]["cells"], "1.76-1.78x on the 10.1M box, 2026-11-22-gpu-stage-h200.md s.9; "
                             "1.76x on the 10.4M box, 2026-11-26-gpu-scaling-2h200.md"),
                            (41.154e6, "1.90x, 2026-11-26-gpu-scaling-2h200.md")):
            b2 = bl if total == bl[0]["cells"] else scaled(bl, total / 2)
            t1 = explicit_iter(single(total), False)
            for ov in (False, True):
                t2 = explicit_iter(b2, ov)
                print(f"Check, 2 GPUs over NVLink, {total:,.0f}-cell box, {'overlap' if ov else 'no overlap'}: "
                      f"model speed-up {t1 / t2:.2f}x (measured {meas})")
        print()

    # calibrated on the measured two-GPU runs
    bl2 = data.get((ref, "flat", 2))
    if bl2:
        fixed, bw = calibrate(bl2)
        base_cal = (EXCH_FIXED, BW_NVLINK)
        EXCH_FIXED, BW_NVLINK = fixed, bw
        print(f"## Explicit, calibrated on the measured 2-GPU runs: {1e6 * fixed:.0f} us per halo exchange "
              f"and {bw / 1e9:.0f} GB/s within a node\n")
        print("The two measured 2-H200 runs (10.4M and 41.2M cells, one process) fix the halo's cost per "
              "exchange and its bandwidth; the inter-node figures stay assumed. No overlap / perfect overlap.\n")
        ps = [P for P in [2, 4] + GPUS if (ref, "flat", P) in data]
        print("| scaling | size | " + " | ".join(f"{P} GPUs" for P in ps) + " |")
        print("|---|---|" + "---|" * len(ps))
        cal = {"exch_fixed_us": 1e6 * fixed, "bw_intra_GBs": bw / 1e9, "eff": {}}
        for kind, size in (("strong", 10.368e6), ("strong", 41.154e6), ("strong", 80e6), ("strong", 100e6),
                           ("weak", 2e6), ("weak", 10e6)):
            cells = []
            for P in ps:
                e = []
                for ov in (False, True):
                    t1 = explicit_iter(single(size), ov)
                    if kind == "strong":
                        e.append(t1 / (P * explicit_iter(blocks_for(size, P, cut) if P > 2 else scaled(bl2, size / 2), ov)))
                    else:
                        e.append(t1 / explicit_iter(scaled(data[(ref, cut if P > G else "flat", P)], size), ov))
                cells.append(f"{fmt(e[0])} / {fmt(e[1])}")
                cal["eff"][f"{kind} {size:.4g} P={P}"] = e
            if (kind, size) in (("strong", 100e6), ("weak", 10e6)):
                curves[("calibrated", kind, size)] = (ps, [cal["eff"][f"{kind} {size:.4g} P={P}"][0] for P in ps],
                                                      None)
            lab = f"{size / 1e6:.1f}M cells" if kind == "strong" else f"{size / 1e6:.0f}M cells per GPU"
            print(f"| {kind} | {lab} | " + " | ".join(cells) + " |")
        res["calibrated"] = cal
        EXCH_FIXED, BW_NVLINK = base_cal
        print()

    # the paper's configurations, our model
    print("## The FGCS paper's configurations in this model (explicit, NVLink + IB, H200 constants)\n")
    print("| paper's test | paper measured | model, no overlap / overlap |")
    print("|---|---|---|")
    for label, total, Pb, Pe, meas in (("strong, Mesh 6, 17.37M, 2 -> 200 GPUs", 17.37e6, 2, 200, "42% (abstract; Sec. 8.3: > 40%)"),
                                      ("strong, Mesh 7, 35.20M, 4 -> 160 GPUs", 35.2e6, 4, 160, "75% (Sec. 8.3)"),
                                      ("strong, Mesh 6, 17.37M, 64 -> 96 GPUs", 17.37e6, 64, 96, "82.7% (Table 8)"),
                                      ("strong, Mesh 8, 102.59M, 64 -> 160 GPUs", 102.59e6, 64, 160, "105.9% (Table 8)")):
        out = []
        for ov in (False, True):
            def t(P):
                near = min((k[2] for k in data if k[0] == ref and k[1] == "flat"), key=lambda q: abs(q - P))
                if P == 1:
                    return explicit_iter(single(total), ov)
                bl = data.get((ref, cut, P)) or data.get((ref, "flat", P)) or data[(ref, "flat", near)]
                bl = scaled(bl, total / P) if len(bl) == P else scaled_to(bl, total, P)
                return explicit_iter(bl, ov)
            out.append(fmt(Pb * t(Pb) / (Pe * t(Pe))))
        print(f"| {label} | {meas} | {out[0]} / {out[1]} |")
    out = []
    for ov in (False, True):
        tb = explicit_iter(scaled(data[(ref, "flat", 2)], 0.5e6), ov)
        te = explicit_iter(scaled(data[(ref, cut, 200)], 0.5e6), ov)
        out.append(fmt(tb / te))
    print(f"| weak, ~0.5M cells per GPU, 2 -> 200 GPUs | 82.4% (abstract), 'almost 85%' (Sec. 8.4) | {out[0]} / {out[1]} |")
    print()
    return curves, res


def scaled_to(bl, total, P):
    """A measured partition at P' != P, used for P blocks: its blocks repeated
    or cut to P, rescaled to total / P cells (the neighbour counts of P')."""
    reps = [bl[i % len(bl)] for i in range(P)]
    return scaled(reps, total / P)


def plot(curves, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    styles = {("strong", 10.368e6): ("C0", "strong, 10.4M"), ("strong", 100e6): ("C1", "strong, 100M"),
              ("weak", 2e6): ("C2", "weak, 2M/GPU"), ("weak", 10e6): ("C3", "weak, 10M/GPU")}
    for ax, scheme in zip(axes, ("explicit SSP-RK2", "point-implicit, 60 sweep pairs")):
        for (s, kind, size), (P, eno, eov) in curves.items():
            if s == "calibrated" and scheme.startswith("explicit"):
                col, lab = styles[(kind, size)]
                ax.plot(P, eno, "s:", color=col, label=f"  {lab}, calibrated on the 2-GPU runs (no overlap)")
            if s != scheme:
                continue
            col, lab = styles[(kind, size)]
            ax.plot(P, eno, "o-", color=col, label=f"fvstar projected, {lab} (no overlap)")
            ax.plot(P, eov, "o--", color=col, alpha=0.5, label=f"  same, perfect overlap")
        # the paper's measured points (V100, EDR IB, 4 GPUs per node)
        ax.plot([200], [0.42], "ks", ms=8, label="FGCS measured: strong, 17.37M, 2->200 GPUs (42%)")
        ax.plot([160], [0.75], "k^", ms=8, label="FGCS measured: strong, 35.2M, 4->160 (75%)")
        ax.plot([96, 160], [0.827, 0.658], "kv", ms=7, mfc="none", label="FGCS Table 8: 17.37M, base 64 GPUs")
        ax.plot([96, 160], [1.022, 1.059], "kD", ms=6, mfc="none", label="FGCS Table 8: 102.6M, base 64 GPUs")
        ax.plot([200], [0.824], "k*", ms=11, label="FGCS measured: weak, 0.5M/GPU, 2->200 (82.4%)")
        ax.set_xscale("log")
        ax.set_xticks([2, 8, 64, 200])
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_ylim(0, 1.15)
        ax.set_xlabel("GPUs (H200, 8 per node; the paper: V100, 4 per node)")
        ax.set_title(f"{scheme}: projected (model) vs FGCS measured")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("parallel efficiency")
    axes[0].legend(fontsize=6, loc="lower left")
    axes[1].legend(fontsize=6.5, loc="lower left")
    fig.suptitle("fvstar on paper: measured halos + measured stage times + assumed links (%s)" % DATE, fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=130)


def main():
    args = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    png = os.path.join(here, "results", "2026-11-26-scaling-projection.png")
    js = None
    data_dir = os.path.join(here, "results", "data", "2026-11-26-s10", "halos")
    while args:
        a = args.pop(0)
        if a == "--png":
            png = args.pop(0)
        elif a == "--json":
            js = args.pop(0)
        else:
            data_dir = a
    data = load(data_dir)
    rows = halo_table(data)
    surface_check(data)
    curves, res = project(data)
    res["halos"] = rows
    if js:
        with open(js, "w") as f:
            json.dump(res, f, indent=1, default=str)
    plot(curves, png)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
