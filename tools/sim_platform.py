#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Platform folders for fvstar-sim (`fvstar sim run CASE --platform DIR`).

A platform folder is a StarPU sampling directory: bus/HOST.platform.v4.xml
(the SimGrid platform: hosts MAIN, CPU0.., CUDA0.., RAM and the links and
routes between RAM and the GPUs), bus/HOST.bandwidth and bus/HOST.latency
(the scheduler's transfer estimates, MB/s and us between memory nodes: RAM
is node 0, CUDA i node i + 1), codelets/45/ (the calibrated history
models) and fvstar.sim (`submit_us_per_task X`: the submitting thread's
time per task on the real machine, which fvstar-sim charges per task;
derive, merge and cluster carry it). `fvstar sim calibrate CASE --save
DIR` measures one on a real machine; this script derives others from it:

  sim_platform.py derive SRC DST --gpus N [--cpus N] [--h2d GBPS] [--d2h GBPS]
        [--d2d GBPS] [--host GBPS] [--latency US] [--d2d-latency US]
        [--peer-direct] [--memsize GB] [--name HOST]
      N GPUs (and CPUs) with the links SRC measured (RAM-CUDA0, CUDA0-RAM,
      CUDA0-CUDA1, the host link), or the values given: GB/s and
      microseconds. Routes are StarPU's flat ones: every transfer also
      crosses the shared host link (PCIe switch contention), except GPU to
      GPU with --peer-direct (NVLink). SRC's models are copied: simulated
      GPUs use GPU 0's (fvstar sim sets STARPU_PERF_MODEL_HOMOGENEOUS_CUDA=1),
      so a task must have run on GPU 0 with the same data sizes (the same
      case, blocks and balance) to be simulated.
  sim_platform.py fit DIR
      adds to every history model of DIR its fit mean = a size^b + c (the
      power law, c = 0, or the line, b = 1, whichever errs less on the
      measured means; through the origin when the sizes are too close),
      valid for any size up to 1000 times the largest measured (StarPU
      extrapolates nothing itself): fvstar-sim reads the models as non-linear
      regressions (codelets/common.h), so blocks of sizes never measured
      (another block count, more GPUs) are simulated. fvstar sim calibrate
      and derive run it; it prints each fit's largest error on the measured
      sizes.
  sim_platform.py check DIR
      the folder's hosts and links, as derive reads them, and a warning for
      each link far from the others of its kind (3x the latency and 20 us
      more, or under 0.6x the bandwidth): a bus measured while busy.
  sim_platform.py merge DST SRC [SRC ...]
      one platform folder from several calibrated ones (the ranks of a
      calibration under mpirun each save into SAVE/rank<r>: `fvstar sim
      calibrate` merges them into SAVE): SRC's models summed footprint by
      footprint (samples, sums, regression sums), every device of a kind
      folded into one combination (the simulated devices of a kind all
      read one: STARPU_PERF_MODEL_HOMOGENEOUS_CUDA, _CPU), named for the
      first SRC's host, whose bus/ DST takes. Then fit DST.
  sim_platform.py retime DIR --transfers JSON [JSON ...] [--stat median|mean|mean90]
        [--only h2d d2h d2d]
      the copy latencies a run saw, in place (DIR's RAM-CUDAi, CUDAi-RAM,
      CUDAi-CUDAj links and bus/HOST.latency): StarPU's bus benchmark
      times copies back to back on idle devices, while in a run a copy
      also waits for its driver thread to post it and to see it done
      between tasks (the M6 implicit on 2 H200s: 21-22 us median GPU to
      GPU against the benchmark's 11). JSON: bench/sim_transfers.py TRACE
      --platform DIR --json JSON of a traced run (`fvstar sim dry ...
      output.trace=T`: a copy's duration less its bytes over DIR's
      bandwidth); several are pooled, weighted by their transfers. --stat:
      the run's median, mean, or mean of the 90 % shortest (default: a
      stalled copy or two left out; a simulated iteration sums its copies).
  sim_platform.py fake-gpu-models SRC DST --speedup X
      for tests on machines without a GPU: SRC's CPU models copied with a
      CUDA entry per CPU entry, X times faster (nothing measured: never
      for a study); --alias NEW=OLD (repeated) makes model NEW (a GPU-only
      codelet, fv_fetch) a copy of OLD's.

  sim_platform.py cluster NODE DST --nodes N [--ranks-per-node K] [--nic GBPS]
        [--latency US] [--backbone GBPS] [--shm GBPS] [--mpi-overhead US]
        [--mpi-send-overhead US] [--mpi-recv-overhead US] [--shm-latency US]
        [--mpi-from JSON [JSON ...]] [--mpi-stat mean|median]
      a cluster folder: N nodes, each NODE's platform (GPUs, links, models),
      with one rank per node (or K, each with a whole NODE of its own: the
      ranks of one node share its NIC, not its PCIe links), joined by a
      network: each node's NIC (--nic GB/s each way, default 25: HDR 200
      Gb/s InfiniBand) to a switch (--backbone GB/s, default non-blocking:
      N x NIC), --latency US from NIC to NIC (default 1.5); ranks of one node
      talk through --shm GB/s (default 20) and --shm-latency US (0.5). --mpi-overhead US: each
      message costs the sender and the receiver US of simulated time
      (SMPI's smpi/ois and smpi/os before the sender posts it, smpi/or when
      the receiver finishes one of under 64 KiB; default 0: StarPU-MPI's
      and the MPI library's own work per message is not simulated
      otherwise; bench/sim_transfers.py measures it in a traced run of
      ranks, doc/simgrid.md); --mpi-send-overhead and --mpi-recv-overhead
      set one side apart. --mpi-from JSON [JSON ...] [--mpi-stat mean|median]:
      all three and the link's latency from traced runs of ranks
      (bench/sim_transfers.py --json: each message's way): the sender's wait
      from its data on the host to the post, over its two MPI_Isend (the
      envelope and the data); the receiver's from the message done to its
      next step; the message's time beyond the link's, half on each of its
      two messages. DST holds NODE's bus/
      and codelets/ (it is NODE's platform folder too), smpi/platform.xml
      (SimGrid: zone "cluster" with hosts node-0.., then one zone
      StarPU-MPI<r> per rank with NODE's hosts as StarPU-MPI<r>-MAIN, ..,
      the names StarPU-MPI under SMPI looks for) and smpi/hostfile. `fvstar
      sim run CASE --platform DST` runs smpirun with fvstar-smpi on it, one
      simulated process per rank (doc/simgrid.md).
"""
import argparse
import glob
import json
import os
import re
import shutil
import sys


def die(msg):
    print(f"sim_platform.py: {msg}", file=sys.stderr)
    sys.exit(1)


def host_of(folder):
    bus = os.path.join(folder, "bus")
    found = sorted(glob.glob(os.path.join(bus, "*.platform.v4.xml")))
    if not found:
        die(f"{bus}: no HOST.platform.v4.xml: not a platform folder (fvstar sim calibrate saves one)")
    if len(found) > 1 and not os.environ.get("STARPU_HOSTNAME"):
        die(f"{bus}: {len(found)} platforms; set STARPU_HOSTNAME to the one to read")
    if os.environ.get("STARPU_HOSTNAME"):
        return os.environ["STARPU_HOSTNAME"]
    return os.path.basename(found[0])[: -len(".platform.v4.xml")]


UNITS = {"Bps": 1.0, "kBps": 1e3, "KBps": 1e3, "MBps": 1e6, "GBps": 1e9, "TBps": 1e12}


def bytes_per_s(text, where):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([A-Za-z]*)\s*", text)
    if not m or (m.group(2) and m.group(2) not in UNITS):
        die(f"{where}: bandwidth '{text}' is not a number with a unit (Bps, MBps, GBps)")
    return float(m.group(1)) * UNITS.get(m.group(2) or "Bps")


def seconds(text, where):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*(s|ms|us|ns)?\s*", text)
    if not m:
        die(f"{where}: latency '{text}' is not a number with a unit (s, ms, us)")
    scale = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[m.group(2) or "s"]
    return float(m.group(1)) * scale


def read_platform(folder):
    """The hosts, links (id -> (B/s, s)) and CUDA memsizes of a folder."""
    host = host_of(folder)
    path = os.path.join(folder, "bus", f"{host}.platform.v4.xml")
    text = open(path).read()
    hosts = re.findall(r'<host\s+id="([^"]+)"', text)
    links = {}
    for m in re.finditer(r"<link\s+([^>]*)/?>", text):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        if "id" not in attrs:
            continue
        line = text.count("\n", 0, m.start()) + 1
        where = f"{path}:{line}"
        links[attrs["id"]] = (bytes_per_s(attrs.get("bandwidth", ""), where),
                              seconds(attrs.get("latency", "0"), where))
    memsize = {h: int(v) for h, v in re.findall(
        r'<host\s+id="(CUDA\d+)"[^>]*>\s*<prop\s+id="memsize"\s+value="(\d+)"', text)}
    return host, path, hosts, links, memsize


def measured(links, name, default, what):
    if name in links and links[name][0] > 0:
        return links[name]
    if default is None:
        die(f"no link {name} in the source platform: give {what}")
    return default


def write_matrix(path, n, value):
    with open(path, "w") as f:
        f.write("".join(f"# to {j}\t\t" for j in range(n)) + "\n")
        for i in range(n):
            f.write("\t".join("%e" % value(i, j) for j in range(n)) + "\n")


def copy_sim_file(dst, srcs):
    """DST/fvstar.sim (the submitting thread's time per task, which
    fvstar-sim charges per task: fvstar sim calibrate writes it) from the
    first SRC that has one (a calibration under mpirun: rank 0's folder,
    holding the ranks' mean); none: DST keeps its own or has none."""
    for src in srcs:
        p = os.path.join(src, "fvstar.sim")
        if os.path.isfile(p):
            if os.path.abspath(p) != os.path.abspath(os.path.join(dst, "fvstar.sim")):
                os.makedirs(dst, exist_ok=True)
                shutil.copyfile(p, os.path.join(dst, "fvstar.sim"))
            return


def cmd_derive(a):
    src = os.path.abspath(a.src)
    host, path, hosts, links, memsize = read_platform(src)
    ncpu = a.cpus if a.cpus is not None else sum(1 for h in hosts if re.fullmatch(r"CPU\d+", h))
    g = 1e9
    lat = a.latency * 1e-6 if a.latency is not None else None
    h2d = measured(links, "RAM-CUDA0", (a.h2d * g, 10e-6) if a.h2d else None, "--h2d")
    d2h = measured(links, "CUDA0-RAM", (a.d2h * g, 10e-6) if a.d2h else None, "--d2h")
    if a.h2d:
        h2d = (a.h2d * g, h2d[1])
    if a.d2h:
        d2h = (a.d2h * g, d2h[1])
    if lat is not None:
        h2d, d2h = (h2d[0], lat), (d2h[0], lat)
    d2d = measured(links, "CUDA0-CUDA1", (min(h2d[0], d2h[0]), max(h2d[1], d2h[1])), "--d2d")
    if a.d2d:
        d2d = (a.d2d * g, d2d[1])
    if a.d2d_latency is not None:
        d2d = (d2d[0], a.d2d_latency * 1e-6)
    hostbw = a.host * g if a.host else max(links.get("Host", (0, 0))[0], h2d[0], d2h[0])
    mem = int(a.memsize * 2**30) if a.memsize else memsize.get("CUDA0", 80 * 2**30)
    name = a.name or f"{host}-{a.gpus}gpu"
    dst = os.path.abspath(a.dst)
    if os.path.exists(os.path.join(dst, "bus")):
        die(f"{dst}: already a platform folder; give a new one")
    os.makedirs(os.path.join(dst, "bus"), exist_ok=True)
    x = []
    x.append("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM 'http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd'>\n")
    x.append(f' <platform version="4.1">\n <!-- derived by tools/sim_platform.py from {path} -->\n')
    x.append(' <config id="General">\n'
             '   <prop id="network/TCP-gamma" value="-1"></prop>\n'
             '   <prop id="network/latency-factor" value="1"></prop>\n'
             '   <prop id="network/bandwidth-factor" value="1"></prop>\n'
             '   <prop id="network/crosstraffic" value="0"></prop>\n'
             '   <prop id="network/weight-S" value="0.0"></prop>\n'
             ' </config>\n <AS  id="AS0"  routing="Full">\n   <host id="MAIN" speed="1f"/>\n')
    for i in range(ncpu):
        x.append(f'   <host id="CPU{i}" speed="2000000000f"/>\n')
    for i in range(a.gpus):
        x.append(f'   <host id="CUDA{i}" speed="2000000000f">\n'
                 f'     <prop id="memsize" value="{mem}"/>\n'
                 '     <prop id="memcpy_peer" value="1"/>\n   </host>\n')
    x.append('\n   <host id="RAM" speed="1f"/>\n\n')
    x.append(f'   <link id="Host" bandwidth="{hostbw:f}Bps" latency="0.000000s"/>\n\n')
    for i in range(a.gpus):
        x.append(f'   <link id="RAM-CUDA{i}" bandwidth="{h2d[0]:f}Bps" latency="{h2d[1]:f}s"/>\n')
        x.append(f'   <link id="CUDA{i}-RAM" bandwidth="{d2h[0]:f}Bps" latency="{d2h[1]:f}s"/>\n')
    for i in range(a.gpus):
        for j in range(a.gpus):
            if i != j:
                x.append(f'   <link id="CUDA{i}-CUDA{j}" bandwidth="{d2d[0]:f}Bps" latency="{d2d[1]:f}s"/>\n')
    peer = "" if a.peer_direct else '<link_ctn id="Host"/>'
    for i in range(a.gpus):
        x.append(f'   <route src="RAM" dst="CUDA{i}" symmetrical="NO"><link_ctn id="RAM-CUDA{i}"/>'
                 '<link_ctn id="Host"/></route>\n')
        x.append(f'   <route src="CUDA{i}" dst="RAM" symmetrical="NO"><link_ctn id="CUDA{i}-RAM"/>'
                 '<link_ctn id="Host"/></route>\n')
    for i in range(a.gpus):
        for j in range(a.gpus):
            if i != j:
                x.append(f'   <route src="CUDA{i}" dst="CUDA{j}" symmetrical="NO">'
                         f'<link_ctn id="CUDA{i}-CUDA{j}"/>{peer}</route>\n')
    x.append(" </AS>\n </platform>\n")
    bus = os.path.join(dst, "bus")
    open(os.path.join(bus, f"{name}.platform.v4.xml"), "w").write("".join(x))
    # the scheduler's view: MB/s and us between RAM (node 0) and CUDA i (node i + 1)
    n = 1 + a.gpus

    def bw(i, j):
        if i == j:
            return 0.0 if i == 0 else float("nan")
        if i == 0:
            return h2d[0] / 1e6
        if j == 0:
            return d2h[0] / 1e6
        return d2d[0] / 1e6

    def lat(i, j):
        if i == j:
            return 0.0 if i == 0 else float("nan")
        return (h2d[1] if i == 0 else d2h[1] if j == 0 else d2d[1]) * 1e6

    write_matrix(os.path.join(bus, f"{name}.bandwidth"), n, bw)
    write_matrix(os.path.join(bus, f"{name}.latency"), n, lat)
    with open(os.path.join(bus, f"{name}.config"), "w") as f:
        f.write(f"# Current configuration\n{ncpu} # Number of CPUs\n1 # Number of NUMA nodes\n"
                f"{a.gpus} # Number of CUDA devices\n0 # Number of OpenCL devices\n0 # Number of MIC devices\n"
                "0 # Number of MPI devices\n")
    copy_sim_file(dst, [src])
    models = os.path.join(src, "codelets")
    if os.path.isdir(models):
        shutil.copytree(models, os.path.join(dst, "codelets"), dirs_exist_ok=True)
        # StarPU names model files SYMBOL.HOST: the derived host reads them under its name
        for p in glob.glob(os.path.join(dst, "codelets", "*", f"*.{host}")):
            os.replace(p, p[: -len(host)] + name)
        for p in glob.glob(os.path.join(dst, "codelets", "45", "*")):
            fit_file(p)
    print(f"{dst}: host {name}, {ncpu} CPUs, {a.gpus} GPUs; RAM->GPU {h2d[0] / 1e9:.3f} GB/s "
          f"{h2d[1] * 1e6:.2f} us, GPU->RAM {d2h[0] / 1e9:.3f} GB/s {d2h[1] * 1e6:.2f} us, GPU->GPU "
          f"{d2d[0] / 1e9:.3f} GB/s {d2d[1] * 1e6:.2f} us ({'direct' if a.peer_direct else 'through the host link'}), "
          f"host link {hostbw / 1e9:.3f} GB/s")


ENTRY = re.compile(r"^([0-9a-f]{8})\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)\s*$")


def fit_entries(entries):
    """a, b, c of mean = a size^b + c over (size, mean, n) with n > 0: the
    power law (c = 0) or the line with an intercept (b = 1: a task's fixed
    cost, halo packs), whichever errs less on the measured means."""
    import math
    pts = [(sz, m, n) for sz, m, n in entries if n > 0 and sz > 0 and m > 0]
    if not pts:
        return None
    lo, hi = min(p[0] for p in pts), max(p[0] for p in pts)
    w = sum(n for *_, n in pts)
    cands = [(sum(n * m for _, m, n in pts) / sum(n * sz for sz, _, n in pts), 1.0, 0.0)]
    if hi > 1.05 * lo and len({p[0] for p in pts}) >= 2:
        mx = sum(n * math.log(sz) for sz, _, n in pts) / w
        my = sum(n * math.log(m) for _, m, n in pts) / w
        sxx = sum(n * (math.log(sz) - mx) ** 2 for sz, _, n in pts)
        sxy = sum(n * (math.log(sz) - mx) * (math.log(m) - my) for sz, m, n in pts)
        b = sxy / sxx if sxx > 0 else 1.0
        if 0.0 <= b <= 2.0:
            cands.append((math.exp(my - b * mx), b, 0.0))
        ax = sum(n * sz for sz, _, n in pts) / w
        ay = sum(n * m for _, m, n in pts) / w
        vxx = sum(n * (sz - ax) ** 2 for sz, _, n in pts)
        vxy = sum(n * (sz - ax) * (m - ay) for sz, m, n in pts)
        slope = vxy / vxx if vxx > 0 else 0.0
        if slope >= 0 and ay - slope * ax >= 0:
            cands.append((slope, 1.0, ay - slope * ax))

    def err(c):
        a, b, k = c
        return max(abs((a * sz ** b + k) / m - 1) for sz, m, _ in pts)

    a, b, c = min(cands, key=err)
    return a, b, c, lo, hi, w


def fit_file(path):
    """Writes each comb/implementation's fit into path; the worst relative
    error of the fit on the measured means."""
    lines = open(path).read().split("\n")
    worst = 0.0
    # each implementation: a regression line, the "# a b c" line, then its entries
    i = 0
    blocks = []
    while i < len(lines):
        if lines[i].startswith("# sumlnx"):
            reg = i + 1
            abc = reg + 2 if lines[reg + 1].startswith("# a") else None
            j = (abc or reg) + 1
            while j < len(lines) and not lines[j].startswith("# hash"):
                j += 1
            ents = []
            k = j + 1
            while k < len(lines) and ENTRY.match(lines[k]):
                f = ENTRY.match(lines[k]).groups()
                ents.append((float(f[1]), float(f[3]), int(f[7])))
                k += 1
            blocks.append((reg, abc, ents))
            i = k
        else:
            i += 1
    for reg, abc, ents in blocks:
        r = fit_entries(ents)
        if not r or abc is None:
            continue
        a, b, c, lo, hi, n = r
        f = lines[reg].split()
        f[6], f[7], f[8] = str(max(n, 1)), "1", str(int(hi * 1000) + 1)
        lines[reg] = "\t".join(f)
        lines[abc] = "%e\t%e\t%e" % (a, b, c)
        for sz, m, cnt in ents:
            if cnt > 0 and m > 0:
                worst = max(worst, abs((a * sz ** b + c) / m - 1))
    open(path, "w").write("\n".join(lines))
    return worst, len(blocks)


def cmd_fit(a):
    files = sorted(glob.glob(os.path.join(a.dir, "codelets", "45", "*")))
    if not files:
        die(f"{a.dir}: no models in codelets/45/")
    for p in files:
        worst, n = fit_file(p)
        if not a.quiet:
            print(f"{os.path.basename(p)}: {n} fits, largest error on the measured sizes {100 * worst:.1f}%")


class ModelError(Exception):
    pass


def read_model(path):
    """A StarPU history model file (version 45) as
    [(devices, [impl])], devices a tuple of (type, devid, ncores), impl a
    dict of reg (the 9 regression fields), abc, mr (the multiple
    regression line, kept as text) and entries [[hash, size, flops, mean,
    dev, sum, sum2, n]]."""
    try:
        lines = open(path).read().split("\n")
    except OSError as e:
        raise ModelError(f"{path}: {e.strerror}")
    vals = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip() and not ln.startswith("#")]
    pos = 0

    def take(what, nfields=None):
        nonlocal pos
        if pos >= len(vals):
            raise ModelError(f"{path}: ends before {what}")
        no, ln = vals[pos]
        pos += 1
        f = ln.split()
        if nfields is not None and len(f) != nfields:
            raise ModelError(f"{path}:{no}: {what}: {len(f)} fields, expected {nfields}")
        return no, f

    def num(what, cast=int):
        no, f = take(what, 1)
        try:
            return cast(f[0])
        except ValueError:
            raise ModelError(f"{path}:{no}: {what}: '{f[0]}' is not a number")

    if num("the version") != 45:
        raise ModelError(f"{path}: not a version 45 model (StarPU 1.3)")
    combs = []
    for _ in range(num("the number of combinations")):
        devs = tuple((num("a device type"), num("a device id"), num("a number of cores"))
                     for _ in range(num("the number of devices")))
        impls = []
        for _ in range(num("the number of implementations")):
            n = num("the number of entries")
            no, reg = take("the regression line", 9)
            _, abc = take("the a b c line", 3)
            _, mr = take("the multiple regression line")
            ents = []
            for _ in range(n):
                no, e = take("a history entry")
                if len(e) == 7:  # no flops column (older files)
                    e = e[:2] + ["nan"] + e[2:]
                if len(e) != 8:
                    raise ModelError(f"{path}:{no}: a history entry of {len(e)} fields, expected 8")
                try:
                    ents.append([e[0], int(e[1])] + [float(v) for v in e[2:7]] + [int(e[7])])
                except ValueError:
                    raise ModelError(f"{path}:{no}: a history entry that is not numbers")
            impls.append({"reg": [float(v) for v in reg[:6]] + [int(v) for v in reg[6:]],
                          "abc": [float(v) for v in abc], "mr": "\t".join(mr), "entries": ents})
        combs.append((devs, impls))
    return combs


def merge_models(models):
    """The combinations of several files as one: devices of one kind (type,
    cores) folded, the lowest id kept; each footprint's samples summed."""
    import math
    out = {}
    for combs in models:
        for devs, impls in combs:
            key = tuple(sorted((t, c) for t, _, c in devs))
            if key not in out:
                out[key] = [list(devs), []]
            else:
                out[key][0] = [(t, min(i, j), c) for (t, i, c), (_, j, _) in zip(out[key][0], devs)]
            have = out[key][1]
            for k, im in enumerate(impls):
                if k == len(have):
                    have.append({"reg": list(im["reg"]), "abc": list(im["abc"]), "mr": im["mr"],
                                 "entries": [list(e) for e in im["entries"]]})
                    continue
                h = have[k]
                r, s = h["reg"], im["reg"]
                r[0:4] = [x + y for x, y in zip(r[0:4], s[0:4])]
                r[6] += s[6]
                r[7], r[8] = (min(r[7], s[7]), max(r[8], s[8])) if r[6] - s[6] > 0 else (s[7], s[8])
                n = r[6]
                den = n * r[1] - r[0] ** 2
                if n > 1 and den > 0:
                    beta = (n * r[3] - r[0] * r[2]) / den
                    r[4], r[5] = math.exp((r[2] - beta * r[0]) / n), beta
                if any(math.isnan(v) for v in h["abc"]):
                    h["abc"] = list(im["abc"])
                byhash = {e[0]: e for e in h["entries"]}
                for e in im["entries"]:
                    m = byhash.get(e[0])
                    if m is None:
                        h["entries"].append(list(e))
                        byhash[e[0]] = h["entries"][-1]
                        continue
                    cnt = m[7] + e[7]
                    m[5] += e[5]
                    m[6] += e[6]
                    if cnt > 0 and m[7] > 0 and e[7] > 0:
                        m[3] = m[5] / cnt
                        m[4] = math.sqrt(max(0.0, m[6] / cnt - m[3] ** 2))
                    elif e[7] > 0:
                        m[3], m[4] = e[3], e[4]
                    m[7] = cnt
    return list(out.values())


def write_model(path, combs):
    """StarPU's own layout (perfmodel_history.c's dump_model_file)."""
    kinds = {0: "cpu", 1: "cuda", 2: "opencl", 3: "mic", 5: "mpi_ms"}

    def g(v):
        return "nan" if v != v else "%-15e" % v

    x = ["##################\n# Performance Model Version\n45\n\n####################\n# COMBs\n"
         f"# number of combinations\n{len(combs)}\n"]
    for c, (devs, impls) in enumerate(combs):
        x.append(f"####################\n# COMB_{c}\n# number of types devices\n{len(devs)}\n")
        for d, (t, i, n) in enumerate(devs):
            x.append(f"####################\n# DEV_{d}\n# device type (CPU - 0, CUDA - 1, OPENCL - 2, MIC - 3, "
                     f"MPI_MS - 5)\n{t}\n####################\n# DEV_{d}\n# device id \n{i}\n"
                     f"####################\n# DEV_{d}\n# number of cores \n{n}\n")
        x.append(f"##########\n# number of implementations\n{len(impls)}\n")
        t, i, n = devs[0]
        arch = f"{kinds.get(t, 'dev')}{i}"
        for k, im in enumerate(impls):
            r = im["reg"]
            x.append(f"#####\n# Model for {arch}_impl{k} (Comb{c})\n# number of entries\n{len(im['entries'])}\n"
                     "# sumlnx\tsumlnx2\t\tsumlny\t\tsumlnxlny\talpha\t\tbeta\t\tn\tminx\t\tmaxx\n"
                     + "\t".join(g(v) for v in r[:6]) + "\t%u\t%-15u\t%-15u\n" % tuple(r[6:9])
                     + "# a\t\tb\t\tc\n" + "\t".join(g(v) for v in im["abc"]) + "\n"
                     + ("# not multiple-regression-base\n" if im["mr"] == "0" else "# n\tintercept\n")
                     + im["mr"] + "\n# hash\t\tsize\t\tflops\t\tmean (us)\tdev (us)\tsum\t\tsum2\t\tn\n")
            for e in im["entries"]:
                x.append("%s\t%-15u\t%s\t%s\t%s\t%s\t%s\t%u\n" % (e[0], e[1], g(e[2]), g(e[3]), g(e[4]), g(e[5]),
                                                               g(e[6]), e[7]))
            x.append("\n")
    tmp = path + ".tmp"
    open(tmp, "w").write("".join(x))
    os.replace(tmp, path)


def cmd_merge(a):
    srcs = [os.path.abspath(s) for s in a.src]
    dst = os.path.abspath(a.dst)
    for s in srcs:
        if not os.path.isdir(s):
            die(f"{s}: no such platform folder")
    host = host_of(srcs[0])
    by_symbol = {}
    for s in srcs:
        h = host_of(s) if os.path.isdir(os.path.join(s, "bus")) else None
        for p in sorted(glob.glob(os.path.join(s, "codelets", "45", "*"))):
            name = os.path.basename(p)
            sym = name[: -len(h) - 1] if h and name.endswith("." + h) else name.rsplit(".", 1)[0]
            by_symbol.setdefault(sym, []).append(p)
    if not by_symbol:
        die(f"{', '.join(srcs)}: no models in codelets/45/")
    out = os.path.join(dst, "codelets", "45")
    os.makedirs(out, exist_ok=True)
    for sym, paths in sorted(by_symbol.items()):
        try:
            combs = merge_models([read_model(p) for p in paths])
        except ModelError as e:
            die(str(e))
        write_model(os.path.join(out, f"{sym}.{host}"), combs)
    if os.path.join(srcs[0], "bus") != os.path.join(dst, "bus"):
        shutil.rmtree(os.path.join(dst, "bus"), ignore_errors=True)
        shutil.copytree(os.path.join(srcs[0], "bus"), os.path.join(dst, "bus"))
    copy_sim_file(dst, srcs)
    print(f"{dst}: {len(by_symbol)} models of {len(srcs)} folders merged (host {host})")
    for w in bus_warnings(read_platform(dst)[3]):
        print(f"sim_platform.py: warning: {dst}/bus: {w} (measured while the bus was busy? the ranks of a "
              "calibration under mpirun measured it at once before fvstar's rank 0 measured it alone)",
              file=sys.stderr)
    cmd_fit(argparse.Namespace(dir=dst, quiet=a.quiet))


def bus_warnings(links):
    """Links of one kind (host to GPU, GPU to host, GPU to GPU) far from
    their siblings: a bus measured while something else used it (two ranks
    of one node measuring at once gave host to GPU 0 147 us where GPU 1 had
    16, and half the bandwidth of a calibration alone)."""
    kinds = {"host to GPU": r"RAM-CUDA\d+", "GPU to host": r"CUDA\d+-RAM", "GPU to GPU": r"CUDA\d+-CUDA\d+"}
    out = []
    for kind, pat in kinds.items():
        ls = {k: v for k, v in links.items() if re.fullmatch(pat, k) and v[0] > 0}
        if len(ls) < 2:
            continue
        lat = min(v[1] for v in ls.values())
        bw = max(v[0] for v in ls.values())
        for k, (b, l) in sorted(ls.items()):
            if l > 3 * lat and l - lat > 20e-6:
                out.append(f"{k}: {l * 1e6:.1f} us where another {kind} link has {lat * 1e6:.1f}")
            if b < 0.6 * bw:
                out.append(f"{k}: {b / 1e9:.1f} GB/s where another {kind} link has {bw / 1e9:.1f}")
    return out


def cmd_check(a):
    host, path, hosts, links, memsize = read_platform(a.dir)
    ncpu = sum(1 for h in hosts if re.fullmatch(r"CPU\d+", h))
    ngpu = sum(1 for h in hosts if re.fullmatch(r"CUDA\d+", h))
    print(f"{path}: host {host}, {ncpu} CPUs, {ngpu} GPUs")
    for k, (b, l) in sorted(links.items()):
        print(f"  link {k}: {b / 1e9:.3f} GB/s, {l * 1e6:.3f} us")
    for w in bus_warnings(links):
        print(f"  warning: {w} (measured while the bus was busy? calibrate again)")


def fake_comb(block, old_idx, new_idx, speedup):
    """A CPU comb's text as a CUDA comb, every time divided by speedup."""
    lines = block.split("\n")
    out = []
    want = None
    for ln in lines:
        if ln.startswith("# COMB_"):
            ln = f"# COMB_{new_idx}"
        elif ln.startswith("# device type"):
            want = "type"
        elif ln.startswith("# device id"):
            want = "id"
        elif ln.startswith("# number of cores"):
            want = "cores"
        elif want and ln.strip() and not ln.startswith("#"):
            ln = {"type": "1", "id": "0", "cores": "1"}[want]
            want = None
        m = re.match(r"# Model for cpu(\d+)_impl(\d+) \(Comb\d+\)", ln)
        if m:
            ln = f"# Model for cuda0_impl{m.group(2)} (Comb{new_idx})"
        f = ln.split()
        if len(f) == 8 and re.fullmatch(r"[0-9a-f]{8}", f[0]):
            mean, dev, s, s2 = (float(v) for v in f[3:7])
            f[3:7] = ["%e" % (mean / speedup), "%e" % (dev / speedup), "%e" % (s / speedup),
                      "%e" % (s2 / speedup ** 2)]
            ln = "\t".join(f)
        out.append(ln)
    return "\n".join(out)


def cmd_fake(a):
    src, dst = os.path.abspath(a.src), os.path.abspath(a.dst)
    if src != dst:
        shutil.copytree(src, dst, dirs_exist_ok=True)
    files = glob.glob(os.path.join(dst, "codelets", "45", "*"))
    if not files:
        die(f"{src}: no models in codelets/45/")
    for p in files:
        text = open(p).read()
        head, sep, rest = text.partition("# number of combinations\n")
        if not sep:
            continue
        n_line, _, body = rest.partition("\n")
        n = int(n_line.strip())
        parts = re.split(r"(?m)^(?=####################\n# COMB_\d+\n)", body)
        pre, combs = parts[0], parts[1:]
        if len(combs) != n:
            die(f"{p}: {n} combinations announced, {len(combs)} found")
        cpu = [c for c in combs if re.search(r"# device type[^\n]*\n0\n", c)]
        new = [fake_comb(c, i, n + k, a.speedup) for k, (i, c) in enumerate((combs.index(c), c) for c in cpu)]
        open(p, "w").write(head + sep + f"{n + len(new)}\n" + pre + "".join(combs) +
                           "".join(c if c.endswith("\n") else c + "\n" for c in new))
    for al in a.alias or []:
        new, _, old = al.partition("=")
        srcs = glob.glob(os.path.join(dst, "codelets", "45", f"{old}.*"))
        if not srcs:
            die(f"--alias {al}: no model {old} in {dst}/codelets/45")
        for p in srcs:
            shutil.copyfile(p, os.path.join(os.path.dirname(p), new + p[len(os.path.join(os.path.dirname(p), old)):]))
    print(f"{dst}: CUDA entries {a.speedup}x faster than the CPU's in {len(files)} models")


def mpi_costs(paths, stat, link_us, link_gbps):
    """StarPU-MPI's costs per message measured along the messages' way in
    traced runs of ranks (bench/sim_transfers.py --json: halo_path_us),
    as SMPI's: the sender's wait from its data on the host to the post
    (copy end -> post, or pack end -> post on CPU ranks) over its two
    MPI_Isend (the envelope and the data: smpi/ois each), the receiver's
    from seeing the message done to the next step (copy to the GPU, or the
    unpack) as smpi/or, and the message's time beyond the link's bytes
    over bandwidth, half a message each (the envelope and the data), on
    the link's latency. Several reports: weighted by their messages."""
    segs = {}
    for path in paths:
        try:
            rep = json.load(open(path))
            halo = rep["halo_path_us"]
            link = rep.get("mpi_link", {})
            dirs = [d for d in rep["directions"] if d.get("kind") == "mpi"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            die(f"{path}: not a sim_transfers.py --json report of a traced run of ranks ({e})")
        if not dirs or not halo:
            die(f"{path}: no StarPU-MPI message in its trace (a traced run of ranks)")
        # the message's time beyond its bytes over the report's link
        n = sum(d["count"] for d in dirs)
        nbytes = sum(d["bytes"] for d in dirs) / n
        wire = link.get("latency_us", 0.5) + nbytes / (link.get("gbps", 20.0) * 1e3)
        for key, names in (("send", ("copy to host end -> post", "pack end -> post")),
                           ("recv", ("seen done -> copy to GPU start", "seen done -> unpack start")),
                           ("msg", ("message (post -> seen done)",))):
            # GPU ranks: the copies' segments (messages without a copy, not
            # halos, are left out); CPU ranks: the tasks'
            for name in names:
                if name in halo:
                    v = halo[name][stat] - (wire if key == "msg" else 0.0)
                    c, tot = segs.get(key, (0, 0.0))
                    segs[key] = (c + halo[name]["count"], tot + halo[name]["count"] * v)
                    break
    got = {k: max(0.0, tot / c) for k, (c, tot) in segs.items() if c}
    send, recv, extra = got.get("send", 0.0) / 2, got.get("recv", 0.0), got.get("msg", 0.0)
    lat = link_us + extra / 2
    print(f"StarPU-MPI's costs ({stat} of {len(paths)} traced run(s)): {send:.1f} us a send (smpi/ois, os), "
          f"{recv:.1f} us a receive (smpi/or), the link between ranks {lat:.1f} us ({link_gbps:g} GB/s)")
    return send, recv, lat


def cmd_cluster(a):
    import xml.etree.ElementTree as ET
    src = os.path.abspath(a.node)
    host, path, hosts, links, memsize = read_platform(src)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        die(f"{path}: {e}")
    zones = [z for z in root if z.tag in ("AS", "zone")]
    if len(zones) != 1:
        die(f"{path}: {len(zones)} top zones, expected one (a StarPU node platform)")
    node = zones[0]
    if any(z.tag in ("AS", "zone") for z in node):
        die(f"{path}: nested zones: not a StarPU node platform")
    dst = os.path.abspath(a.dst)
    if os.path.exists(os.path.join(dst, "smpi")):
        die(f"{dst}: already a cluster folder; give a new one")
    for sub in ("bus", "codelets"):
        if os.path.isdir(os.path.join(src, sub)):
            shutil.copytree(os.path.join(src, sub), os.path.join(dst, sub), dirs_exist_ok=True)
    copy_sim_file(dst, [src])
    os.makedirs(os.path.join(dst, "smpi"), exist_ok=True)
    ranks = a.nodes * a.ranks_per_node
    g = 1e9
    nic, bb = a.nic * g, (a.backbone or a.nic * a.nodes) * g
    half = a.latency * 1e-6 / 2
    x = ["<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n",
         '<platform version="4.1">\n',
         f"<!-- tools/sim_platform.py cluster: {a.nodes} nodes x {a.ranks_per_node} rank(s) of {path};"
         f" NIC {a.nic} GB/s, {a.latency} us NIC to NIC, switch {bb / g:g} GB/s -->\n"]
    configs = [c for c in root if c.tag == "config"]
    send = a.mpi_overhead if a.mpi_send_overhead is None else a.mpi_send_overhead
    recv = a.mpi_overhead if a.mpi_recv_overhead is None else a.mpi_recv_overhead
    if a.mpi_from:
        send, recv, a.shm_latency = mpi_costs(a.mpi_from, a.mpi_stat, a.shm_latency, a.shm)
    if send > 0 or recv > 0:
        # SMPI's per-message software costs on the sender and the receiver
        # (size 0 and up: a constant, no per-byte part). SMPI sleeps the
        # sender smpi/ois before it posts an MPI_Isend (StarPU-MPI's every
        # envelope and message) and smpi/os before a blocking send; until
        # session 19 only os was set, which StarPU-MPI never pays. The
        # receiver pays smpi/or on finishing a message its sender did not
        # wait for (SMPI's detached sends: under smpi/send-is-detached-thresh,
        # 64 KiB; the envelopes, the small halos)
        if not configs:
            configs = [ET.Element("config", {"id": "General"})]
        for k, v in (("smpi/os", send), ("smpi/ois", send), ("smpi/or", recv)):
            if v > 0:
                ET.SubElement(configs[0], "prop", {"id": k, "value": f"0:{v * 1e-6:.9f}:0"})
    for c in configs:
        x.append(ET.tostring(c, encoding="unicode").strip() + "\n")
    x.append('<zone id="fvstar-root" routing="None">\n <zone id="cluster" routing="Full">\n')
    for k in range(a.nodes):
        x.append(f'  <host id="node-{k}" speed="1Gf"/>\n')
    x.append(f'  <link id="switch" bandwidth="{bb:f}Bps" latency="0s"/>\n')
    for k in range(a.nodes):
        x.append(f'  <link id="node-{k}-out" bandwidth="{nic:f}Bps" latency="{half:.9f}s"/>\n'
                 f'  <link id="node-{k}-in" bandwidth="{nic:f}Bps" latency="{half:.9f}s"/>\n')
        if a.ranks_per_node > 1:
            x.append(f'  <link id="node-{k}-shm" bandwidth="{a.shm * g:f}Bps" '
                     f'latency="{a.shm_latency * 1e-6:.9f}s"/>\n')
    for i in range(a.nodes):
        for j in range(a.nodes):
            if i != j:
                x.append(f'  <route src="node-{i}" dst="node-{j}" symmetrical="NO"><link_ctn id="node-{i}-out"/>'
                         f'<link_ctn id="switch"/><link_ctn id="node-{j}-in"/></route>\n')
            elif a.ranks_per_node > 1:
                x.append(f'  <route src="node-{i}" dst="node-{i}"><link_ctn id="node-{i}-shm"/></route>\n')
    x.append(" </zone>\n")
    for r in range(ranks):
        pre = f"StarPU-MPI{r}-"
        x.append(f' <zone id="StarPU-MPI{r}" routing="{node.get("routing", "Full")}">\n')
        for c in node:
            c = ET.fromstring(ET.tostring(c))
            for e in c.iter():
                for att in ("id", "src", "dst") if e.tag in ("host", "link", "route", "link_ctn") else ():
                    if e.get(att) is not None and not (e.tag == "prop"):
                        e.set(att, pre + e.get(att))
            x.append("  " + ET.tostring(c, encoding="unicode").strip() + "\n")
        x.append(" </zone>\n")
    x.append("</zone>\n</platform>\n")
    open(os.path.join(dst, "smpi", "platform.xml"), "w").write("".join(x))
    with open(os.path.join(dst, "smpi", "hostfile"), "w") as f:
        for r in range(ranks):
            f.write(f"node-{r // a.ranks_per_node}\n")
    ngpu = sum(1 for h in hosts if re.fullmatch(r"CUDA\d+", h))
    print(f"{dst}: {a.nodes} nodes x {a.ranks_per_node} rank(s) of host {host} ({ngpu} GPUs each); NIC "
          f"{a.nic:g} GB/s, {a.latency:g} us NIC to NIC, switch {bb / g:g} GB/s")


def link_of(i, j):
    """The platform's link from memory node i to j (0 the host, k + 1 GPU k)."""
    name = lambda n: "RAM" if n == 0 else f"CUDA{n - 1}"  # noqa: E731
    return f"{name(i)}-{name(j)}"


def cmd_retime(a):
    """The latencies a run saw (bench/sim_transfers.py --json of a traced
    run) in place of the bus benchmark's, link by link: the XML's
    RAM-CUDAi, CUDAi-RAM and CUDAi-CUDAj links (the route's other links,
    Host and PCI, carry no latency) and the schedulers' bus/HOST.latency."""
    folder = os.path.abspath(a.dir)
    host, path, hosts, links, memsize = read_platform(folder)
    key = {"median": "run_latency_median_us", "mean": "run_latency_mean_us", "mean90": "run_latency_mean90_us"}[a.stat]
    want = {}
    for jf in a.transfers:
        try:
            report = json.load(open(jf))
            dirs = report["directions"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            die(f"{jf}: not a sim_transfers.py --json report ({e})")
        for d in dirs:
            if d.get("kind") != "copy" or d.get("src") is None or d.get("dst") is None or key not in d:
                continue
            kind = "h2d" if d["src"] == 0 else "d2h" if d["dst"] == 0 else "d2d"
            if a.only and kind not in a.only:
                continue
            # several reports (ranks, runs): each link's transfers' weighted latency
            n, tot = want.get((d["src"], d["dst"]), (0, 0.0))
            want[(d["src"], d["dst"])] = (n + d["count"], tot + d["count"] * max(0.0, d[key]))
    if not want:
        die(f"{' '.join(a.transfers)}: no copy between memory nodes with a run latency (a traced run with "
            "--platform)")
    text = open(path).read()
    lat_path = os.path.join(folder, "bus", f"{host}.latency")
    matrix = read_matrix_rows(lat_path) if os.path.isfile(lat_path) else None
    for (i, j), (n, tot) in sorted(want.items()):
        us = tot / n
        name = link_of(i, j)
        if name not in links:
            print(f"{name}: not in {path}; left out")
            continue
        pat = re.compile(r'(<link\s+id="%s"[^>]*\blatency=")([^"]*)(")' % re.escape(name))
        text, k = pat.subn(lambda m: f"{m.group(1)}{us * 1e-6:.9f}s{m.group(3)}", text)
        if k != 1:
            die(f"{path}: link {name}: no latency attribute to set")
        old = links[name][1] * 1e6
        if matrix and i < len(matrix) and j < len(matrix[i]):
            matrix[i][j] = us
        print(f"{name}: latency {old:.2f} us -> {us:.2f} us (the run's {a.stat}, {n} transfers)")
    open(path, "w").write(text)
    if matrix:
        write_matrix(lat_path, len(matrix), lambda i, j: matrix[i][j])


def cmd_gap(a):
    """Every history entry of a kind's models (CUDA by default) made
    longer by the gap a traced run's workers left between ready tasks
    (bench/sim_transfers.py --json: worker_gap_us, per_task), or by --us:
    StarPU's driver between two tasks, which a calibrated task (its start
    to its end) does not hold and a simulated worker does not spend."""
    folder = os.path.abspath(a.dir)
    kind = {"cuda": 1, "cpu": 0}[a.kind]
    us = a.us
    if us is None:
        tot = n = 0.0
        for jf in a.transfers or []:
            try:
                q = json.load(open(jf))["worker_gap_us"].get(a.kind)
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
                die(f"{jf}: not a bench/sim_transfers.py --json report with worker gaps ({e})")
            if q:
                tot += q["per_task"] * q["tasks"]
                n += q["tasks"]
        if n == 0:
            die(f"{' '.join(a.transfers or [])}: no {a.kind} worker gap (a traced run; or --us)")
        us = tot / n
    if us < 0:
        die("--us: >= 0")
    files = sorted(glob.glob(os.path.join(folder, "codelets", "45", "*"))) + sorted(
        glob.glob(os.path.join(folder, "rank*", "codelets", "45", "*")))
    if not files:
        die(f"{folder}: no codelets/45/ models")
    entries = 0
    for p in files:
        try:
            combs = read_model(p)
        except ModelError as e:
            die(str(e))
        for devs, impls in combs:
            if devs[0][0] != kind:
                continue
            for im in impls:
                for e in im["entries"]:
                    if e[7] > 0:
                        # the mean moved, the spread kept: sum2 = n (mean^2 + dev^2)
                        e[3] += us
                        e[5] += us * e[7]
                        e[6] = e[7] * (e[3] ** 2 + e[4] ** 2)
                        entries += 1
        write_model(p, combs)
    print(f"{folder}: {entries} {a.kind} history entries {us:.2f} us longer")
    if os.path.isdir(os.path.join(folder, "codelets")):
        for p in files:
            if os.sep + "rank" not in p[len(folder):]:
                fit_file(p)


def read_matrix_rows(path):
    rows = []
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            rows.append([float(x) for x in line.split()])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("derive", help="N GPUs, other links, from a measured platform folder")
    d.add_argument("src")
    d.add_argument("dst")
    d.add_argument("--gpus", type=int, required=True)
    d.add_argument("--cpus", type=int)
    d.add_argument("--h2d", type=float, help="RAM to GPU, GB/s")
    d.add_argument("--d2h", type=float, help="GPU to RAM, GB/s")
    d.add_argument("--d2d", type=float, help="GPU to GPU, GB/s")
    d.add_argument("--host", type=float, help="the shared host link, GB/s")
    d.add_argument("--latency", type=float, help="RAM<->GPU latency, us")
    d.add_argument("--d2d-latency", type=float, help="GPU to GPU latency, us")
    d.add_argument("--peer-direct", action="store_true", help="GPU to GPU not through the host link (NVLink)")
    d.add_argument("--memsize", type=float, help="GPU memory, GiB (default: the source's GPU 0, else 80)")
    d.add_argument("--name", help="the host name of the new platform (default HOST-NgpU)")
    c = sub.add_parser("check", help="the folder's hosts and links")
    c.add_argument("dir")
    f = sub.add_parser("fake-gpu-models", help="tests only: CUDA entries from the CPU ones")
    f.add_argument("src")
    f.add_argument("dst")
    f.add_argument("--speedup", type=float, default=20.0)
    f.add_argument("--alias", action="append", help="NEW=OLD: model NEW a copy of OLD")
    t = sub.add_parser("fit", help="a size^b fits of every history model (fvstar-sim reads them)")
    t.add_argument("dir")
    t.add_argument("--quiet", action="store_true")
    m = sub.add_parser("merge", help="the models of several calibrated folders (the ranks') as one folder")
    m.add_argument("dst")
    m.add_argument("src", nargs="+")
    m.add_argument("--quiet", action="store_true")
    k = sub.add_parser("cluster", help="N nodes of a node platform, for simulated ranks (fvstar-smpi)")
    k.add_argument("node")
    k.add_argument("dst")
    k.add_argument("--nodes", type=int, required=True)
    k.add_argument("--ranks-per-node", type=int, default=1)
    k.add_argument("--nic", type=float, default=25.0, help="each node's NIC, GB/s each way")
    k.add_argument("--latency", type=float, default=1.5, help="NIC to NIC, us")
    k.add_argument("--backbone", type=float, help="the switch, GB/s (default: nodes x NIC)")
    k.add_argument("--shm", type=float, default=20.0, help="between ranks of one node, GB/s")
    k.add_argument("--shm-latency", type=float, default=0.5, help="between ranks of one node, us (default 0.5)")
    k.add_argument("--mpi-overhead", type=float, default=0.0,
                   help="each message's software cost on the sender and on the receiver, us (default 0)")
    k.add_argument("--mpi-from", nargs="+", metavar="JSON",
                   help="StarPU-MPI's costs measured in traced runs (bench/sim_transfers.py --json)")
    k.add_argument("--mpi-stat", choices=("median", "mean"), default="mean", help="with --mpi-from (default mean)")
    k.add_argument("--mpi-send-overhead", type=float, help="the sender's, us (default --mpi-overhead)")
    k.add_argument("--mpi-recv-overhead", type=float, help="the receiver's, us (default --mpi-overhead)")
    r = sub.add_parser("retime", help="the copy latencies a traced run saw, in place of the bus benchmark's")
    r.add_argument("dir")
    r.add_argument("--transfers", nargs="+", required=True, help="bench/sim_transfers.py --json reports")
    r.add_argument("--stat", choices=("median", "mean", "mean90"), default="mean90",
                   help="which of the run's latencies (default mean90: the mean of the 90 %% shortest)")
    r.add_argument("--only", nargs="+", choices=("h2d", "d2h", "d2d"), help="only these directions")
    g = sub.add_parser("gap", help="every task of a kind longer by the gap a traced run left between ready tasks")
    g.add_argument("dir")
    g.add_argument("--transfers", nargs="+", help="bench/sim_transfers.py --json reports (their per-task gap)")
    g.add_argument("--us", type=float, help="the gap, us (in place of --transfers)")
    g.add_argument("--kind", choices=("cuda", "cpu"), default="cuda", help="the workers (default cuda)")
    a = ap.parse_args()
    if a.cmd == "gap":
        if a.us is None and not a.transfers:
            die("gap: --transfers JSON... or --us US")
        cmd_gap(a)
    elif a.cmd == "retime":
        cmd_retime(a)
    elif a.cmd == "derive":
        if a.gpus < 0 or a.gpus > 16:
            die("--gpus: 0 to 16 (fvstar-sim's StarPU has STARPU_MAXCUDADEVS 16)")
        if a.latency is not None and a.latency < 0:
            die("--latency: >= 0")
        cmd_derive(a)
    elif a.cmd == "check":
        cmd_check(a)
    elif a.cmd == "fit":
        cmd_fit(a)
    elif a.cmd == "merge":
        cmd_merge(a)
    elif a.cmd == "cluster":
        if a.nodes < 1 or a.ranks_per_node < 1:
            die("--nodes and --ranks-per-node: 1 or more")
        if (a.nic <= 0 or a.latency < 0 or (a.backbone is not None and a.backbone <= 0) or a.shm <= 0
                or a.shm_latency < 0):
            die("--nic, --backbone, --shm: > 0 GB/s; --latency, --shm-latency: >= 0 us")
        if min(a.mpi_overhead, a.mpi_send_overhead or 0, a.mpi_recv_overhead or 0) < 0:
            die("--mpi-overhead, --mpi-send-overhead, --mpi-recv-overhead: >= 0 us")
        cmd_cluster(a)
    else:
        cmd_fake(a)


if __name__ == "__main__":
    main()
