#!/bin/sh
# SPDX-License-Identifier: MIT
# `make install DESTDIR=TMP` gives a fvstar that runs on its own StarPU: its
# RUNPATH starts with $ORIGIN, ldd resolves libstarpu inside TMP, and, with
# the build's StarPU directories hidden (a private mount namespace, when
# unshare works), `fvstar runtime check` passes and a traced run loads the
# installed FxT library and converts the trace with the installed
# starpu_fxt_tool. `make uninstall` removes every file again.
. "$top_srcdir/tests/cli/lib.sh"
# the make running the tests must not hand its jobserver to this one
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
make=${MAKE:-make}
dest="$tmp/d"
$make -C "$top_builddir" install DESTDIR="$dest" >"$tmp/install.log" 2>&1 || { tail -20 "$tmp/install.log"; exit 1; }
bin=$(find "$dest" -path '*/bin/fvstar' -type f | head -1)
[ -x "$bin" ] || { echo "FAIL: no bin/fvstar under $dest"; exit 1; }
prefix=$(dirname "$(dirname "$bin")")
for f in lib/fvstar/starpu/libstarpu-1.3.so.9 lib/fvstar/starpu-fxt/libstarpu-1.3.so.9 libexec/fvstar/starpu_fxt_tool; do
	[ -e "$prefix/$f" ] || fail "not installed: $f"
done
readelf -d "$bin" | grep -q 'RUNPATH.*\[\$ORIGIN/\.\./lib/fvstar/starpu:' || fail "RUNPATH: $(readelf -d "$bin" | grep RUNPATH)"
lib=$(ldd "$bin" | sed -n 's/^[[:space:]]*libstarpu-1.3.so.9 => \([^ ]*\) .*/\1/p')
case $lib in "$prefix"/*/fvstar/starpu/libstarpu-1.3.so.9) ;; *) fail "ldd: libstarpu from '$lib'" ;; esac
tlib=$(ldd "$prefix/libexec/fvstar/starpu_fxt_tool" | sed -n 's/^[[:space:]]*libstarpu-1.3.so.9 => \([^ ]*\) .*/\1/p')
if command -v patchelf >/dev/null 2>&1; then
	case $tlib in "$prefix"/*/fvstar/starpu-fxt/libstarpu-1.3.so.9) ;; *) fail "starpu_fxt_tool: libstarpu from '$tlib'" ;; esac
fi

# a tiny traced run from the installed binary
"$bin" mesh gen box --cells tet --nx 4 --ny 4 --nz 4 -o "$tmp/box.su2" >/dev/null 2>&1 || fail "mesh gen"
cat >"$tmp/box.cfg" <<'CFG'
[mesh]
file = box.su2
[flow]
mach = 0.5
[numerics]
iterations = 3
[bc]
xmin = farfield
xmax = farfield
ymin = wall
ymax = wall
zmin = wall
zmax = wall
[output]
vtu = no
CFG
# the build's StarPU (libraries and tools), hidden where we can
hide=
for v in FV_STARPU_RUNDIR FV_STARPU_LIBDIR FV_STARPU_BINDIR; do
	d=$(sed -n "s/^$v = //p" "$top_builddir/Makefile")
	[ -d "$d" ] && hide="$hide $d"
done
mkdir -p "$tmp/empty"
cat >"$tmp/run.sh" <<EOF2
for d in $hide; do mount --bind "$tmp/empty" "\$d" || exit 3; done
"$bin" runtime check >"$tmp/check.out" 2>&1 || { echo "runtime check failed"; cat "$tmp/check.out"; exit 1; }
cd "$tmp" && LD_DEBUG=libs "$bin" run box.cfg output.dir=out output.trace=tr >"$tmp/run.out" 2>"$tmp/run.err"
EOF2
hidden=no
if unshare -m sh -c "mount --bind '$tmp/empty' '$tmp/empty'" 2>/dev/null; then
	unshare -m sh "$tmp/run.sh"; rc=$?
	hidden=yes
else
	grep -v mount "$tmp/run.sh" >"$tmp/run2.sh"
	sh "$tmp/run2.sh"; rc=$?
fi
[ "$rc" = 0 ] || { fail "installed fvstar (build's StarPU hidden: $hidden): exit $rc"; grep -v '^ *[0-9]*:' "$tmp/run.err" | tail; }
grep -q "calling init: $prefix/lib/fvstar/starpu-fxt/libstarpu-1.3.so.9" "$tmp/run.err" ||
	fail "the traced run did not load $prefix/lib/fvstar/starpu-fxt/libstarpu-1.3.so.9"
for f in paje.trace tasks.rec dag.dot; do
	[ -s "$tmp/tr/$f" ] || fail "trace: no $f"
done
echo "installed under $prefix; build's StarPU hidden: $hidden; $(grep -c . "$tmp/tr/tasks.rec") lines in tasks.rec"

$make -C "$top_builddir" uninstall DESTDIR="$dest" >"$tmp/uninstall.log" 2>&1 || fail "make uninstall"
left=$(find "$dest" -type f -o -type l | head -5)
[ -z "$left" ] || fail "left after make uninstall: $left"
finish
