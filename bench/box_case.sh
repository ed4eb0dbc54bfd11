# SPDX-License-Identifier: MIT
# Sourced by the solver benchmarks: the case they all time.
# box_case BUILD N DIR NAME: a perturbed tet box of 6 N^3 cells
# (DIR/boxN.su2, made once) and DIR/NAME.cfg: Mach 0.5 free stream at 2
# degrees, every boundary far field, second order, SSP-RK2, local time
# step, no solution.vtu and no progress lines; iterations, blocks and the
# rest come from the command line of each run.
box_case() {
	[ -f "$3/box$2.su2" ] || "$1/fvstar" mesh gen box --cells tet -n "$2" --perturb 0.1 -o "$3/box$2.su2" 2>/dev/null
	cat >"$3/$4.cfg" <<CFG
[mesh]
file = box$2.su2
[flow]
mach = 0.5
alpha = 2
[bc]
xmin = farfield
xmax = farfield
ymin = farfield
ymax = farfield
zmin = farfield
zmax = farfield
[output]
vtu = no
progress_every = 0
CFG
}
