#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prism-layer (RANS) mesh of the ONERA M6 wing: prisms extruded from the
wing's surface mesh, tetrahedra outside them, written as SU2.

Called by make_mesh.sh (rans-* levels); Python 3 standard library only.

Why not Gmsh's own boundary-layer extrusion (Extrude { Surface{...};
Layers{...}; Recombine; } along the normals of a surface mesh): in Gmsh
4.8.4 it failed on the wing ("Could not find extruded node"), and it has
no way to keep the root nodes in the symmetry plane (the swept, tapered
wing's normals have a y component there; it moved them to y < 0). So the
extrusion is done here and Gmsh does the rest:

  1. gmsh -2 onera_m6.geo: the surface meshes of the wing, the symmetry
     plane and the far field (the same as the tet levels at the same sf).
  2. Here: node normals of the wing (angle-weighted face normals; their y
     component is ramped to zero at the root so that the root nodes stay
     in y = 0 and the prism columns there are normal to the plane), N
     layers of geometric growth, prisms between the layers, quads where
     the layers meet the symmetry plane.
  3. gmsh -2: the symmetry plane again, now around the top of the prism
     layer at the root (the boundary nodes are given: one segment per
     edge), with onera_m6.geo's size field.
  4. gmsh -3: tetrahedra between the top of the prism layer, the new
     symmetry plane and the far field (discrete surfaces from a .msh,
     Delaunay, the same size field).
  5. Here: prisms + tets, markers wing, symmetry (root quads and the
     plane's triangles), farfield, written as SU2.

Coordinates handed to gmsh are rounded to 12 significant digits, so that
gmsh's %.16g output reads back to the same doubles and nodes are matched
by their coordinates.
"""

import argparse
import math
import os
import subprocess
import sys
import time

# The planform of the size field and of the normals' orientation test:
# onera_m6.geo's (metres; keep in step with it), or onera_m6_step.geo's (the
# TMR STEP wing with its rounded tip, root chords: --planform step). set_planform
# sets these.
CR = B = TLE = TTE = XTIP = CT = 0.0
PLANFORMS = {
    # root chord, span of the straight part, LE sweep, TE x at that span;
    # the size field's defaults (wing, LE, TE, tip, far field) in its units
    'm6': dict(cr=0.8059, b=1.1963, xtte=0.8059 + 1.1963 * math.tan(15.8 * math.pi / 180),
               sizes=(0.024, 0.0035, 0.006, 0.005, 1.5), scale=1.0),
    'step': dict(cr=1.0, b=1.47602, xtte=1.41466,
                 sizes=(0.02978, 0.004343, 0.007445, 0.006204, 12.0), scale=0.8059),
}


def set_planform(name):
    global CR, B, TLE, TTE, XTIP, CT
    p = PLANFORMS[name]
    CR, B = p['cr'], p['b']
    TLE = math.tan(30 * math.pi / 180)
    TTE = (p['xtte'] - CR) / B
    XTIP = B * TLE
    CT = p['xtte'] - XTIP
    return p


def q(v):
    return float('%.12g' % v)


def fail(msg):
    sys.stderr.write('make_bl_mesh.py: %s\n' % msg)
    sys.exit(1)


def run_gmsh(gmsh, args, log):
    with open(log, 'a') as f:
        f.write('$ %s %s\n' % (gmsh, ' '.join(args)))
        f.flush()
        r = subprocess.run([gmsh] + args, stdout=f, stderr=subprocess.STDOUT)
    text = open(log).read()
    if r.returncode != 0 or '\nError' in text or text.startswith('Error'):
        sys.stderr.write(''.join(text.splitlines(True)[-20:]))
        fail('gmsh failed (%s)' % ' '.join(args[:2]))


def read_msh2(path):
    """Nodes {tag: (x, y, z)}, elements [(type, phys, elem, [nodes])], names {phys: name}."""
    nodes, elems, names = {}, [], {}
    with open(path) as f:
        lines = iter(f.read().split('\n'))
    for line in lines:
        if line == '$PhysicalNames':
            for _ in range(int(next(lines))):
                d, t, name = next(lines).split(None, 2)
                names[int(t)] = name.strip('"')
        elif line == '$Nodes':
            for _ in range(int(next(lines))):
                t, x, y, z = next(lines).split()
                nodes[int(t)] = (float(x), float(y), float(z))
        elif line == '$Elements':
            for _ in range(int(next(lines))):
                w = [int(v) for v in next(lines).split()]
                nt = w[2]
                elems.append((w[1], w[3] if nt > 0 else 0, w[4] if nt > 1 else 0, w[3 + nt:]))
    return nodes, elems, names


def size_field(a):
    """onera_m6.geo's MathEval size field h(x, y, z), as a Gmsh expression."""
    ys = 'min(max(y, 0), %.7g)' % B
    dy2 = '(y - %s)^2' % ys
    cy = '(%.7g - %s * %.7g)' % (CR, ys, TLE - TTE)
    xle = '(%s * %.7g)' % (ys, TLE)
    xte = '(%.7g + %s * %.7g)' % (CR, ys, TTE)
    dle = 'sqrt((x - %s)^2 + %s + z^2)' % (xle, dy2)
    dte = 'sqrt((x - %s)^2 + %s + z^2)' % (xte, dy2)
    dxw = 'max(0, %s - x, x - %s)' % (xle, xte)
    dw = 'sqrt(%s^2 + %s + z^2)' % (dxw, dy2)
    dxt = 'max(0, %.7g - x, x - %.7g)' % (XTIP, XTIP + CT)
    dt = 'sqrt(%s^2 + (y - %.7g)^2 + z^2)' % (dxt, B)
    g = a.grow
    hw = '%.7g * %s + %.7g * %s' % (a.wing_size / CR, cy, g, dw)
    hle = '%.7g * %s + %.7g * %s' % (a.le_size / CR, cy, g, dle)
    hte = '%.7g * %s + %.7g * %s' % (a.te_size / CR, cy, g, dte)
    ht = '%.7g + %.7g * %s' % (a.tip_size, g, dt)
    return '%.7g * min(%.7g, %s, %s, %s, %s)' % (a.sf, a.far_size, hw, hle, hte, ht)


def geo_options(a, dim3):
    s = ['Field[1] = MathEval;',
         'Field[1].F = "%s";' % size_field(a),
         'Background Field = 1;',
         'Mesh.MeshSizeFromPoints = 0;',
         'Mesh.MeshSizeFromCurvature = 0;',
         'Mesh.MeshSizeExtendFromBoundary = 0;',
         'Mesh.MeshSizeMax = %.7g;' % (a.sf * a.far_size),
         'Mesh.Algorithm = 6;']
    if dim3:
        s += ['Mesh.Algorithm3D = 1;', 'Mesh.Optimize = 1;']
    return '\n'.join(s) + '\n'


def sub(u, v):
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def unit(u):
    n = math.sqrt(dot(u, u))
    return (u[0] / n, u[1] / n, u[2] / n)


def boundary_loops(tris):
    """Closed loops of the edges used by one triangle only, each a node list."""
    count = {}
    for t in tris:
        for i in range(3):
            a, b = t[i], t[(i + 1) % 3]
            k = (a, b) if a < b else (b, a)
            count[k] = count.get(k, 0) + 1
    nbr = {}
    for (a, b), c in count.items():
        if c == 1:
            nbr.setdefault(a, []).append(b)
            nbr.setdefault(b, []).append(a)
    loops, seen = [], set()
    for s in nbr:
        if s in seen:
            continue
        loop, prev, cur = [s], None, s
        seen.add(s)
        while True:
            n0, n1 = nbr[cur]
            nxt = n1 if n0 == prev else n0
            if nxt == s:
                break
            loop.append(nxt)
            seen.add(nxt)
            prev, cur = cur, nxt
        loops.append(loop)
    return loops


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--geo', required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--gmsh', default='gmsh')
    p.add_argument('--work', required=True, help='scratch folder (kept)')
    p.add_argument('--sf', type=float, default=1.05)
    p.add_argument('--planform', choices=sorted(PLANFORMS), default='m6',
                   help='m6: onera_m6.geo (metres); step: onera_m6_step.geo (the TMR STEP wing in '
                   'root chords, its rounded tip; written scaled to a root chord of 0.8059 m)')
    p.add_argument('--step-file', help='--planform step: the STEP file (onera_m6_step.geo\'s step_file)')
    p.add_argument('--h1', type=float, default=1e-6, help='first layer height (m)')
    p.add_argument('--growth', type=float, default=1.25)
    p.add_argument('--layers', type=int, default=35)
    p.add_argument('--root-blend', type=float, default=0.1,
                   help='span (m) over which the normals\' y component ramps from 0 at the root')
    p.add_argument('--wing-size', type=float)
    p.add_argument('--le-size', type=float)
    p.add_argument('--te-size', type=float)
    p.add_argument('--tip-size', type=float)
    p.add_argument('--far-size', type=float)
    p.add_argument('--grow', type=float, default=0.18)
    a = p.parse_args()
    pf = set_planform(a.planform)
    for k, v in zip(('wing_size', 'le_size', 'te_size', 'tip_size', 'far_size'), pf['sizes']):
        if getattr(a, k) is None:
            setattr(a, k, v)
    # lengths in the geometry's units: the layers' heights (given in metres)
    # are divided by the scale, every coordinate written is multiplied by it
    scale = pf['scale']
    h1 = a.h1 / scale
    os.makedirs(a.work, exist_ok=True)
    log = os.path.join(a.work, 'gmsh.log')
    open(log, 'w').close()
    t0 = time.time()

    # 1. Surface meshes.
    surf = os.path.join(a.work, 'surf.msh')
    extra = ['-setstring', 'step_file', a.step_file] if a.step_file else []
    run_gmsh(a.gmsh, ['-2', '-nt', '1', '-setnumber', 'sf', repr(a.sf)] + extra + ['-format', 'msh2',
                      a.geo, '-o', surf], log)
    nodes, elems, names = read_msh2(surf)
    byname = {v: k for k, v in names.items()}
    for m in ('wing', 'symmetry', 'farfield'):
        if m not in byname:
            fail('no physical group %s in %s' % (m, surf))
    tri = {m: [(e[2], e[3]) for e in elems if e[0] == 2 and e[1] == byname[m]]
           for m in ('wing', 'symmetry', 'farfield')}
    for _, t in tri['symmetry']:             # OCC leaves y ~ 1e-11 on the plane's edge
        for v in t:
            x = nodes[v]
            nodes[v] = (x[0], 0.0, x[2])
    t1 = time.time()

    # 2. Wing normals into the fluid, entity by entity: a point inside the
    # section at the triangle's span lies behind an outward face.
    wing = []
    for ent in sorted({e for e, _ in tri['wing']}):
        ts = [t for e, t in tri['wing'] if e == ent]
        score = 0.0
        for t in ts:
            x = [nodes[v] for v in t]
            c = tuple(sum(x[i][k] for i in range(3)) / 3 for k in range(3))
            yc = min(max(c[1], 0.0), B)
            inside = (yc * TLE + 0.4 * (CR - yc * (TLE - TTE)), min(c[1], B - 0.01), 0.0)
            score += dot(cross(sub(x[1], x[0]), sub(x[2], x[0])), sub(c, inside))
        wing += [t if score > 0 else (t[0], t[2], t[1]) for t in ts]
    wnodes = sorted({v for t in wing for v in t})
    index = {v: i for i, v in enumerate(wnodes)}
    nw = len(wnodes)
    acc = [[0.0, 0.0, 0.0] for _ in range(nw)]
    for t in wing:
        x = [nodes[v] for v in t]
        n = unit(cross(sub(x[1], x[0]), sub(x[2], x[0])))
        for i in range(3):
            e1 = unit(sub(x[(i + 1) % 3], x[i]))
            e2 = unit(sub(x[(i + 2) % 3], x[i]))
            ang = math.acos(max(-1.0, min(1.0, dot(e1, e2))))
            r = acc[index[t[i]]]
            r[0] += ang * n[0]
            r[1] += ang * n[1]
            r[2] += ang * n[2]
    normal = []
    for i, v in enumerate(wnodes):
        n = unit(acc[i])
        y = nodes[v][1]
        ramp = 0.0 if y < 1e-9 else min(1.0, y / a.root_blend)
        normal.append(unit((n[0], n[1] * ramp, n[2])))

    # Layers: s_k = h1 (g^k - 1) / (g - 1), k = 0..N.
    N, g = a.layers, a.growth
    s = [h1 * (g ** k - 1) / (g - 1) for k in range(N + 1)]
    coords = []                              # node k * nw + i: layer k of wing node i
    for k in range(N + 1):
        for i, v in enumerate(wnodes):
            x, n = nodes[v], normal[i]
            y = 0.0 if x[1] < 1e-9 else x[1] + s[k] * n[1]
            coords.append((q(x[0] + s[k] * n[0]), q(y), q(x[2] + s[k] * n[2])))
    wt = [tuple(index[v] for v in t) for t in wing]   # normals into the fluid
    prisms = []
    for k in range(N):
        o0, o1 = k * nw, (k + 1) * nw
        for t in wt:
            # VTK: the first triangle faces away from the second (into the wing).
            prisms.append((t[0] + o0, t[2] + o0, t[1] + o0, t[0] + o1, t[2] + o1, t[1] + o1))
    bad = 0
    for k in (0, N - 1):
        o0, o1 = k * nw, (k + 1) * nw
        for t in wt:
            x = [coords[o1 + v] for v in t]
            b = [coords[o0 + v] for v in t]
            nb = cross(sub(b[1], b[0]), sub(b[2], b[0]))
            if dot(cross(sub(x[1], x[0]), sub(x[2], x[0])), nb) <= 0:
                bad += 1
    if bad:
        fail('%d prism layer triangles flipped over' % bad)
    # Root: wing edges in y = 0, each extruded into N quads (normals along -y).
    root = [l for l in boundary_loops(wt)]
    if len(root) != 1:
        fail('the wing surface has %d boundary loops, expected 1 (the root)' % len(root))
    root = root[0]
    if any(abs(nodes[wnodes[i]][1]) > 1e-9 for i in root):
        fail('the wing\'s boundary loop is not in y = 0')
    quads = []
    for j in range(len(root)):
        i0, i1 = root[j], root[(j + 1) % len(root)]
        for k in range(N):
            qd = (i0 + k * nw, i1 + k * nw, i1 + (k + 1) * nw, i0 + (k + 1) * nw)
            x = [coords[v] for v in qd]
            if cross(sub(x[1], x[0]), sub(x[3], x[0]))[1] > 0:
                qd = (qd[0], qd[3], qd[2], qd[1])
            quads.append(qd)
    t2 = time.time()

    # 3. The symmetry plane outside the prism layer's root.
    loops = boundary_loops([t for _, t in tri['symmetry']])
    inner = [l for l in loops if l[0] in index]
    outer = [l for l in loops if l[0] not in index]
    if len(inner) != 1 or len(outer) != 1:
        fail('the symmetry plane has %d loops around the wing and %d others' % (len(inner), len(outer)))
    top = N * nw
    inner_pts = [coords[top + index[v]] for v in inner[0]]
    outer_pts = [tuple(q(c) for c in nodes[v]) for v in outer[0]]
    geo = ['// generated by make_bl_mesh.py: symmetry plane around the prism layer']
    pt = 0
    loops_geo = []
    for pts in (outer_pts, inner_pts):
        first = pt + 1
        for x in pts:
            pt += 1
            geo.append('Point(%d) = {%.12g, 0, %.12g};' % (pt, x[0], x[2]))
        nl = len(pts)
        for j in range(nl):
            geo.append('Line(%d) = {%d, %d};' % (first + j, first + j, first + (j + 1) % nl))
        loops_geo.append('{%d:%d}' % (first, first + nl - 1))
    geo.append('Curve Loop(1) = %s;' % loops_geo[0])
    geo.append('Curve Loop(2) = %s;' % loops_geo[1])
    geo.append('Plane Surface(1) = {1, 2};')
    geo.append('Transfinite Curve{:} = 2;')
    geo.append('Physical Surface("symmetry") = {1};')
    geo_path = os.path.join(a.work, 'symmetry.geo')
    with open(geo_path, 'w') as f:
        f.write('\n'.join(geo) + '\n' + geo_options(a, False))
    sym_msh = os.path.join(a.work, 'symmetry.msh')
    run_gmsh(a.gmsh, ['-2', '-nt', '1', '-format', 'msh2', geo_path, '-o', sym_msh], log)
    snodes, selems, _ = read_msh2(sym_msh)

    # Global nodes: the wing layers, then the others as they come.
    where = {c: i for i, c in enumerate(coords[top:], top)}
    far_nodes = sorted({v for _, t in tri['farfield'] for v in t})
    gid = {}
    for v in far_nodes:
        c = tuple(q(c) for c in nodes[v])
        coords.append(c)
        gid[v] = len(coords) - 1
        where[c] = len(coords) - 1

    def node_at(c):
        """The node at coordinates c (gmsh's nodes matched by value), new if none."""
        i = where.get(c)
        if i is None:
            coords.append(c)
            i = where[c] = len(coords) - 1
        return i

    smap = {tag: node_at((q(x[0]), 0.0, q(x[2]))) for tag, x in snodes.items()}
    sym_tris = [tuple(smap[v] for v in e[3]) for e in selems if e[0] == 2]
    far_tris = [tuple(gid[v] for v in t) for _, t in tri['farfield']]
    top_tris = [tuple(top + v for v in t) for t in wt]
    t3 = time.time()

    # 4. Tetrahedra outside the prism layer.
    used = sorted({v for ts in (top_tris, sym_tris, far_tris) for t in ts for v in t})
    outer_msh = os.path.join(a.work, 'outer.msh')
    with open(outer_msh, 'w') as f:
        f.write('$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n' % len(used))
        f.write(''.join('%d %.12g %.12g %.12g\n' % ((v + 1,) + coords[v]) for v in used))
        n = len(top_tris) + len(sym_tris) + len(far_tris)
        f.write('$EndNodes\n$Elements\n%d\n' % n)
        e = 0
        out = []
        for ent, ts in ((1, top_tris), (2, sym_tris), (3, far_tris)):
            for t in ts:
                e += 1
                out.append('%d 2 2 %d %d %d %d %d\n' % (e, ent, ent, t[0] + 1, t[1] + 1, t[2] + 1))
        f.write(''.join(out) + '$EndElements\n')
    vol_geo = os.path.join(a.work, 'volume.geo')
    with open(vol_geo, 'w') as f:
        f.write('// generated by make_bl_mesh.py: tetrahedra outside the prism layer\n'
                'Merge "outer.msh";\nSurface Loop(1) = {1, 2, 3};\nVolume(1) = {1};\n'
                'Physical Volume("fluid") = {1};\n' + geo_options(a, True))
    vol_msh = os.path.join(a.work, 'volume.msh')
    run_gmsh(a.gmsh, ['-3', '-nt', '1', '-format', 'msh2', vol_geo, '-o', vol_msh], log)
    vnodes, velems, _ = read_msh2(vol_msh)
    vmap = {tag: node_at(x) for tag, x in vnodes.items()}
    tets = [tuple(vmap[v] for v in e[3]) for e in velems if e[0] == 4]
    if not tets:
        fail('gmsh made no tetrahedra')
    t4 = time.time()

    # 5. SU2.
    with open(a.out, 'w') as f:
        f.write('NDIME= 3\nNELEM= %d\n' % (len(prisms) + len(tets)))
        f.write(''.join('13 %d %d %d %d %d %d %d\n' % (p + (i,)) for i, p in enumerate(prisms)))
        o = len(prisms)
        f.write(''.join('10 %d %d %d %d %d\n' % (t + (o + i,)) for i, t in enumerate(tets)))
        f.write('NPOIN= %d\n' % len(coords))
        f.write(''.join('%.12g %.12g %.12g %d\n' % (c[0] * scale, c[1] * scale, c[2] * scale, i)
                        for i, c in enumerate(coords)))
        f.write('NMARK= 3\n')
        wall = [(t[0], t[2], t[1]) for t in wt]           # facing into the wing
        f.write('MARKER_TAG= wing\nMARKER_ELEMS= %d\n' % len(wall))
        f.write(''.join('5 %d %d %d\n' % t for t in wall))
        f.write('MARKER_TAG= symmetry\nMARKER_ELEMS= %d\n' % (len(quads) + len(sym_tris)))
        f.write(''.join('9 %d %d %d %d\n' % qd for qd in quads))
        f.write(''.join('5 %d %d %d\n' % t for t in sym_tris))
        f.write('MARKER_TAG= farfield\nMARKER_ELEMS= %d\n' % len(far_tris))
        f.write(''.join('5 %d %d %d\n' % t for t in far_tris))
    t5 = time.time()
    print('prisms %d (%d layers x %d wing triangles), tetrahedra %d, nodes %d; '
          'wing / symmetry / farfield faces %d / %d (%d quads) / %d; '
          'first layer %.3g m, growth %g, last layer %.3g m, total %.3g m; '
          'time: surfaces %.1f s, layers %.1f s, symmetry %.1f s, tets %.1f s, SU2 %.1f s'
          % (len(prisms), N, len(wt), len(tets), len(coords), len(wall),
             len(quads) + len(sym_tris), len(quads), len(far_tris), a.h1, g,
             (s[N] - s[N - 1]) * scale, s[N] * scale, t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4))


if __name__ == '__main__':
    main()
