#!/bin/sh
# SPDX-License-Identifier: MIT
# The .vtu writer as VTK itself reads it: generated and converted boxes of
# every cell kind give the same points, cells and markers as their .su2
# twin and `fvstar mesh info`, positive VTK volumes summing to the box
# volume (so our node order is VTK's), and a boundary piece that is exactly
# the mesh's boundary. Skips (exit 77) without Python's vtk (python3-vtk9).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
py=
# tolerances are stated for double; a single-precision build stores
# geometry in float
case $("$top_builddir/fvstar" --version) in
*single*) FV_TOL_SCALE=5.4e8 ;;
*) FV_TOL_SCALE=1 ;;
esac
export FV_TOL_SCALE
for c in "${PYTHON3:-}" python3 /usr/bin/python3; do
	if [ -n "$c" ] && "$c" -c 'import vtk' >/dev/null 2>&1; then
		py=$c
		break
	fi
done
if [ -z "$py" ]; then
	echo "SKIP: no python3 with the vtk module (Debian: python3-vtk9)"
	exit 77
fi
fv="$top_builddir/fvstar"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# run CMD...: quiet unless it fails
run() {
	if ! "$@" >"$tmp/run.log" 2>&1; then
		fail "$*"
		cat "$tmp/run.log"
		return 1
	fi
}

cat >"$tmp/check.py" <<'EOF'
# check.py VTU SU2 INFO KIND planar|warped [REFERENCE_VTU]
import os
import sys
import vtk

vtu, su2, info, kind, faces = sys.argv[1:6]
# fvstar's geometry is stored in its build's precision (--enable-single)
tol_scale = float(os.environ.get('FV_TOL_SCALE', '1'))
ref = sys.argv[6] if len(sys.argv) > 6 else None
errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)
    return cond


VTK_NODES = {10: 4, 12: 8, 13: 6, 14: 5, 5: 3, 9: 4}
FV_TO_VTK = [10, 14, 13, 12]  # fvstar cell_type enum -> VTK id
INFO_TYPES = {'tetrahedron': 10, 'pyramid': 14, 'prism': 13, 'hexahedron': 12}
KIND_TYPES = {'mixed': {10, 12, 13, 14}, 'hex': {12}, 'tet': {10}, 'prism': {13}}

# --- the .su2 twin: Python's float() is correctly rounded, so exact
lines = iter([l.split('%')[0].strip() for l in open(su2) if l.split('%')[0].strip()])
su2_cells, su2_pts, su2_marks = [], [], []
for line in lines:
    key, _, val = line.partition('=')
    key = key.strip()
    if key == 'NELEM':
        for _ in range(int(val)):
            t = [int(x) for x in next(lines).split()]
            su2_cells.append((t[0], t[1:1 + VTK_NODES[t[0]]]))
    elif key == 'NPOIN':
        for _ in range(int(val.split()[0])):
            su2_pts.append(tuple(float(x) for x in next(lines).split()[:3]))
    elif key == 'NMARK':
        for _ in range(int(val)):
            tag = next(lines).partition('=')[2].strip()
            elems = []
            for _ in range(int(next(lines).partition('=')[2])):
                t = [int(x) for x in next(lines).split()]
                elems.append((t[0], t[1:1 + VTK_NODES[t[0]]]))
            su2_marks.append((tag, elems))

# --- `fvstar mesh info` of the .su2
inf = {'types': {}, 'markers': []}
section = None
for line in open(info):
    w = line.split()
    if not w:
        continue
    if w[0] == 'nodes:':
        inf['nodes'] = int(w[1])
    elif w[0] == 'cells:':
        inf['cells'] = int(w[1])
        section = 'types'
    elif w[0] == 'faces:':
        inf['bfaces'] = int(w[3].rstrip(','))
        section = None
    elif w[0] == 'markers:':
        section = 'markers'
    elif w[0] == 'volume:':
        section = None
    elif section == 'types' and w[0] in INFO_TYPES:
        inf['types'][INFO_TYPES[w[0]]] = int(w[1])
    elif section == 'markers':
        inf['markers'].append((w[0], int(w[2]), float(w[4])))

check(inf.get('nodes') == len(su2_pts) and inf.get('cells') == len(su2_cells),
      'mesh info counts %s/%s differ from the .su2 (%d nodes, %d cells)'
      % (inf.get('nodes'), inf.get('cells'), len(su2_pts), len(su2_cells)))
check(set(t for t, n in inf['types'].items() if n > 0) == KIND_TYPES[kind],
      'cell types %s for --cells %s' % (inf['types'], kind))

# --- the .vtu, piece by piece
reader = vtk.vtkXMLUnstructuredGridReader()
reader.SetFileName(vtu)
reader.UpdateInformation()
check(reader.GetNumberOfPieces() == 2, 'pieces: %d, expected 2' % reader.GetNumberOfPieces())


def read_piece(p):
    reader.UpdatePiece(p, 2, 0)
    g = vtk.vtkUnstructuredGrid()
    g.DeepCopy(reader.GetOutput())
    return g


vol, bnd = read_piece(0), read_piece(1)


def arrays(g):
    cd = g.GetCellData()
    return {cd.GetArrayName(i): cd.GetArray(i) for i in range(cd.GetNumberOfArrays())}


va, ba = arrays(vol), arrays(bnd)
check(sorted(va) == sorted(ba), 'pieces have different arrays: %s, %s' % (sorted(va), sorted(ba)))
for name in ('cell_type', 'marker'):
    check(name in va, 'no cell array %s' % name)
has_volume = 'volume' in va


def ids(g, c):
    l = vtk.vtkIdList()
    g.GetCellPoints(c, l)
    return [l.GetId(i) for i in range(l.GetNumberOfIds())]


# volume piece: the .su2 bit for bit
nc, npt = vol.GetNumberOfCells(), vol.GetNumberOfPoints()
check(nc == inf.get('cells') and npt == inf.get('nodes'),
      'volume piece: %d cells, %d points; mesh info: %s, %s' % (nc, npt, inf.get('cells'), inf.get('nodes')))
if npt == len(su2_pts):
    bad = [i for i in range(npt) if vol.GetPoint(i) != su2_pts[i]]
    check(not bad, '%d points differ from the .su2, first %s' % (len(bad), bad[:1]))
count = {}
if nc == len(su2_cells):
    for c in range(nc):
        t = vol.GetCellType(c)
        count[t] = count.get(t, 0) + 1
        if not check((t, ids(vol, c)) == su2_cells[c],
                     'cell %d: VTK %s %s, .su2 %s' % (c, t, ids(vol, c), su2_cells[c])):
            break
        if not check(FV_TO_VTK[int(va['cell_type'].GetTuple1(c))] == t and va['marker'].GetTuple1(c) == -1,
                     'cell %d: cell_type %g marker %g for VTK type %d'
                     % (c, va['cell_type'].GetTuple1(c), va['marker'].GetTuple1(c), t)):
            break
check(count == {t: n for t, n in inf['types'].items() if n > 0},
      'VTK cell types %s, mesh info %s' % (count, inf['types']))

# VTK's own signed volumes: all positive and, where faces are planar (so
# that VTK's split of a cell matches ours), summing to the box
sizes = vtk.vtkCellSizeFilter()
sizes.SetInputData(vol)
sizes.Update()
v = sizes.GetOutput().GetCellData().GetArray('Volume')
vols = [v.GetValue(c) for c in range(nc)]
b = vol.GetBounds()
box = (b[1] - b[0]) * (b[3] - b[2]) * (b[5] - b[4])
neg = [c for c in range(nc) if not vols[c] > 0]
check(not neg, '%d cells with VTK volume <= 0 (node order), first cell %s type %s volume %s'
      % (len(neg), neg[:1], [vol.GetCellType(c) for c in neg[:1]], [vols[c] for c in neg[:1]]))
check(faces == 'warped' or abs(sum(vols) - box) <= 1e-12 * box,
      'VTK volumes sum to %.17g, box %.17g' % (sum(vols), box))
if has_volume and faces == 'planar':
    worst = max(abs(va['volume'].GetTuple1(c) - vols[c]) for c in range(nc))
    check(worst <= 1e-12 * tol_scale * max(vols), 'volume array differs from VTK by %g' % worst)

# boundary piece: the marker faces, each exactly once, over the boundary
bc = bnd.GetNumberOfCells()
check(bc == inf.get('bfaces') == sum(len(e) for _, e in su2_marks),
      'boundary piece: %d faces, mesh info %s, .su2 %d'
      % (bc, inf.get('bfaces'), sum(len(e) for _, e in su2_marks)))
check([n for n, _, _ in inf['markers']] == [t for t, _ in su2_marks], 'marker names differ')


def face_key(g, pid):
    return tuple(sorted(g.GetPoint(i) for i in pid))


per_marker = [0] * len(su2_marks)
area = [0.0] * len(su2_marks)
vtu_faces = []
sizes = vtk.vtkCellSizeFilter()
sizes.SetInputData(bnd)
sizes.Update()
face_area = sizes.GetOutput().GetCellData().GetArray('Area')
for c in range(bc):
    t, k = bnd.GetCellType(c), int(ba['marker'].GetTuple1(c))
    if not check(t in (5, 9) and 0 <= k < len(su2_marks) and ba['cell_type'].GetTuple1(c) == 255
                 and (not has_volume or ba['volume'].GetTuple1(c) == 0),
                 'boundary face %d: type %d marker %d' % (c, t, k)):
        break
    per_marker[k] += 1
    area[k] += face_area.GetValue(c)
    vtu_faces.append((k, t, face_key(bnd, ids(bnd, c))))
su2_faces = [(k, t, tuple(sorted(su2_pts[i] for i in n)))
             for k, (_, e) in enumerate(su2_marks) for t, n in e]
check(sorted(vtu_faces) == sorted(su2_faces), 'boundary faces differ from the .su2 markers')
for k, (name, nf, a) in enumerate(inf['markers']):
    check(per_marker[k] == nf and abs(area[k] - a) <= 1e-9 * tol_scale * a,
          'marker %s: %d faces, area %.12g; mesh info %d, %.12g' % (name, per_marker[k], area[k], nf, a))
seen = {}
for c in range(nc):
    cell = vol.GetCell(c)
    for f in range(cell.GetNumberOfFaces()):
        pid = cell.GetFace(f).GetPointIds()
        key = tuple(sorted(pid.GetId(i) for i in range(pid.GetNumberOfIds())))
        seen[key] = seen.get(key, 0) + 1
outer = sorted(tuple(sorted(vol.GetPoint(i) for i in key)) for key, n in seen.items() if n == 1)
check(outer == sorted(f for _, _, f in vtu_faces), 'boundary piece is not the boundary of the cells')

# the whole file, as ParaView opens it
for cls in (vtk.vtkXMLUnstructuredGridReader, vtk.vtkXMLGenericDataObjectReader):
    r = cls()
    r.SetFileName(vtu)
    r.Update()
    out = r.GetOutput()
    check(out is not None and out.IsA('vtkUnstructuredGrid')
          and out.GetNumberOfCells() == nc + bc
          and out.GetNumberOfPoints() == npt + bnd.GetNumberOfPoints(),
          '%s: not the two pieces' % cls.__name__)

# same mesh written by another route: identical points and cells
if ref:
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(ref)
    r.UpdatePiece(0, 2, 0)
    o = r.GetOutput()
    check(o.GetNumberOfPoints() == npt and o.GetNumberOfCells() == nc
          and all(o.GetPoint(i) == vol.GetPoint(i) for i in range(npt))
          and all(ids(o, c) == ids(vol, c) for c in range(nc)),
          'differs from %s' % ref)

for e in errors:
    print('  ' + e)
print('%s: %d cells %s, %d boundary faces, VTK volume %.17g: %s'
      % (vtu.split('/')[-1], nc, count, bc, sum(vols), 'FAIL' if errors else 'ok'))
sys.exit(1 if errors else 0)
EOF

# case_box NAME KIND planar|warped GEN_OPTIONS...: gen as .vtu and .su2,
# convert the .su2, check both .vtu
case_box() {
	name=$1
	kind=$2
	faces=$3
	shift 3
	run "$fv" mesh gen box --cells "$kind" "$@" -o "$tmp/$name.vtu" || return
	run "$fv" mesh gen box --cells "$kind" "$@" -o "$tmp/$name.su2" || return
	if ! "$fv" mesh info "$tmp/$name.su2" >"$tmp/$name.info" 2>"$tmp/run.log"; then
		fail "fvstar mesh info $name.su2"
		cat "$tmp/run.log"
		return
	fi
	"$py" "$tmp/check.py" "$tmp/$name.vtu" "$tmp/$name.su2" "$tmp/$name.info" "$kind" "$faces" ||
		fail "$name.vtu (fvstar mesh gen)"
	run "$fv" mesh convert "$tmp/$name.su2" -o "$tmp/$name-conv.vtu" || return
	"$py" "$tmp/check.py" "$tmp/$name-conv.vtu" "$tmp/$name.su2" "$tmp/$name.info" "$kind" "$faces" \
		"$tmp/$name.vtu" || fail "$name-conv.vtu (fvstar mesh convert)"
}

case_box mixed mixed planar -n 4
case_box hex hex planar -n 3
case_box tet tet planar -n 3
case_box prism prism planar -n 3
# jittered nodes need all 17 digits in the .su2; tets stay planar
case_box tet-jitter tet planar -n 3 --perturb 0.2 --seed 7
case_box mixed-jitter mixed warped -n 3 --perturb 0.2 --seed 7

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
echo "vtu_vtk: all passed"
