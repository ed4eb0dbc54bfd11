# SPDX-License-Identifier: MIT
# Sourced by the command-line tests: the fvstar binary and python3, a
# temporary directory removed at exit, failure counting, and the small cases
# several tests run. Needs top_builddir and top_srcdir (set by make check).
set -u
fv="$top_builddir/fvstar"
py=${PYTHON3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Tolerances are written for double precision; a tree configured
# --enable-single scales them by FV_TOL_SCALE = 1e8 (the unit roundoffs of
# the two differ by 5e8): `tol 1e-12` prints the one to use. Python checks
# read FV_TOL_SCALE from the environment.
if "$fv" --version 2>/dev/null | grep -q "single precision"; then
	FV_TOL_SCALE=1e8
else
	FV_TOL_SCALE=1
fi
export FV_TOL_SCALE
tol() { awk -v t="$1" -v s="$FV_TOL_SCALE" 'BEGIN { printf "%g", t * s }'; }

# key_pair NAME CFG KEY "V1 V2" TOL KEY=VALUE...: the case run with KEY = V1
# and with KEY = V2 (outputs in $tmp/NAME-V1, $tmp/NAME-V2, logs beside),
# then the same restart and history (wall time aside) when TOL is 0, else
# the states to TOL (compare_runs.py; "STATE HIST" sets the histories' too,
# and a STATE of 0 asks for the same state to the bit: on a GPU, whose
# norms sum thread blocks with atomicAdd, restart.bin's peak residual and
# the residual history vary at round-off); the runs get the environment
# KP_ENV ("STARPU_NCPU=0 ..."). Returns 1 after a failure.
key_pair() {
	kp_name=$1 kp_cfg=$2 kp_key=$3 kp_vals=$4 kp_tol=$5
	shift 5
	for kp_v in $kp_vals; do
		# shellcheck disable=SC2086
		env ${KP_ENV:-} "$fv" run "$kp_cfg" output.dir="$tmp/$kp_name-$kp_v" "$kp_key=$kp_v" numerics.residual_drop=0 \
			output.progress_every=0 output.vtu=no "$@" >/dev/null 2>"$tmp/$kp_name-$kp_v.err" ||
			{ cat "$tmp/$kp_name-$kp_v.err"; fail "$kp_name: $kp_key = $kp_v"; return 1; }
	done
	kp_a=$tmp/$kp_name-${kp_vals%% *} kp_b=$tmp/$kp_name-${kp_vals##* }
	if [ "$kp_tol" != 0 ]; then
		# shellcheck disable=SC2086
		"$py" "$top_srcdir/tests/cli/compare_runs.py" "$kp_a" "$kp_b" "$kp_name" $kp_tol ||
			{ fail "$kp_name: the states differ"; return 1; }
		return 0
	fi
	cmp -s "$kp_a/restart.bin" "$kp_b/restart.bin" || { fail "$kp_name: the states differ"; return 1; }
	cut -d, -f1,3- "$kp_a/history.csv" >"$tmp/h.a"
	cut -d, -f1,3- "$kp_b/history.csv" >"$tmp/h.b"
	cmp -s "$tmp/h.a" "$tmp/h.b" || { fail "$kp_name: the histories differ"; return 1; }
}

# bump_case LEVEL NAME: the TMR bump's grid of that level (mesh gen bump)
# in $tmp/NAME.su2 and cases/bump_tmr/bump_tmr.cfg reading it in $tmp/NAME.cfg.
bump_case() {
	"$fv" mesh gen bump --level "$1" -o "$tmp/$2.su2" >/dev/null 2>&1 || fail "mesh gen bump --level $1"
	sed -e "s|^file = .*|file = $tmp/$2.su2|" "$top_srcdir/cases/bump_tmr/bump_tmr.cfg" >"$tmp/$2.cfg"
}

# bump_run NAME ITERATIONS [keys]: `fvstar run` of $tmp/bump.cfg (bump_case)
# into $tmp/NAME, stopped 8 orders down, on ${blocks:-4} blocks and one CPU
# worker, stdout and stderr in $tmp/NAME.out and .err; its exit status.
bump_run() {
	br_name=$1 br_n=$2
	shift 2
	"$fv" run "$tmp/bump.cfg" output.dir="$tmp/$br_name" output.vtu=no output.progress_every=0 \
		numerics.iterations="$br_n" numerics.residual_drop=8 partition.blocks="${blocks:-4}" runtime.ncpu=1 "$@" \
		>"$tmp/$br_name.out" 2>"$tmp/$br_name.err"
}

# The CUDA workers StarPU starts here (0 without a GPU), for GPU tests.
cuda_workers() {
	n=$(env -u STARPU_NCUDA STARPU_NCPU=0 "$fv" runtime info 2>/dev/null |
		sed -n 's/^workers: .*(\([0-9]*\) CPU, \([0-9]*\) CUDA).*/\2/p')
	echo "${n:-0}"
}

# The exit status of the test from the failures counted.
finish() {
	[ "$fails" = 0 ] || exit 1
	exit 0
}

# mesh_summary FILE: what must not depend on the format, from `mesh info`:
# cells per type, markers with face counts and areas, the total volume
# rounded to 9 digits (sums run in different orders); sorted, as marker
# order is not part of the comparison.
mesh_summary() {
	"$fv" mesh info "$1" >"$tmp/info" 2>"$tmp/err" || {
		echo "fvstar mesh info $1 failed:" >&2
		cat "$tmp/err" >&2
		return 1
	}
	grep -q '^checks: passed' "$tmp/info" || return 1
	awk '
		/^cells:/ { print; types = 1; next }
		types && /^faces:/ { types = 0 }
		types { print "type", $1, $2; next }
		/^markers:/ { print; marks = 1; next }
		marks && /^volume:/ { marks = 0 }
		marks { printf "marker %s faces %s area %.9g\n", $1, $3, $5; next }
		/^volume:/ { printf "volume %.9g min-positive %d\n", $3, ($5 > 0) }
	' "$tmp/info" | LC_ALL=C sort
}

# plate_case: NASA TMR's flat plate with SA (cases/plate_tmr) on its
# coarsest grid (level 5, 35 x 25), as $tmp/p.cfg (mesh $tmp/plate.su2).
plate_case() {
	"$fv" mesh gen plate --level 5 -o "$tmp/plate.su2" >/dev/null 2>&1 || { echo "FAIL: mesh gen plate"; exit 1; }
	sed "s|^file = plate_tmr.su2|file = $tmp/plate.su2|" "$top_srcdir/cases/plate_tmr/plate_tmr.cfg" >"$tmp/p.cfg"
}

# wedge_case: the Mach 2 ramp of cases/wedge on a small mixed mesh, as
# $tmp/w.cfg (mesh $tmp/w.su2).
# blunt_case MESH CFG [KEY=VALUE...]: the Mach 6 blunt body of
# tests/data/blunt.geo (its markers) on MESH into CFG, the keys given in
# its [numerics]
blunt_case() {
	bmesh=$1
	bcfg=$2
	shift 2
	{
		printf '[mesh]\nfile = %s\n[flow]\nmach = 6\n[numerics]\n' "$bmesh"
		for kv in "$@"; do
			echo "${kv%%=*} = ${kv#*=}"
		done
		printf '[bc]\nwall = wall\ninlet = supersonic_inflow\noutlet = supersonic_outflow\n'
		printf 'symmetry_zmin = symmetry\nsymmetry_zmax = symmetry\n'
	} >"$bcfg"
}

wedge_case() {
	"$fv" mesh gen ramp --cells mixed --nx 30 --ny 16 --nz 2 --hi 1.5,1,0.1 --angle 10 -o "$tmp/w.su2" \
		>/dev/null 2>&1 || { echo "FAIL: mesh gen ramp"; exit 1; }
	sed "s|^file = wedge.su2|file = $tmp/w.su2|" "$top_srcdir/cases/wedge/wedge.cfg" >"$tmp/w.cfg"
}

# uniform_box_case NAME: gas at rest at uniform pressure 2 (free stream:
# Mach 0.5 at alpha 3 deg, p 1/1.4) in a perturbed mixed box [0,2]x[0,1.5]x[0,1]
# of slip walls, 3 iterations, as $tmp/NAME.cfg (mesh $tmp/box.su2); the
# caller appends further sections.
uniform_box_case() {
	"$fv" mesh gen box --cells mixed --nx 6 --ny 5 --nz 4 --hi 2,1.5,1 --perturb 0.2 -o "$tmp/box.su2" \
		>/dev/null 2>&1 || { echo "FAIL: mesh gen box"; exit 1; }
	cat >"$tmp/$1.cfg" <<'CFG'
[mesh]
file = box.su2
[flow]
mach = 0.5
alpha = 3
init = riemann
left = 1,0,2
right = 1,0,2
[numerics]
iterations = 3
[bc]
xmin = wall
xmax = wall
ymin = wall
ymax = wall
zmin = wall
zmax = wall
CFG
}

# cpu_gpu_pair CFG NAME ARGS...: the same run of CFG on CPU workers only
# ($tmp/NAME-cpu) and on the GPU only ($tmp/NAME-gpu), with $COMMON (GPU tests).
cpu_gpu_pair() {
	cfg=$1 name=$2
	shift 2
	for w in cpu gpu; do
		case $w in
		cpu) export STARPU_NCPU=2 STARPU_NCUDA=0 ;;
		gpu) export STARPU_NCPU=0 STARPU_NCUDA=1 ;;
		esac
		# shellcheck disable=SC2086
		"$fv" run "$cfg" output.dir="$tmp/$name-$w" ${COMMON:-} "$@" 2>"$tmp/err" ||
			{ cat "$tmp/err"; fail "$name on $w"; }
	done
}

# rk_cpu_gpu CFG NB LABEL: explicit RK2 (CFL 0.5) on NB blocks on the CPU
# and on the GPU (cpu_gpu_pair): the states after 1 iteration to 1e-12 and
# after 20 to 1e-11 of each quantity's largest value, and the histories of
# the 20 (hist_check).
rk_cpu_gpu() {
	for n in 1 20; do
		cpu_gpu_pair "$1" "rk-$2-$n" partition.blocks="$2" numerics.iterations=$n numerics.time=steady \
			numerics.cfl=0.5 numerics.cfl_max=0
		tol=1e-12
		[ "$n" = 20 ] && tol=1e-11
		"$py" "$top_srcdir/tests/cli/compare_runs.py" "$tmp/rk-$2-$n-cpu" "$tmp/rk-$2-$n-gpu" \
			"$3 RK2, $2 blocks, $n iterations: CPU vs GPU" "$tol" none || fails=$((fails + 1))
		[ "$n" = 20 ] && hist_check "$tmp/rk-$2-$n-cpu" "$tmp/rk-$2-$n-gpu" "$3 RK2, $2 blocks"
	done
}

# hist_check A B NAME: the x-momentum residual and CD columns of two runs'
# histories to 1e-9 relative (the other columns of a 2D case are round-off).
hist_check() {
	"$py" - "$1/history.csv" "$2/history.csv" "$3" <<'PY' || fail "$3: histories"
import csv, sys
a = list(csv.DictReader(open(sys.argv[1])))
b = list(csv.DictReader(open(sys.argv[2])))
worst = max(abs(float(x[k]) - float(y[k])) / max(abs(float(x[k])), 1e-300) for x, y in zip(a, b) for k in ("res_rhou", "CD"))
print("%s: res_rhou and CD histories %.2e (tol 1e-9)" % (sys.argv[3], worst))
sys.exit(0 if len(a) == len(b) and worst <= 1e-9 else 1)
PY
}

# check_markers LABEL INFO NAME:FACES:AREA...: each marker of a `fvstar mesh
# info` report INFO has these face counts and areas (as printed).
check_markers() {
	label=$1 info=$2
	shift 2
	for spec in "$@"; do
		mk=${spec%%:*} rest=${spec#*:}
		awk -v mk="$mk" -v n="${rest%:*}" -v a="${rest#*:}" '$1 == mk { found = 1; ok = $3 == n && $5 == a }
			END { exit found && ok ? 0 : 1 }' "$info" || fail "$label: marker $mk: $(grep "^  $mk " "$info")"
	done
}

# bad_gen KIND MESSAGE ARGS...: `fvstar mesh gen KIND ARGS` fails, saying MESSAGE.
bad_gen() {
	kind=$1 msg=$2
	shift 2
	if "$fv" mesh gen "$kind" "$@" -o "$tmp/bad.su2" >"$tmp/err" 2>&1; then
		fail "accepted: gen $kind $*"
	else
		grep -q -- "$msg" "$tmp/err" || { cat "$tmp/err"; fail "gen $kind $*: no '$msg'"; }
	fi
}
