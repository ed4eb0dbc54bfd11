#!/bin/sh
# SPDX-License-Identifier: MIT
# The hostile-input probe of issue 28, as a test: well over 80 bad inputs
# and situations (case files, command-line overrides, SU2/Gmsh/CGNS meshes,
# restarts, output directories, runtime keys, signals, 2D alpha), each made
# here, each run under `timeout` (a hang is a failure), each classified:
#  refused  - exit status neither 0 nor a signal's, stderr has an
#             'fvstar: error:' line with the expected text (the file and
#             line, or the key), and the output directory, if any, is whole
#             (restart.bin passes its checksum, history.csv rows whole, no
#             temporary files);
#  accepted - exit 0 and the result checked (mostly: the history equal to a
#             reference run's).
# One line per input (ok/FAIL, class, name, the first error line or the
# first line of stderr), then the counts. Run by `make check`.
# The commands and checks are shell words expanded when they run (eval),
# hence the single quotes around "$d" and the like:
# shellcheck disable=SC2016
. "$top_srcdir/tests/cli/lib.sh"
cd "$tmp" || exit 1
wedge_case
T=${FV_PROBE_TIMEOUT:-30}
# p.cfg: the wedge case, 3 iterations, no plot file, quiet
sed 's/^iterations = 2000$/iterations = 3/; s/^residual_drop = 6$/residual_drop = 0/' "$tmp/w.cfg" >"$tmp/p.cfg"
printf '\n[output]\nprogress_every = 0\nvtu = no\n' >>"$tmp/p.cfg"
n_ref=0 n_acc=0

# whole DIR: the output directory is readable where it exists; sets $why
whole() {
	why=
	[ -d "$1" ] || return 0
	if [ -f "$1/restart.bin" ] && ! "$py" - "$1/restart.bin" <<'PY'; then
import struct, sys
raw = open(sys.argv[1], "rb").read()
h = 14695981039346656037
for b in raw[:-8]:
    h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
sys.exit(0 if len(raw) > 8 and struct.unpack("<Q", raw[-8:])[0] == h else 1)
PY
		why="restart.bin fails its checksum"
		return 1
	fi
	if [ -f "$1/history.csv" ]; then
		if [ -s "$1/history.csv" ] && [ "$(tail -c1 "$1/history.csv" | od -An -c | tr -d ' ')" != '\n' ]; then
			why="history.csv ends in a partial row"
			return 1
		fi
		awk -F, 'NR == 1 { nf = NF } NF != nf { bad = 1 } END { exit bad }' "$1/history.csv" ||
			{ why="history.csv has rows of another width"; return 1; }
	fi
	if [ -n "$(find "$1" -name '*.tmp*')" ]; then
		why="temporary files left: $(find "$1" -name '*.tmp*' | tr '\n' ' ')"
		return 1
	fi
	return 0
}

# say STATUS CLASS NAME TEXT
say() {
	if [ "$1" = ok ]; then
		printf 'ok   %-8s %-22s %s\n' "$2" "$3" "$(echo "$4" | LC_ALL=C tr -c '[:print:]\n' '?' | cut -c1-160)"
	else
		printf 'FAIL %-8s %-22s %s\n' "$2" "$3" "$(echo "$4" | LC_ALL=C tr -c '[:print:]\n' '?')"
		fails=$((fails + 1))
	fi
}

# attempt NAME COMMAND: runs the shell words COMMAND under timeout with $d
# the input's own output directory; sets rc and errline
attempt() {
	d="$tmp/out/$1"
	eval "timeout -k 5 $T $2" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
	rc=$?
	errline=$(grep -a -m1 '^fvstar: error: ' "$tmp/stderr")
}

# refused NAME TEXT COMMAND: refused, with TEXT in its error line
refused() {
	n_ref=$((n_ref + 1))
	attempt "$1" "$3"
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		say FAIL refused "$1" "hang: no exit in $T s"
	elif [ $rc = 0 ]; then
		say FAIL refused "$1" "accepted (exit 0): $(head -1 "$tmp/stderr")"
	elif [ $rc -gt 128 ]; then
		say FAIL refused "$1" "killed by signal $((rc - 128)): $(tail -2 "$tmp/stderr")"
	elif [ -z "$errline" ]; then
		say FAIL refused "$1" "exit $rc without an 'fvstar: error:' line: $(head -3 "$tmp/stderr")"
	elif ! printf '%s\n' "$errline" | grep -qF -- "$2"; then
		say FAIL refused "$1" "'$errline' does not say '$2'"
	elif ! whole "$d"; then
		say FAIL refused "$1" "output directory: $why"
	else
		say ok refused "$1" "$errline"
	fi
}

# accepted NAME CHECK COMMAND: exit 0 and the shell words CHECK succeed
accepted() {
	n_acc=$((n_acc + 1))
	attempt "$1" "$3"
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		say FAIL accepted "$1" "hang: no exit in $T s"
	elif [ $rc != 0 ]; then
		say FAIL accepted "$1" "exit $rc: ${errline:-$(tail -2 "$tmp/stderr")}"
	elif ! eval "$2"; then
		say FAIL accepted "$1" "wrong result ($2): $(grep -a -m1 '^fvstar: error\|^fvstar: warning' "$tmp/stderr")"
	elif ! whole "$d"; then
		say FAIL accepted "$1" "output directory: $why"
	else
		say ok accepted "$1" "$(grep -a -v '^;\|^\[\|^[a-z_0-9]* =\|^$\|effective case' "$tmp/stderr" | head -1)"
	fi
}

# same DIR: DIR's history equals the reference run's but for the wall clock
same() {
	cut -d, -f1,3- "$1/history.csv" >"$tmp/h.cmp" 2>/dev/null && cmp -s "$tmp/h.ref" "$tmp/h.cmp"
}
# close DIR: DIR's residual and drag histories within 1e-9 of the
# reference's (relative to each column's largest value)
close() {
	"$py" - "$tmp/ref/history.csv" "$1/history.csv" <<'PY'
import csv, os, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:])
tol = 1e-9 * float(os.environ.get("FV_TOL_SCALE", "1"))
keys = ("res_rho", "res_rhou", "res_rhoE", "CD")
big = {k: max(abs(float(x[k])) for x in a) for k in keys}
sys.exit(0 if len(a) == len(b) and all(abs(float(x[k]) - float(y[k])) <= tol * big[k]
                                       for x, y in zip(a, b) for k in keys) else 1)
PY
}
# said TEXT: the run's stderr has TEXT
said() { grep -aqF -- "$1" "$tmp/stderr"; }

# the reference: the wedge, 3 iterations
FV="\"\$fv\""
RUNX="$FV run \"\$tmp/p.cfg\""
RUN="$RUNX output.dir=\"\$d\""
mkdir -p "$tmp/out"
eval "$FV run \"\$tmp/p.cfg\" output.dir=\"\$tmp/ref\"" >/dev/null 2>"$tmp/ref.err" ||
	{ cat "$tmp/ref.err"; fail "reference run"; finish; }
cut -d, -f1,3- "$tmp/ref/history.csv" >"$tmp/h.ref"
[ "$(wc -l <"$tmp/h.ref")" = 4 ] || { fail "reference history: $(cat "$tmp/h.ref")"; finish; }

# ---------------------------------------------------------------- case files
# c NAME SED: the wedge case edited by sed into NAME.cfg
c() { sed "$2" "$tmp/p.cfg" >"$tmp/$1.cfg"; }
c sec 's/^\[flow\]$/[flwo]/'
refused cfg-unknown-section "sec.cfg:8: unknown section [flwo] (did you mean 'flow'?" "$FV run \"\$tmp/sec.cfg\" output.dir=\"\$d\""
c key 's/^mach = 2$/mahc = 2/'
refused cfg-unknown-key "key.cfg:8: [flow] unknown key 'mahc' (did you mean 'mach'?" "$FV run \"\$tmp/key.cfg\" output.dir=\"\$d\""
c keysec 's/^mach = 2$/cfl = 2/'
refused cfg-key-other-section "keysec.cfg:8: [flow] unknown key 'cfl' (did you mean numerics.cfl" "$FV run \"\$tmp/keysec.cfg\" output.dir=\"\$d\""
c num 's/^mach = 2$/mach = two/'
refused cfg-bad-number "num.cfg:8: [flow] mach = 'two': expected a number >= 0" "$FV run \"\$tmp/num.cfg\" output.dir=\"\$d\""
c numtail 's/^cfl = 1.5$/cfl = 1.5x/'
refused cfg-number-trailing "numtail.cfg:12: [numerics] cfl = '1.5x': expected a number > 0" "$FV run \"\$tmp/numtail.cfg\" output.dir=\"\$d\""
c neg 's/^mach = 2$/mach = -2/'
refused cfg-negative "neg.cfg:8: [flow] mach = '-2': expected a number >= 0" "$FV run \"\$tmp/neg.cfg\" output.dir=\"\$d\""
c nan 's/^mach = 2$/mach = nan/'
refused cfg-nan "nan.cfg:8: [flow] mach = 'nan'" "$FV run \"\$tmp/nan.cfg\" output.dir=\"\$d\""
c huge 's/^mach = 2$/mach = 1e999/'
refused cfg-overflow-real "huge.cfg:8: [flow] mach = '1e999'" "$FV run \"\$tmp/huge.cfg\" output.dir=\"\$d\""
c cfl0 's/^cfl = 1.5$/cfl = 0/'
refused cfg-zero-cfl "cfl0.cfg:12: [numerics] cfl = '0': expected a number > 0" "$FV run \"\$tmp/cfl0.cfg\" output.dir=\"\$d\""
c gam 's/^alpha = 0$/gamma = 1/'
refused cfg-gamma-range "gam.cfg:9: [flow] gamma = '1': expected a number > 1 and <= 10" "$FV run \"\$tmp/gam.cfg\" output.dir=\"\$d\""
c itf 's/^iterations = 3$/iterations = 2.5/'
refused cfg-iterations-real "itf.cfg:13: [numerics] iterations = '2.5': expected an integer >= 0" "$FV run \"\$tmp/itf.cfg\" output.dir=\"\$d\""
c itn 's/^iterations = 3$/iterations = -1/'
refused cfg-iterations-neg "itn.cfg:13: [numerics] iterations = '-1': expected an integer >= 0" "$FV run \"\$tmp/itn.cfg\" output.dir=\"\$d\""
c itb 's/^iterations = 3$/iterations = 99999999999/'
refused cfg-iterations-limit "itb.cfg:13: [numerics] iterations = '99999999999': expected an integer >= 0 (at most 2147483647, the integer limit)" "$FV run \"\$tmp/itb.cfg\" output.dir=\"\$d\""
c dup 's/^mach = 2$/mach = 2\nmach = 3/'
refused cfg-duplicate-key "dup.cfg:9: [flow] mach = '3': duplicate key (first set at line 8)" "$FV run \"\$tmp/dup.cfg\" output.dir=\"\$d\""
c dupsec 's/^\[partition\]$/[flow]\nmach = 3\n[partition]/'
refused cfg-duplicate-in-section "dupsec.cfg:25: [flow] mach = '3': duplicate key (first set at line 8)" "$FV run \"\$tmp/dupsec.cfg\" output.dir=\"\$d\""
c dupbc 's/^wall = wall$/wall = wall\nwall = symmetry/'
refused cfg-duplicate-bc "dupbc.cfg:21: [bc] wall = 'symmetry': duplicate key (first set at line 20)" "$FV run \"\$tmp/dupbc.cfg\" output.dir=\"\$d\""
c enum 's/^\[flow\]$/[flow]\nmodel = eular/'
refused cfg-enum "enum.cfg:8: [flow] model = 'eular': expected euler, laminar or sa" "$FV run \"\$tmp/enum.cfg\" output.dir=\"\$d\""
c bcenum 's/^wall = wall$/wall = wal/'
refused cfg-bc-enum "bcenum.cfg:20: [bc] wall = 'wal': expected farfield, wall" "$FV run \"\$tmp/bcenum.cfg\" output.dir=\"\$d\""
c bcnone 's/^top = supersonic_outflow$/top = supersonic_outflow\nnosuch = wall/'
refused cfg-bc-no-marker "[bc] nosuch = wall: the mesh ($tmp/w.su2) has no marker 'nosuch' (its markers:" "$FV run \"\$tmp/bcnone.cfg\" output.dir=\"\$d\""
c bcmiss '/^top = /d'
refused cfg-marker-without-bc "marker 'top' has no boundary condition in [bc] of $tmp/bcmiss.cfg (add 'top = wall'" "$FV run \"\$tmp/bcmiss.cfg\" output.dir=\"\$d\""
: >"$tmp/empty.cfg"
refused cfg-empty "empty.cfg: [mesh] file is not set" "$FV run \"\$tmp/empty.cfg\" output.dir=\"\$d\""
printf '; only a comment\n\n' >"$tmp/comment.cfg"
refused cfg-comments-only "comment.cfg: [mesh] file is not set" "$FV run \"\$tmp/comment.cfg\" output.dir=\"\$d\""
"$py" -c 'import sys, random; r = random.Random(28); sys.stdout.buffer.write(bytes(r.randrange(1, 256) for _ in range(150)))' >"$tmp/junk.cfg"
refused cfg-binary-junk "junk.cfg:1: " "$FV run \"\$tmp/junk.cfg\" output.dir=\"\$d\""
printf '[mesh]\nfile = w.su2\n[flow]\nma\0ch = 2\n' >"$tmp/nul.cfg"
refused cfg-nul-byte "nul.cfg:4: NUL byte: not a text file" "$FV run \"\$tmp/nul.cfg\" output.dir=\"\$d\""
{ printf '[flow]\n; '; head -c 5000 /dev/zero | tr '\0' x; printf '\n'; } >"$tmp/long.cfg"
refused cfg-long-line "long.cfg:2: line longer than" "$FV run \"\$tmp/long.cfg\" output.dir=\"\$d\""
c nokv 's/^mach = 2$/mach 2/'
refused cfg-no-equals "nokv.cfg:8: expected '[section]', 'key = value' or a comment" "$FV run \"\$tmp/nokv.cfg\" output.dir=\"\$d\""
c bracket 's/^\[flow\]$/[flow/'
refused cfg-open-bracket "bracket.cfg:7: expected '[section]'" "$FV run \"\$tmp/bracket.cfg\" output.dir=\"\$d\""
{ echo "mach = 2"; cat "$tmp/p.cfg"; } >"$tmp/nosec.cfg"
refused cfg-before-section "nosec.cfg:1: mach = '2' comes before any [section]" "$FV run \"\$tmp/nosec.cfg\" output.dir=\"\$d\""
c nomesh "s|^file = .*|file = $tmp/nope.su2|"
refused cfg-mesh-missing "$tmp/nope.su2: cannot open" "$FV run \"\$tmp/nomesh.cfg\" output.dir=\"\$d\""
refused cfg-missing "$tmp/nope.cfg: cannot open" "$FV run \"\$tmp/nope.cfg\" output.dir=\"\$d\""
mkdir "$tmp/dir.cfg"
refused cfg-directory "dir.cfg: is a directory, not a regular file" "$FV run \"\$tmp/dir.cfg\" output.dir=\"\$d\""
mkfifo "$tmp/fifo.cfg"
refused cfg-fifo "fifo.cfg: is a named pipe (FIFO), not a regular file" "$FV run \"\$tmp/fifo.cfg\" output.dir=\"\$d\""
refused cfg-dev-null "/dev/null: is a character device, not a regular file" "$FV run /dev/null output.dir=\"\$d\""
c blocks 's/^blocks = 4$/blocks = 100000/'
refused cfg-too-many-blocks "cannot split 3580 cells into 100000 blocks (need 1 <= blocks <= cells)" "$FV run \"\$tmp/blocks.cfg\" output.dir=\"\$d\""
# accepted spellings of the same case: CRLF line ends, a UTF-8 BOM, comments
# and blanks, a quoted value; each gives the reference history
sed 's/$/\r/' "$tmp/p.cfg" >"$tmp/crlf.cfg"
accepted cfg-crlf 'same "$d"' "$FV run \"\$tmp/crlf.cfg\" output.dir=\"\$d\""
{ printf '\357\273\277'; cat "$tmp/p.cfg"; } >"$tmp/bom.cfg"
accepted cfg-utf8-bom 'same "$d"' "$FV run \"\$tmp/bom.cfg\" output.dir=\"\$d\""
c spaced 's/^mach = 2$/  mach   =   2   ; the Mach number\n# a comment\n\n/'
accepted cfg-blanks-comments 'same "$d"' "$FV run \"\$tmp/spaced.cfg\" output.dir=\"\$d\""
c quoted 's/^mach = 2$/mach = "2"/'
accepted cfg-quoted-value 'same "$d"' "$FV run \"\$tmp/quoted.cfg\" output.dir=\"\$d\""

# ------------------------------------------------- command-line overrides
refused arg-bad-number "command line: [numerics] cfl = 'abc': expected a number > 0" "$RUN numerics.cfl=abc"
refused arg-empty-value "command line: [numerics] cfl = '': expected a number > 0" "$RUN numerics.cfl="
refused arg-unknown-section "command line: unknown section [nosuch]" "$RUN nosuch.key=1"
refused arg-section-typo "command line: unknown section [numeric] (did you mean 'numerics'?" "$RUN numeric.cfl=1"
refused arg-unknown-key "command line: [numerics] unknown key 'cfll' (did you mean 'cfl'?" "$RUN numerics.cfll=1"
refused arg-no-equals "command line: 'bogus' is not section.key=value (as in numerics.cfl=2)" "$RUN bogus"
refused arg-no-key "command line: '=1' is not section.key=value" "$RUN =1"
refused arg-empty-key "command line: 'numerics.' is not section.key" "$RUN numerics.=1"
refused arg-given-twice "command line: [numerics] cfl = '3': given twice" "$RUN numerics.cfl=2 numerics.cfl=3"
refused arg-bc-enum "command line: [bc] wall = 'wal': expected farfield, wall" "$RUN bc.wall=wal"
refused arg-bc-no-marker "command line: [bc] nosuchmarker = wall: the mesh ($tmp/w.su2) has no marker 'nosuchmarker'" "$RUN bc.nosuchmarker=wall"
refused arg-inf "command line: [flow] mach = 'inf'" "$RUN flow.mach=inf"
refused arg-option "command line: '--bogus' is not section.key=value" "$RUN --bogus"
refused arg-unknown-command "unknown command 'rnu'" "$FV rnu \"\$tmp/w.cfg\""
# an override equal to the file's value, or the case's own value again
accepted arg-same-value 'same "$d"' "$RUN flow.mach=2 numerics.cfl=1.5"
# another block count sums in another order: the history to round-off
accepted arg-one-block 'close "$d"' "$RUN partition.blocks=1"

# ---------------------------------------------------------------- SU2 meshes
cp "$top_srcdir/tests/data/hex1.su2" "$tmp/good.su2"   # one hexahedron, one marker
INFO="$FV mesh info"
# s NAME SED: good.su2 edited into NAME.su2
s() { sed "$2" "$tmp/good.su2" >"$tmp/$1.su2"; }
accepted su2-good 'grep -q "^  all " "$tmp/stdout"' "$INFO \"\$tmp/good.su2\""
s npmiss '/^NPOIN= 8$/d'
refused su2-npoin-missing "npmiss.su2:4: more records than NELEM= 1" "$INFO \"\$tmp/npmiss.su2\""
s npneg 's/^NPOIN= 8$/NPOIN= -5/'
refused su2-npoin-negative "npneg.su2:4: NPOIN= -5 is negative" "$INFO \"\$tmp/npneg.su2\""
s npbig 's/^NPOIN= 8$/NPOIN= 1000000000000/'
refused su2-npoin-overflow "npbig.su2:4: NPOIN= 1000000000000 is beyond the limit of 2147483646" "$INFO \"\$tmp/npbig.su2\""
s npword 's/^NPOIN= 8$/NPOIN= eight/'
refused su2-npoin-word "npword.su2:4: expected an integer for NPOIN=, found 'eight'" "$INFO \"\$tmp/npword.su2\""
s neneg 's/^NELEM= 1$/NELEM= -1/'
refused su2-nelem-negative "neneg.su2:2: NELEM= -1 is negative" "$INFO \"\$tmp/neneg.su2\""
s nehuge 's/^NELEM= 1$/NELEM= 99999999999999999999/'
refused su2-nelem-overflow "nehuge.su2:2: NELEM= 99999999999999999999 is beyond the limit of a 64-bit integer" "$INFO \"\$tmp/nehuge.su2\""
s newrong 's/^NELEM= 1$/NELEM= 500/'
refused su2-nelem-wrong "newrong.su2:2: NELEM= 500 is more records than the file holds before the next section" "$INFO \"\$tmp/newrong.su2\""
s nmneg 's/^NMARK= 1$/NMARK= -1/'
refused su2-nmark-negative "nmneg.su2:13: NMARK= -1 is negative" "$INFO \"\$tmp/nmneg.su2\""
s nmbig 's/^NMARK= 1$/NMARK= 1000000000000/'
refused su2-nmark-overflow "nmbig.su2:13: NMARK= 1000000000000 is beyond the limit" "$INFO \"\$tmp/nmbig.su2\""
s nmmiss '/^NMARK= 1$/d'
refused su2-nmark-missing "nmmiss.su2:13: MARKER_TAG= outside the NMARK= section (NMARK= missing or too small)" "$INFO \"\$tmp/nmmiss.su2\""
s beneg 's/^MARKER_ELEMS= 6$/MARKER_ELEMS= -1/'
refused su2-belem-negative "beneg.su2:15: MARKER_ELEMS= -1 is negative" "$INFO \"\$tmp/beneg.su2\""
s ndime 's/^NDIME= 3$/NDIME= 4/'
refused su2-ndime-4 "ndime.su2:1: NDIME= 4: expected 2 or 3" "$INFO \"\$tmp/ndime.su2\""
# cut at several places: within a keyword, in the elements, in the points,
# before NMARK=, after MARKER_TAG=, in the boundary elements
for cut in 12:2 30:3 60:4 100:13 130:15 150:15 175:19; do
	head -c "${cut%:*}" "$tmp/good.su2" >"$tmp/cut${cut%:*}.su2"
	refused "su2-truncated-at-${cut%:*}" "cut${cut%:*}.su2:${cut#*:}: truncated" "$INFO \"\$tmp/cut${cut%:*}.su2\""
done
s type 's/^12 0 1/15 0 1/'
refused su2-element-type "type.su2:3: unknown element type 15" "$INFO \"\$tmp/type.su2\""
s btype 's/^9 4 5 6 7$/99 4 5 6 7/'
refused su2-boundary-type "btype.su2:17: marker all: element type 99 is not a triangle (5) or a quadrilateral (9)" "$INFO \"\$tmp/btype.su2\""
s range 's/^12 0 1 2 3 4 5 6 7$/12 0 1 2 3 4 5 6 17/'
refused su2-node-out-of-range "range.su2:3: hexahedron: node id 17 out of range" "$INFO \"\$tmp/range.su2\""
s nodeneg 's/^12 0 1 2 3 4 5 6 7$/12 0 1 2 3 4 5 6 -1/'
refused su2-node-negative "nodeneg.su2:3: hexahedron: node id -1 out of range [0, 8)" "$INFO \"\$tmp/nodeneg.su2\""
s brange 's/^9 4 5 6 7$/9 4 5 6 70/'
refused su2-bnode-out-of-range "brange.su2:17: boundary element: node id 70 out of range [0, 8)" "$INFO \"\$tmp/brange.su2\""
s cnan 's/^1 1 1$/1 nan 1/'
refused su2-coord-nan "cnan.su2:11: point coordinate is not finite" "$INFO \"\$tmp/cnan.su2\""
s cinf 's/^1 1 1$/1 inf 1/'
refused su2-coord-inf "cinf.su2:11: point coordinate is not finite ('inf')" "$INFO \"\$tmp/cinf.su2\""
s cbig 's/^1 1 1$/1 1e308 1/'
refused su2-coord-1e308 "cbig.su2:11: point coordinate 1e+308 is beyond the limit of 1e+12" "$INFO \"\$tmp/cbig.su2\""
s cword 's/^1 1 1$/1 one 1/'
refused su2-coord-word "cword.su2:11: expected a real number for point coordinate, found 'one'" "$INFO \"\$tmp/cword.su2\""
s inverted 's/^12 0 1 2 3 4 5 6 7$/12 4 5 6 7 0 1 2 3/'
refused su2-inverted "inverted.su2: element 0 (hexahedron" "$INFO \"\$tmp/inverted.su2\""
s unmarked '/^9 4 5 6 7$/d; s/MARKER_ELEMS= 6/MARKER_ELEMS= 5/'
refused su2-unmarked-face "unmarked.su2: boundary face (nodes 4 5 6 7) of element 0 is under no marker" "$INFO \"\$tmp/unmarked.su2\""
awk '/^NMARK= 1$/ { print "NMARK= 2"; next }
     /^MARKER_ELEMS= 6$/ { print "MARKER_ELEMS= 3"; k = 0; next }
     /^9 / && ++k == 4 { print "MARKER_TAG= all"; print "MARKER_ELEMS= 3" }
     { print }' "$tmp/good.su2" >"$tmp/dupmark.su2"
refused su2-duplicate-marker "dupmark.su2:19: marker name 'all' comes twice" "$INFO \"\$tmp/dupmark.su2\""
: >"$tmp/empty.su2"
refused su2-empty "empty.su2: missing NDIME= section" "$INFO \"\$tmp/empty.su2\""
"$py" -c 'import sys, random; r = random.Random(2); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(2000)))' >"$tmp/junk.su2"
refused su2-binary-junk "junk.su2:1: expected a keyword (NDIME=, NELEM=, NPOIN=, NMARK=)" "$INFO \"\$tmp/junk.su2\""
mkfifo "$tmp/fifo.su2"
refused su2-fifo "fifo.su2: is a named pipe (FIFO), not a regular file" "$INFO \"\$tmp/fifo.su2\""
mkdir "$tmp/dir.su2"
refused su2-directory "dir.su2: is a directory, not a regular file" "$INFO \"\$tmp/dir.su2\""
# through a run: the wedge mesh with the outlet renamed to the inlet (the
# issue's silent merge), and with a marker the case gives no condition
sed 's/^MARKER_TAG= outlet$/MARKER_TAG= inlet/' "$tmp/w.su2" >"$tmp/wdup.su2"
refused run-duplicate-marker "wdup.su2:" "$RUN mesh.file=\"\$tmp/wdup.su2\""
said "marker name 'inlet' comes twice" || say FAIL refused run-duplicate-marker-msg "$(grep -a -m1 error "$tmp/stderr")"
sed 's/^MARKER_TAG= top$/MARKER_TAG= lid/' "$tmp/w.su2" >"$tmp/wlid.su2"
refused run-marker-without-bc "marker 'lid' has no boundary condition in [bc] of $tmp/p.cfg (add 'lid = wall'" "$RUN mesh.file=\"\$tmp/wlid.su2\""
cp "$tmp/w.su2" "$tmp/wcopy.su2"
accepted run-mesh-copy 'same "$d"' "$RUN mesh.file=\"\$tmp/wcopy.su2\""

# ------------------------------------------------------------ Gmsh and CGNS
printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 1000000 1 1000000\n' >"$tmp/cut.msh"
refused msh-truncated "cut.msh:5: truncated: number of nodes 1000000, but the file ends at line 5" "$INFO \"\$tmp/cut.msh\""
printf '$MeshFormat\n9.9 0 8\n$EndMeshFormat\n' >"$tmp/ver.msh"
refused msh-version "ver.msh:2: unsupported MSH version '9.9'" "$INFO \"\$tmp/ver.msh\""
printf '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n2\n1 15 2000000 1 1 1\n2 15 2 1 1 1\n$EndElements\n' \
	>"$tmp/tags.msh"
refused msh-tag-count "tags.msh:10: element 1: 2000000 tags, more than the rest of its line holds" "$INFO \"\$tmp/tags.msh\""
printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 2 1 2\n3 1 0 2\n1\n2\n0 0 0\nx 1 0\n$EndNodes\n' >"$tmp/coord.msh"
refused msh-bad-coordinate "coord.msh:10: expected a real number for x coordinate, found 'x'" "$INFO \"\$tmp/coord.msh\""
{
	printf '$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n2 1 "wall"\n2 2 "wall"\n$EndPhysicalNames\n'
	printf '$Entities\n0 0 2 1\n1 0 0 0 1 1 0 1 1 0\n2 0 0 1 1 1 1 1 2 0\n1 0 0 0 1 1 1 0 0\n$EndEntities\n'
	printf '$Nodes\n1 8 1 8\n3 1 0 8\n1\n2\n3\n4\n5\n6\n7\n8\n'
	printf '0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n$EndNodes\n'
	printf '$Elements\n3 7 1 7\n2 1 3 1\n1 1 2 3 4\n2 2 3 5\n2 5 6 7 8\n3 1 2 6 5\n4 2 3 7 6\n5 3 4 8 7\n6 4 1 5 8\n'
	printf '3 1 5 1\n7 1 2 3 4 5 6 7 8\n$EndElements\n'
} >"$tmp/dup.msh"
sed 's/^3 1 0 8$/3 1 1 8/' "$tmp/dup.msh" >"$tmp/param.msh"
refused msh-parametric "param.msh:26: parametric node: the line ends before its parametric coordinate u" "$INFO \"\$tmp/param.msh\""
sed 's/^2 2 "wall"$/2 2 "lid"/' "$tmp/dup.msh" >"$tmp/good.msh"
accepted msh-good 'grep -q "^  wall  *faces 1 " "$tmp/stdout" && grep -q "^  lid  *faces 5 " "$tmp/stdout"' "$INFO \"\$tmp/good.msh\""
refused msh-duplicate-name "dup.msh:7: marker name 'wall' comes twice" "$INFO \"\$tmp/dup.msh\""
mkfifo "$tmp/fifo.msh"
refused msh-fifo "fifo.msh: is a named pipe (FIFO), not a regular file" "$INFO \"\$tmp/fifo.msh\""
# (a build without the CGNS library says so for any .cgns)
printf 'hello\n' >"$tmp/junk.cgns"
bad_cgns="not a readable CGNS file" fifo_cgns="is a named pipe (FIFO), not a regular file" no_cgns="cannot open"
if "$fv" mesh info "$tmp/junk.cgns" 2>&1 | grep -q "fvstar was built without CGNS"; then
	bad_cgns="fvstar was built without CGNS" fifo_cgns=$bad_cgns no_cgns=$bad_cgns
fi
refused cgns-junk "junk.cgns: $bad_cgns" "$INFO \"\$tmp/junk.cgns\""
: >"$tmp/empty.cgns"
refused cgns-empty "empty.cgns: $bad_cgns" "$INFO \"\$tmp/empty.cgns\""
mkfifo "$tmp/fifo.cgns"
refused cgns-fifo "fifo.cgns: $fifo_cgns" "$INFO \"\$tmp/fifo.cgns\""
refused cgns-missing "nope.cgns: $no_cgns" "$INFO \"\$tmp/nope.cgns\""
printf 'hello\n' >"$tmp/junk.stl"
refused mesh-unknown-format "junk.stl: unknown mesh format" "$INFO \"\$tmp/junk.stl\""

# ---------------------------------------------------------------- restarts
B="$tmp/ref/restart.bin"
size=$(wc -c <"$B")
head -c $((size / 2)) "$B" >"$tmp/half.bin"
refused restart-truncated "half.bin: truncated: $((size / 2)) bytes, a restart of 3580 cells has $size" "$RUN output.restart=\"\$tmp/half.bin\""
head -c 20 "$B" >"$tmp/head.bin"
refused restart-header-cut "head.bin: header: unexpected end of file (truncated)" "$RUN output.restart=\"\$tmp/head.bin\""
"$py" - "$B" "$tmp/flip.bin" <<'PY'
import sys
raw = bytearray(open(sys.argv[1], "rb").read())
raw[len(raw) // 2] ^= 0x40
open(sys.argv[2], "wb").write(raw)
PY
refused restart-bad-checksum "flip.bin: checksum mismatch" "$RUN output.restart=\"\$tmp/flip.bin\""
: >"$tmp/empty.bin"
refused restart-empty "empty.bin: not an fvstar restart file (no FVSTARRS magic)" "$RUN output.restart=\"\$tmp/empty.bin\""
head -c 4096 /dev/urandom >"$tmp/junk.bin"
refused restart-junk "junk.bin: not an fvstar restart file (no FVSTARRS magic)" "$RUN output.restart=\"\$tmp/junk.bin\""
refused restart-missing "nope.bin: cannot open" "$RUN output.restart=\"\$tmp/nope.bin\""
mkfifo "$tmp/fifo.bin"
refused restart-fifo "fifo.bin: is a named pipe (FIFO), not a regular file" "$RUN output.restart=\"\$tmp/fifo.bin\""
"$fv" mesh gen ramp --cells mixed --nx 20 --ny 16 --nz 2 --hi 1.5,1,0.1 --angle 10 -o "$tmp/w20.su2" >/dev/null 2>&1
refused restart-other-mesh "restart.bin: cell count differs: the restart holds 3580 cells, $tmp/w20.su2 has 2402" "$RUN mesh.file=\"\$tmp/w20.su2\" output.restart=\"\$B\""
"$fv" mesh gen ramp --cells mixed --nx 30 --ny 16 --nz 2 --hi 1.5,1,0.1 --angle 12 -o "$tmp/w12.su2" >/dev/null 2>&1
refused restart-same-count-mesh "mesh checksum differs: the restart was written for another mesh" "$RUN mesh.file=\"\$tmp/w12.su2\" output.restart=\"\$B\""
LAM="flow.model=laminar flow.reynolds=1000 bc.wall=noslip"
refused restart-other-model "$B: a restart of another physical model: written by a run of [flow] model = euler, this run's model is laminar" \
	"$RUN $LAM output.restart=\"\$B\""
said "set output.restart_from_model = euler" || say FAIL refused restart-other-model-key "the key is not named"
accepted restart-other-model-key 'said "(output.restart_from_model = euler)" && said "continuing from"' \
	"$RUN $LAM output.restart=\"\$B\" output.restart_from_model=euler"
refused restart-wrong-model-key "output.restart_from_model = sa accepts a restart of model sa only" \
	"$RUN $LAM output.restart=\"\$B\" output.restart_from_model=sa"
# continuing: 3 then 3 more iterations give the 6-iteration run's history
eval "$FV run \"\$tmp/p.cfg\" output.dir=\"\$tmp/ref6\" numerics.iterations=6" >/dev/null 2>&1
cp -r "$tmp/ref" "$tmp/cont"
accepted restart-continue 'cmp -s "$tmp/ref6/restart.bin" "$d/restart.bin" && [ "$(cut -d, -f1,3- "$d/history.csv")" = "$(cut -d, -f1,3- "$tmp/ref6/history.csv")" ]' \
	"$FV run \"\$tmp/p.cfg\" output.dir=\"\$tmp/cont\" output.restart=\"\$tmp/cont/restart.bin\"; d=\"\$tmp/cont\""

# ------------------------------------------------------- output directories
echo x >"$tmp/afile"
refused outdir-is-a-file "$tmp/afile exists and is not a directory" "$RUNX output.dir=\"\$tmp/afile\""
refused outdir-under-a-file "/dev/null exists and is not a directory" "$RUNX output.dir=/dev/null/out"
refused outdir-cannot-create "cannot create directory /proc/fvstar-probe" "$RUNX output.dir=/proc/fvstar-probe"
if [ "$(id -u)" != 0 ]; then
	mkdir -p "$tmp/ro"
	chmod 555 "$tmp/ro"
	refused outdir-not-writable "$tmp/ro" "$RUNX output.dir=\"\$tmp/ro/out\""
	chmod 755 "$tmp/ro"
fi
host=$(uname -n)
mkdir -p "$tmp/out/outdir-locked"
printf 'pid %s\nhost %s\nstarted 2026-01-01T00:00:00Z\n' $$ "$host" >"$tmp/out/outdir-locked/.fvstar.lock"
refused outdir-locked "output directory $tmp/out/outdir-locked is in use by another run: pid $$ on host $host" "$RUN"
[ -f "$tmp/out/outdir-locked/history.csv" ] && say FAIL refused outdir-locked-wrote "a refused run wrote history.csv"
mkdir -p "$tmp/out/outdir-far"
printf 'pid 4242\nhost elsewhere.example.org\nstarted 2026-01-01T00:00:00Z\n' >"$tmp/out/outdir-far/.fvstar.lock"
refused outdir-far "pid 4242 on host elsewhere.example.org" "$RUN"
sh -c 'exit 0' &
dead=$!
wait $dead
mkdir -p "$tmp/out/outdir-stale-lock"
printf 'pid %s\nhost %s\nstarted 2026-01-01T00:00:00Z\n' $dead "$host" >"$tmp/out/outdir-stale-lock/.fvstar.lock"
accepted outdir-stale-lock 'said "took over the stale lock of pid $dead" && same "$d" && [ ! -e "$d/.fvstar.lock" ]' "$RUN"
# a live run holds its directory: a second run is refused, naming it
"$fv" run "$tmp/p.cfg" output.dir="$tmp/busy" numerics.iterations=1000000 >/dev/null 2>"$tmp/busy.err" &
bg=$!
k=0
until grep -q "^pid $bg\$" "$tmp/busy/.fvstar.lock" 2>/dev/null || [ $k -ge 300 ]; do sleep 0.1; k=$((k + 1)); done
refused outdir-live-run "output directory $tmp/busy is in use by another run: pid $bg" "$RUNX output.dir=\"\$tmp/busy\""
kill -0 $bg 2>/dev/null || say FAIL refused outdir-live-run-kept "the first run stopped: $(tail -1 "$tmp/busy.err")"
kill -TERM $bg
wait $bg
[ $? = 143 ] || say FAIL signal outdir-live-run-stop "not 143 on SIGTERM"

# ------------------------------------------------------------ runtime keys
refused runtime-sched "runtime.sched = nosuchsched: StarPU has no scheduler 'nosuchsched'" "$RUN runtime.sched=nosuchsched"
refused runtime-env-sched "STARPU_SCHED=bogus (environment): StarPU has no scheduler 'bogus'" "env STARPU_SCHED=bogus $RUN"
refused runtime-ncpu "runtime.ncpu = 65536: more CPU workers than the" "$RUN runtime.ncpu=65536"
refused runtime-env-ncpu "STARPU_NCPU=two (environment): expected a worker count >= 0" "env STARPU_NCPU=two $RUN"
refused runtime-ncpu-neg "[runtime] ncpu = '-3'" "$RUN runtime.ncpu=-3"
gpus=$(cuda_workers)
refused runtime-ncuda "runtime.ncuda = $((gpus + 1)): " "$RUN runtime.ncuda=$((gpus + 1))"
accepted runtime-sched-eager 'said "scheduler eager (asked for in runtime.sched)" && same "$d"' "$RUN runtime.sched=eager"

# ----------------------------------------------------------------- signals
# stopped DIR SIG STATUS: a long run stopped by SIG after 5 rows: STATUS,
# the iteration reached and the command that continues; the restart reads
stopped() {
	n_acc=$((n_acc + 1))
	sd="$tmp/$1"
	"$fv" run "$tmp/p.cfg" output.dir="$sd" numerics.iterations=100000 output.restart_every=4 >/dev/null \
		2>"$tmp/$1.err" &
	p=$!
	k=0
	until [ -f "$sd/history.csv" ] && [ "$(wc -l <"$sd/history.csv")" -gt 5 ] || [ $k -ge 300 ]; do
		sleep 0.1
		k=$((k + 1))
	done
	kill -"$2" $p
	k=0
	while kill -0 $p 2>/dev/null && [ $k -lt 300 ]; do sleep 0.1; k=$((k + 1)); done
	if kill -0 $p 2>/dev/null; then
		kill -9 $p
		wait $p
		say FAIL signal "$1" "no exit 30 s after SIG$2"
		return
	fi
	wait $p
	st=$?
	it=$(sed -n "s/^fvstar: stopped by SIG$2 at iteration \([0-9]*\) of 100000; .*restart.bin holds iteration \1\$/\1/p" \
		"$tmp/$1.err")
	if [ $st != "$3" ]; then
		say FAIL signal "$1" "exit $st, not $3"
	elif [ -z "$it" ] || ! grep -q "^fvstar: to continue: fvstar run " "$tmp/$1.err"; then
		say FAIL signal "$1" "no iteration reached or continue command: $(tail -2 "$tmp/$1.err")"
	elif ! whole "$sd"; then
		say FAIL signal "$1" "output directory: $why"
	elif ! "$fv" run "$tmp/p.cfg" output.dir="$tmp/$1-more" output.restart="$sd/restart.bin" >/dev/null \
		2>"$tmp/$1-more.err" || ! grep -q "continuing from .* at iteration $((it + 1))" "$tmp/$1-more.err"; then
		say FAIL signal "$1" "its restart does not continue: $(grep -m1 error "$tmp/$1-more.err")"
	else
		say ok signal "$1" "$(grep -m1 "^fvstar: stopped by" "$tmp/$1.err")"
	fi
}
stopped sigterm TERM 143
stopped sigint INT 130

# ---------------------------------------------------------------- 2D alpha
"$py" - "$tmp/m2d.su2" <<'PY'
nx, ny = 8, 4
n = lambda i, j: j * (nx + 1) + i
with open(__import__("sys").argv[1], "w") as f:
    f.write("NDIME= 2\nNELEM= %d\n" % (nx * ny))
    for j in range(ny):
        for i in range(nx):
            f.write("9 %d %d %d %d\n" % (n(i, j), n(i + 1, j), n(i + 1, j + 1), n(i, j + 1)))
    f.write("NPOIN= %d\n" % ((nx + 1) * (ny + 1)))
    for j in range(ny + 1):
        for i in range(nx + 1):
            f.write("%g %g\n" % (4.0 * i / nx, 0.05 * (1 - (2.0 * i / nx - 1) ** 2) * (j == 0) + 2.0 * j / ny))
    e = [(n(i + 1, ny), n(i, ny)) for i in range(nx)] + [(n(0, j + 1), n(0, j)) for j in range(ny)]
    e += [(n(nx, j), n(nx, j + 1)) for j in range(ny)]
    f.write("NMARK= 2\nMARKER_TAG= wall\nMARKER_ELEMS= %d\n" % nx)
    for i in range(nx):
        f.write("3 %d %d\n" % (n(i, 0), n(i + 1, 0)))
    f.write("MARKER_TAG= farfield\nMARKER_ELEMS= %d\n" % len(e))
    for a, b in e:
        f.write("3 %d %d\n" % (a, b))
PY
cat >"$tmp/c2d.cfg" <<CFG
[mesh]
file = $tmp/m2d.su2
[flow]
mach = 0.5
[numerics]
iterations = 5
residual_drop = 0
[bc]
wall = wall
farfield = farfield
symmetry_zmin = symmetry
symmetry_zmax = symmetry
[forces]
markers = wall
[output]
progress_every = 0
vtu = no
CFG
accepted 2d-alpha 'said "axes: lift along y, drag along x (2D mesh" && "$py" -c "import json, sys; f = json.load(open(sys.argv[1]))[\"forces\"]; sys.exit(0 if abs(f[\"CL\"]) > 1e-6 and abs(f[\"CS\"]) <= $(tol 1e-12) else 1)" "$d/summary.json"' \
	"$FV run \"\$tmp/c2d.cfg\" output.dir=\"\$d\" flow.alpha=2"
refused 2d-beta "[flow] beta = 2 on a 2D mesh" "$FV run \"\$tmp/c2d.cfg\" output.dir=\"\$d\" flow.beta=2"

ls "$tmp"/core* >/dev/null 2>&1 && fail "core files: $(ls "$tmp"/core*)"
n=$((n_ref + n_acc))
echo "$n inputs: $n_ref to be refused, $n_acc to be accepted; $fails failure(s)"
finish
