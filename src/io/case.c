/* SPDX-License-Identifier: MIT */
/* The case file: one table of key descriptors drives defaults, parsing
 * (through inih), command-line overrides, printing, JSON and the docs. */
#include "fvstar/case.h"
#include "fvstar/output.h"
#include "io/json.h"
#include "physics/bc.h"
#include "fvstar/runtime.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"

typedef enum key_type {
	T_INT,    /* int in [lo, hi] */
	T_REAL,   /* double in lo..hi, ends open or closed */
	T_ENUM,   /* int: names[i] stores values[i] (or i) */
	T_BOOL,   /* int 0/1 from no/yes */
	T_STR,    /* char[size], any text */
	T_WORD,   /* char[size], letters digits - _ */
	T_PATH,   /* char[size]; from the case file, relative to its directory */
	T_LIST,   /* char[size], comma-separated names, stored as "a,b" */
	T_VEC3,   /* double[3] "x,y,z" */
	T_STATE,  /* double[3] "rho,u,p", rho > 0, p > 0 */
	T_BC      /* any other key of its section: marker = kind, into bc[] */
} key_type_t;

typedef struct key_desc {
	const char *section;
	const char *name;
	key_type_t type;
	size_t off;
	size_t size;               /* string types: array size */
	const char *const *names;  /* T_ENUM: NULL-terminated */
	const int *values;         /* T_ENUM: stored values; NULL: the index */
	double lo, hi;             /* T_INT, T_REAL */
	int lo_open, hi_open;      /* T_REAL: strict bounds */
	const char *def;           /* default as text; NULL: zero or derived */
	const char *def_doc;       /* shown as default when def is NULL */
	const char *doc;
} key_desc_t;

typedef struct section_desc {
	const char *name;
	const char *doc;
} section_desc_t;

static const section_desc_t sections[] = {
	{"mesh", "The mesh and its preparation."},
	{"flow", "Free stream and initial state (dimensionless, see above)."},
	{"numerics", "Discretisation, time stepping and stopping criteria."},
	{"bc", "One key per mesh marker naming its boundary condition, and the outlet pressure."},
	{"partition", "Blocks: the unit of work of the StarPU tasks."},
	{"runtime", "StarPU workers and scheduler."},
	{"output", "What is written, where and how often."},
	{"forces", "Integrated forces and moments and their reference values."},
};
#define N_SECTIONS (sizeof sections / sizeof sections[0])

static const char *const mesh_formats[] = {"auto", "su2", "gmsh", "cgns", "fvm", NULL};
static const char *const inits[] = {"freestream", "riemann", "vortex", NULL};
static const char *const axes[] = {"x", "y", "z", NULL};
static const char *const fluxes[] = {"roe", NULL};
static const char *const orders[] = {"1", "2", NULL};
static const int order_values[] = {1, 2};
static const char *const gradients[] = {"green-gauss", "least-squares", NULL};
static const char *const colorings[] = {"greedy", "minimal", NULL};
static const char *const face_orders[] = {"natural", "color", NULL};
static const char *const limiters[] = {"venkatakrishnan", "barth", "none", NULL};
static const int limiter_values[] = {FV_LIMITER_VENKATAKRISHNAN, FV_LIMITER_BARTH, FV_LIMITER_NONE};
static const char *const limiter_vars[] = {"pressure", "all", NULL};
static const char *const rks[] = {"1", "2", "3", NULL};
static const int rk_values[] = {1, 2, 3};
static const char *const time_modes[] = {"steady", "unsteady", "implicit", NULL};
static const char *const implicits[] = {"lusgs", "point", NULL};
static const char *const jacobians[] = {"roe", "rusanov", NULL};
static const int jacobian_values[] = {FV_JACOBIAN_ROE, FV_JACOBIAN_RUSANOV};
static const char *const linears[] = {"sweeps", "gmres", NULL};
static const int linear_values[] = {FV_LINEAR_SWEEPS, FV_LINEAR_GMRES};
static const char *const cfl_ramps[] = {"residual", "growth", NULL};
static const int implicit_values[] = {FV_IMPLICIT_LUSGS, FV_IMPLICIT_POINT};
static const char *const balances[] = {"speed", "equal", NULL};
static const int balance_values[] = {FV_BALANCE_SPEED, FV_BALANCE_EQUAL};
static const char *const partitioners[] = {"metis", "scotch", "linear", "hilbert", "rcb", NULL};
static const char *const halo_tasks_names[] = {"block", "pair", NULL};
static const char *const overlaps[] = {"no", "yes", "auto", NULL};
static const char *const chains[] = {"no", "yes", "auto", NULL};
static const char *const node_gathers[] = {"rows", "cells", "auto", NULL};
static const char *const memory_checks[] = {"yes", "warn", "no", NULL};
static const int partitioner_values[] = {FV_PART_METIS, FV_PART_SCOTCH, FV_PART_LINEAR, FV_PART_HILBERT,
					       FV_PART_RCB};
static const char *const bc_kinds[] = {"farfield", "wall", "symmetry", "supersonic_inflow",
				       "supersonic_outflow", "pressure_outlet", "noslip", "isothermal", NULL};
static const char *const models[] = {"euler", "laminar", "sa", NULL};
static const char *const restart_models[] = {"same", "euler", "laminar", "sa", NULL};
static const int restart_model_values[] = {-1, FV_MODEL_EULER, FV_MODEL_LAMINAR, FV_MODEL_SA};

#define OFF(field) offsetof(fv_case_t, field)
#define SIZE(field) sizeof(((fv_case_t *)0)->field)
#define INT_KEY(sec, nm, field, l, h, d, dd, text) \
	{sec, nm, T_INT, OFF(field), 0, NULL, NULL, l, h, 0, 0, d, dd, text}
#define REAL_KEY(sec, nm, field, l, lopen, h, hopen, d, dd, text) \
	{sec, nm, T_REAL, OFF(field), 0, NULL, NULL, l, h, lopen, hopen, d, dd, text}
#define ENUM_KEY(sec, nm, field, list, vals, d, text) \
	{sec, nm, T_ENUM, OFF(field), 0, list, vals, 0, 0, 0, 0, d, NULL, text}
#define TEXT_KEY(sec, nm, type, field, d, dd, text) \
	{sec, nm, type, OFF(field), SIZE(field), NULL, NULL, 0, 0, 0, 0, d, dd, text}
#define OTHER_KEY(sec, nm, type, field, d, text) \
	{sec, nm, type, OFF(field), 0, NULL, NULL, 0, 0, 0, 0, d, NULL, text}

/* The order here is the order of fv_case_print and of the docs. */
static const key_desc_t keys[] = {
	TEXT_KEY("mesh", "file", T_PATH, mesh_file, NULL, "(required)",
		 "Mesh file (.su2, 2D or 3D; .msh; .cgns), or a partition directory of `fvstar mesh partition` (each "
		 "rank of an mpirun reads its own part; the partition keys are the cut's). Relative to the case "
		 "file's directory; given on the command line, relative to the working directory."),
	INT_KEY("mesh", "refine", mesh_refine, 0, 10, "0", NULL,
		"Uniform refinement levels applied after reading (each multiplies the cells by 8)."),
	ENUM_KEY("mesh", "format", mesh_format, mesh_formats, NULL, "auto",
		 "File format; auto: from the extension or the contents."),

	REAL_KEY("flow", "mach", mach, 0, 0, HUGE_VAL, 0, "0.5", NULL,
		 "Free-stream Mach number (= the free-stream speed, since c = 1)."),
	REAL_KEY("flow", "alpha", alpha_deg, -180, 0, 180, 0, "0", NULL,
		 "Angle of attack in degrees: in the x-z plane (positive: velocity towards +z, lift along z) on a 3D "
		 "mesh; in the x-y plane (velocity towards +y, lift along y) on a 2D mesh (SU2 NDIME= 2, extruded "
		 "in z), as SU2 does in 2D."),
	REAL_KEY("flow", "beta", beta_deg, -90, 0, 90, 0, "0", NULL,
		 "Sideslip angle in degrees (positive: velocity towards +y) on a 3D mesh; refused on a 2D mesh, "
		 "whose angle of attack is alpha."),
	REAL_KEY("flow", "gamma", gamma, 1, 1, 10, 0, "1.4", NULL, "Ratio of specific heats."),
	ENUM_KEY("flow", "model", model, models, NULL, "euler",
		 "euler (inviscid), laminar (Navier-Stokes: viscous fluxes from the face gradients, "
		 "Sutherland's law, constant Prandtl number; walls: bc noslip or isothermal) or sa (Reynolds-"
		 "averaged Navier-Stokes with the Spalart-Allmaras model, SA-neg as NASA's Turbulence Modeling "
		 "Resource defines it: rho nu~ a sixth transported variable, the exact distance to the nearest "
		 "no-slip wall face)."),
	REAL_KEY("flow", "reynolds", reynolds, 0, 1, HUGE_VAL, 0, "1e6", NULL,
		 "laminar: Reynolds number rho_inf U_inf L / mu_inf on the length reynolds_length "
		 "(so mu_inf = mach reynolds_length / reynolds in the solver's units)."),
	REAL_KEY("flow", "reynolds_length", reynolds_length, 0, 1, HUGE_VAL, 0, "1", NULL,
		 "laminar: the length of the Reynolds number, in mesh units."),
	REAL_KEY("flow", "temperature", temperature, 0, 1, HUGE_VAL, 0, "288.15", NULL,
		 "laminar: free-stream temperature in kelvin (Sutherland's law; the solver's temperature "
		 "gamma p / rho is 1 in the free stream)."),
	REAL_KEY("flow", "sutherland", sutherland, -1, 0, HUGE_VAL, 0, "110.4", NULL,
		 "laminar: Sutherland's constant in kelvin; -1: constant viscosity."),
	REAL_KEY("flow", "prandtl", prandtl, 0, 1, HUGE_VAL, 0, "0.72", NULL, "laminar, sa: Prandtl number."),
	REAL_KEY("flow", "prandtl_turb", prandtl_turb, 0, 1, HUGE_VAL, 0, "0.9", NULL, "sa: turbulent Prandtl number."),
	REAL_KEY("flow", "nu_tilde_ratio", nut_ratio, 0, 1, HUGE_VAL, 0, "3", NULL,
		 "sa: nu~ of the free stream over its kinematic viscosity (3 in TMR's cases)."),
	ENUM_KEY("flow", "init", init, inits, NULL, "freestream",
		 "Initial state: the free stream everywhere, a Riemann problem (left/right states), or an "
		 "isentropic vortex (Shu) in the x-y plane carried by the free stream."),
	REAL_KEY("flow", "vortex_x0", vortex_x0, -HUGE_VAL, 0, HUGE_VAL, 0, "5", NULL,
		 "vortex: x of the centre at t = 0."),
	REAL_KEY("flow", "vortex_y0", vortex_y0, -HUGE_VAL, 0, HUGE_VAL, 0, "5", NULL,
		 "vortex: y of the centre at t = 0."),
	REAL_KEY("flow", "vortex_strength", vortex_strength, 0, 1, 50, 0, "5", NULL,
		 "vortex: strength (Shu's epsilon; 5 in his test)."),
	REAL_KEY("flow", "vortex_radius", vortex_radius, 0, 1, HUGE_VAL, 0, "1", NULL,
		 "vortex: length scale R of exp((1 - r^2/R^2)/2)."),
	ENUM_KEY("flow", "riemann_axis", riemann_axis, axes, NULL, "x",
		 "riemann: the axis normal to the initial discontinuity."),
	REAL_KEY("flow", "riemann_x0", riemann_x0, -HUGE_VAL, 0, HUGE_VAL, 0, "0.5", NULL,
		 "riemann: coordinate of the discontinuity along the axis."),
	OTHER_KEY("flow", "left", T_STATE, riemann_left, "1,0,1",
		  "riemann: density, velocity along the axis, pressure where the coordinate < riemann_x0 "
		  "(dimensionless, used as given)."),
	OTHER_KEY("flow", "right", T_STATE, riemann_right, "0.125,0,0.1",
		  "riemann: the same where the coordinate >= riemann_x0."),

	ENUM_KEY("numerics", "flux", num.flux, fluxes, NULL, "roe", "Inviscid flux."),
	REAL_KEY("numerics", "entropy_fix", num.entropy_fix, 0, 0, 1, 0, "0.1", NULL,
		 "Harten entropy fix: eigenvalues below this fraction of the spectral radius are smoothed."),
	ENUM_KEY("numerics", "order", num.order, orders, order_values, "2",
		 "Spatial order: 1 (piecewise constant) or 2 (MUSCL reconstruction with limited gradients)."),
	ENUM_KEY("numerics", "flux_sum", num.flux_sum, fv_sum_names, NULL, "atomic",
		 "GPU flux summation: atomic (face loop, atomicAdd), gather (cell loop over its faces, each "
		 "face flux computed twice, no atomics, deterministic), color (face loop, one launch per "
		 "colour group of faces that share no cell, no atomics, deterministic), auto (all three "
		 "variants; a perf-model scheduler such as dmda picks the fastest). CPU codelets always loop "
		 "over faces."),
	ENUM_KEY("numerics", "nodes_sum", num.nodes_sum, fv_sum_names, NULL, "gather",
		 "Node values (Green-Gauss): gather (node loop over its cells, NV-N), atomic (cell loop adding "
		 "into its nodes, NV-C: atomicAdd on a GPU), auto (both CUDA variants; the scheduler picks). "
		 "No colour variant: colour groups are of faces."),
	ENUM_KEY("numerics", "gradient_sum", num.grad_sum, fv_sum_names, NULL, "gather",
		 "Green-Gauss gradient: gather (cell loop, GQ-C, over the cell's nodes with precomputed "
		 "weights: each node value read once), atomic (face loop adding into both cells, GQ-F), color "
		 "(face loop per colour group), auto. Least squares gathers only."),
	ENUM_KEY("numerics", "limiter_sum", num.lim_sum, fv_sum_names, NULL, "gather",
		 "Local min/max of the limiter: gather (cell loop over its neighbours, LM-C), atomic (face loop "
		 "with atomic min/max, LM-F), color (face loop per colour group), auto."),
	ENUM_KEY("numerics", "timestep_sum", num.dt_sum, fv_sum_names, NULL, "gather",
		 "Spectral radius sums of the time step: gather (cell loop), atomic (face loop adding each "
		 "side's radius), color (face loop per colour group), auto."),
	ENUM_KEY("numerics", "face_order", num.face_order, face_orders, NULL, "natural",
		 "Face data of each block: natural (boundary faces, then interior faces in Alg. 2 order) or "
		 "color (boundary faces, then interior faces, each by colour group: Zhang et al. 2022 Alg. "
		 "11), so that colour kernels read contiguous faces. Changes only the summation order."),
	OTHER_KEY("numerics", "color_tasks", T_BOOL, num.color_tasks, "no",
		  "Flux as one task per colour group of faces and block (CPU and GPU), each adding into the "
		  "block's residual after the previous group: the groups show in a trace. The gradient, "
		  "limiter and time step become group tasks too where their strategy is color."),
	ENUM_KEY("numerics", "overlap", num.overlap, overlaps, NULL, "auto",
		 "Interior and border tasks: a block runs each stage that reads ghosts as an interior task, "
		 "submitted so that it runs while the halo travels, and a border task once the halo is in: "
		 "prim of the owned cells, the node values and Green-Gauss gradients away from ghosts (node "
		 "loops and gathers: nodes_sum = gradient_sum = gather) during the state's halo; the flux of "
		 "the faces between owned cells during the gradients' and limiters' halos (second order or "
		 "viscous). yes: every block with neighbours; auto: the blocks that run on a GPU, have a "
		 "neighbour on another rank and are not chained (numerics.chain = no), where it was measured to "
		 "pay (bench/results/2026-11-26-overlap.md: elsewhere the extra tasks cost more than the halo "
		 "waits they hide; chained blocks with late halos, numerics.halo_late, were 2-6 % faster unsplit "
		 "on a rank per H200, 2026-11-30-halo7.md); "
		 "no: never. On a CPU the fluxes go through a face store (5 values a face, 7 with SA) summed "
		 "in the one-task order: the results are bit for bit those of overlap = no. The flux of "
		 "color_tasks is not split."),
	ENUM_KEY("numerics", "chain", num.chain, chains, NULL, "auto",
		 "Task chains: the consecutive tasks of a block from a halo's unpack to the next halo's pack (and "
		 "between two trace marks) run as one StarPU task whose function runs theirs in order on the same "
		 "worker (one CUDA stream), bit for bit as the separate tasks: a CUDA worker leaves 10-17 us between "
		 "two dependent tasks (bench/results/2026-11-26-halo-wait.md). auto: the blocks that run only on "
		 "GPUs, in one process or under StarPU-MPI; yes: every block; no: one task per stage (per-stage "
		 "traces and history models). Reductions, the interior and border tasks of numerics.overlap and "
		 "tasks on other ranks' data are never chained; color_tasks' groups are."),
	ENUM_KEY("numerics", "node_gather", num.node_gather, node_gathers, NULL, "auto",
		 "Where the node values (nodes_sum = gather) read each cell's primitives: rows, the field's "
		 "rows (one row per variable: a cell's five values five memory sectors apart); cells, a copy "
		 "with each cell's values side by side that the primitive kernel writes beside the rows (40 "
		 "more bytes a cell, read in one or two sectors; bench/bench_node_gather.cu), and the node "
		 "values stored side by side for the gradient; auto: the copy in the blocks that run only on "
		 "GPUs (2.7-4.4 % faster a GPU iteration on the 10.37M box, H200, "
		 "bench/results/2026-12-03-halo10.md), the node values side by side everywhere. Results are bit "
		 "for bit the same."),
	ENUM_KEY("numerics", "halo_late", num.halo_late, overlaps, NULL, "auto",
		 "When the gradients' and the limiters' halos leave: no: each as soon as it is computed (the "
		 "gradients' travel while the limiter and the time step run); yes: both after the limiter and the "
		 "time step, so that a block's prim, node values, gradients, limiter, time step and both packs run "
		 "as one task chain, and the unpacks, flux and update as one more: two chains a Runge-Kutta stage "
		 "instead of four to six (numerics.chain); auto: yes under mpirun where this rank's blocks are chained, "
		 "none is split (numerics.overlap) and one has a neighbour on another rank (a rank per H200 2-6 % "
		 "faster), no elsewhere (one process: no faster on 2 GPUs, slower on 4; bench/results/"
		 "2026-11-30-halo7.md). The same values either way: the results are the same."),
	ENUM_KEY("numerics", "halo_tasks", num.halo_tasks, halo_tasks_names, NULL, "block",
		 "Tasks of a halo exchange: block (one pack task per block filling all its neighbours' buffers, "
		 "one unpack task per block emptying them) or pair (one pack and one unpack task per pair of "
		 "neighbouring blocks, as many as the buffers). Copies either way: the results are the same."),
	ENUM_KEY("numerics", "halo_zero_copy", num.halo_zero_copy, overlaps, NULL, "auto",
		 "Halo buffers that go to or come from another rank: yes: a GPU's pack kernel writes them straight "
		 "into the pinned host memory StarPU-MPI sends from, and its unpack kernel reads them where "
		 "StarPU-MPI received them (no device copy of the buffer, no copy to or from it before or after "
		 "the message); no: StarPU copies each buffer between the GPU and the host; auto: yes for "
		 "buffers of at most 512 KiB under mpirun with GPUs, where host memory is pinned "
		 "(STARPU_DISABLE_PINNING unset): it saves two copies' latency per message, where larger buffers "
		 "go faster by the copy engines, beside the kernels (bench/results/2026-11-27-halo-zero-copy.md). "
		 "The same copies either way: the results are the same."),
	ENUM_KEY("numerics", "halo_peer", num.halo_peer, overlaps, NULL, "auto",
		 "Halo buffers between ranks whose blocks run on GPUs of one machine: yes: GPU to GPU, the sending "
		 "rank's pack kernel writing into the receiving rank's GPU memory (CUDA IPC: NVLink or PCIe peer "
		 "access), StarPU-MPI carrying only an 8-byte token each way (the data are there; the buffer may be "
		 "written again), no host copy and no MPI copy of the data; an error where a pair cannot (another "
		 "machine, a CPU block, no peer access); no: StarPU-MPI moves the buffers through host memory "
		 "(numerics.halo_zero_copy); auto: yes where a pair can, the others as no. The same values either "
		 "way: the results are the same."),
	ENUM_KEY("numerics", "coloring", num.coloring, colorings, NULL, "minimal",
		 "Face colouring for the *_sum = color or auto strategies, color_tasks and face_order = color: "
		 "greedy (Zhang et al. 2022, "
		 "Alg. 3-4) or "
		 "minimal (Giuliani & Krivodonova: as many colours as the most faces of a cell, where it "
		 "can)."),
	ENUM_KEY("numerics", "gradient", num.gradient, gradients, NULL, "green-gauss",
		 "Gradient: node-based Green-Gauss (node values interpolated from cells) or least squares."),
	ENUM_KEY("numerics", "limiter", num.limiter, limiters, limiter_values, "venkatakrishnan", "Slope limiter."),
	REAL_KEY("numerics", "limiter_k", num.limiter_k, 0, 0, HUGE_VAL, 0, "5", NULL,
		 "Venkatakrishnan's constant K (eps^2 = (K h)^3)."),
	REAL_KEY("numerics", "limiter_shock", num.limiter_shock, 0, 0, 0.5, 0, "0", NULL,
		 "Pressure switch: the limiter of a cell falls smoothly to 0 (first order) where the larger of "
		 "its neighbourhood's relative pressure jump (pmax - pmin) / (pmax + pmin) and its pressure "
		 "gradient's largest extrapolation to a face over its pressure goes from this value to twice it "
		 "(0.03 lets the Mach 6 blunt body of tests/cli/implicit_matrix.sh settle at second order); 0: off. "
		 "Unset: 0.03 where the free-stream Mach number is 3 or more (a normal shock's pressure ratio 10 "
		 "or more), else 0."),
	INT_KEY("numerics", "limiter_freeze", num.limiter_freeze, 0, INT_MAX, "0", NULL,
		"Iteration after which the limiter is no longer recomputed (its last values are kept), as "
		"SU2's LIMITER_ITER, so that a steady residual keeps falling; 0: never. A run continued "
		"from a restart past it computes the limiter once at its first iteration."),
	REAL_KEY("numerics", "limiter_freeze_drop", num.limiter_freeze_drop, 0, 0, 300, 0, "0", NULL,
		 "Orders of magnitude the density residual must have dropped below its first-iteration "
		 "value for the limiter to be frozen from then on (as limiter_freeze, but found by the "
		 "run: the Venkatakrishnan limiter's switching otherwise holds a transonic residual in a "
		 "limit cycle a few orders down); decided from the residual of the iteration 4 before, "
		 "known when an iteration is submitted, so every scheduler freezes at the same "
		 "iteration; 0: off."),
	ENUM_KEY("numerics", "limiter_vars", num.limiter_vars, limiter_vars, NULL, "pressure",
		 "pressure: one limiter per cell from the local min/max of pressure, applied to every "
		 "variable (as in the papers); all: one limiter per variable (viscous runs on thin "
		 "boundary-layer cells need it: with the pressure's alone the velocity gradients overshoot "
		 "and the M6 prism layer diverged)."),
	ENUM_KEY("numerics", "rk", num.rk, rks, rk_values, "2",
		 "Stages of the explicit SSP Runge-Kutta scheme (2 as in PHengLEI, or 3; 1: forward Euler, "
		 "first order in time)."),
	REAL_KEY("numerics", "cfl", num.cfl, 0, 1, HUGE_VAL, 0, "1", NULL,
		 "CFL number; time = implicit: the first iteration's, ramped up to cfl_max (10 unless the "
		 "case sets it)."),
	ENUM_KEY("numerics", "time", num.time_mode, time_modes, NULL, "steady",
		 "steady: local time step per cell (explicit Runge-Kutta); unsteady: one global time step, up to "
		 "t_end; implicit: steady, backward Euler with the local time step, linearised with a "
		 "first-order Jacobian and solved approximately by forward and backward Gauss-Seidel sweeps "
		 "over colour groups of cells (implicit, sweeps, omega; cfl_max ramps the CFL)."),
	ENUM_KEY("numerics", "implicit", num.implicit, implicits, implicit_values, "point",
		 "time = implicit: point (block point-implicit: Roe's first-order Jacobian with frozen "
		 "averages, the 5x5 diagonal block of each cell with the boundary conditions' Jacobians "
		 "factorised once per iteration, and the 5x5 off-diagonal block of each face stored, single "
		 "precision; the faster to a converged answer: the M6 medium 8 orders in 130 iterations) or "
		 "lusgs (LU-SGS: the Rusanov split of the first-order Jacobian, matrix-free, one scalar "
		 "diagonal per cell, V/dt + omega/2 sum of the faces' spectral radii: less memory, but the "
		 "transonic M6 is not within 0.5% of its lift after 1500 iterations)."),
	ENUM_KEY("numerics", "jacobian", num.jacobian, jacobians, jacobian_values, "roe",
		 "implicit = point: the dissipation of the first-order Jacobian's face blocks: roe (Roe's "
		 "|A~| with the flux's entropy fix, the flux's own linearisation: fewest iterations) or rusanov "
		 "(the larger spectral radius of the two cells times the identity: more diagonal weight, so the "
		 "sweeps converge where Roe's blocks let them diverge, as in the tip vortex of the M6 RANS "
		 "case at CFL 60; 1.5-7x the iterations of roe on the wedge, a transonic NACA 0012 and the "
		 "M6 with the implicit defaults)."),
	REAL_KEY("numerics", "jacobian_floor", num.jacobian_floor, 0, 0, 1, 0, "0", NULL,
		 "implicit = point, jacobian = roe: every eigenvalue magnitude of the face blocks' |A~| at least "
		 "this fraction of the face's spectral radius |u_n| + c (an entropy fix of the Jacobian only: "
		 "diagonal weight where a wave speed vanishes, at stagnation points, sonic points and walls); "
		 "0: the flux's own fix (0.2 took as many iterations or more on the wedge, a transonic NACA "
		 "0012 and the M6), and 0.05 once a ramped run stalls (its density residual 2 orders below "
		 "its peak and not fallen tenfold in 25 iterations: the M6 at 53k tets cycled 3.9 orders down)."),
	INT_KEY("numerics", "sweeps", num.sweeps, 1, 100, "20", NULL,
		"time = implicit: forward and backward sweep pairs per iteration (the halo of the update is "
		"exchanged between blocks after each sweep). A multicolour sweep carries information a few "
		"cells only, so a larger mesh or CFL needs more: the M6 needs 40 on 1M cells and 60 on 3M "
		"at CFL 1000. lin_res raises them up to sweeps_max."),
	INT_KEY("numerics", "sweeps_max", num.sweeps_max, 0, 1000, "0", NULL,
		"time = implicit: the sweep pairs per iteration grow from sweeps up to this (1.5x, at most once "
		"per lookahead + 2 iterations) while the sweeps leave more than sweeps_target of the linear "
		"residual two iterations in a row (the history's lin_res; its sweeps column the pairs run), and "
		"stay there: a larger mesh needs more (the M6 on 979k tets held lin_res 0.3-0.56 with 20 pairs "
		"and fell 4.3 orders in 600 iterations; 8 in 116 with 60). 0 (the default): 6 x sweeps; at most "
		"sweeps: a fixed count."),
	REAL_KEY("numerics", "sweeps_target", num.sweeps_target, 0, 1, 1, 0, "0.1", NULL,
		 "time = implicit: the linear residual reduction (the history's lin_res) the sweeps should "
		 "reach; above it two iterations in a row the sweep pairs grow (sweeps_max). lin_res sees the "
		 "rough error the sweeps leave more than the smooth one: at 0.2 (the default until 2026-11-30) "
		 "the independent M6 of 57k tets held 45 pairs at lin_res 0.15-0.18 and went 8 orders in 67 "
		 "iterations, 2460 pairs; at 0.1 in 46, 1941 pairs (68 at the end), and the test matrix's "
		 "NACA 0012 and M6s took 36-47 iterations for 39-80."),
	ENUM_KEY("numerics", "linear", num.linear, linears, linear_values, "sweeps",
		 "time = implicit, implicit = point: the linear solve of an iteration. sweeps: the forward and "
		 "backward sweep pairs (sweeps, sweeps_max); gmres: restarted GMRES(krylov_dim) on the same stored "
		 "first-order operator, right-preconditioned by krylov_sweeps sweep pairs (lines included), "
		 "krylov_cycles cycles per iteration: it minimises the linear residual over its search "
		 "directions, so it converges where the sweeps alone diverge at a large CFL (FUN3D's and SU2's "
		 "remedy); any block and rank count (the same coefficients on every rank). Not the default: alone it took sa_matrix.sh's bump 7.8 orders in 350 "
		 "iterations (the sweeps: 8 in 294) and the plate 113 for 101 (lam2sa 145 for 233)."),
	INT_KEY("numerics", "krylov_dim", num.krylov_dim, 1, 64, "20", NULL,
		"linear = gmres: search directions per cycle (each one application of the preconditioner and "
		"one product with the operator; a vector of the state's size each, twice). With the TMR bump's "
		"whole lines and long step, 20 directions of 1 sweep pair took its 353 x 161 grid to 8 orders "
		"in 128 iterations, 10 of 2 pairs in 137, 20 of 2 in 131 (177 x 81: 73, 74, 85)."),
	INT_KEY("numerics", "krylov_cycles", num.krylov_cycles, 1, 20, "1", NULL,
		"linear = gmres: cycles of krylov_dim directions per iteration (a restart starts the next one "
		"from the last one's solution)."),
	INT_KEY("numerics", "krylov_sweeps", num.krylov_sweeps, 1, 100, "1", NULL,
		"linear = gmres: sweep pairs of one application of the preconditioner."),
	ENUM_KEY("numerics", "lines", num.lines, overlaps, NULL, "auto",
		 "implicit = point: the sweeps solve lines of strongly coupled cells (stacked across boundary "
		 "layers and wakes, cells 4x longer than high or more) as block-tridiagonal systems, each line "
		 "at once (line-implicit); point Gauss-Seidel hardly moves the smooth modes across such cells "
		 "(the TMR bump's wake: 1% per iteration). yes; no; auto: in viscous runs."),
	INT_KEY("numerics", "line_cells", num.line_cells, 1, 1 << 20, "64", NULL,
		"lines: the most cells of one line; a longer chain of strongly coupled cells is cut into lines "
		"of this many, which the sweeps couple as they couple cells off a line. A sweep's GPU thread "
		"solves one line, so longer lines mean fewer threads working longer each."),
	REAL_KEY("numerics", "aspect_dt", num.aspect_dt, 1, 0, HUGE_VAL, 0, "1", NULL,
		 "time = implicit with line sweeps (lines): a cell stretched more than 4:1 (its two largest "
		 "faces over 4 times its third) takes a local time step larger by a quarter of its aspect "
		 "ratio, up to this factor; 1 (the default): every cell the step of its spectral radius sum, "
		 "which in a stretched cell is that of its thin side, so that at the CFL's ceiling the flow "
		 "along a boundary layer moves a fraction of a cell per iteration. The TMR bump's 45 x 21 "
		 "grid: 8 orders in 294 iterations, 103 with 3, 77 with 10; its 89 x 41: about 500, 280 "
		 "with 3, 92 with 10. Not the default: the TMR plate took 108-123 iterations for 101 with "
		 "2-6, the plate from a laminar state 407 for 209 with 10, and the bump's finest grid's "
		 "sweeps diverged from CFL 10 with 1000 (one H200). With whole lines (line_cells 1024), 1e6 (the "
		 "long side's step) took the bump's 177 x 81 grid to 8 orders in 73 iterations (stalled at 4.3 "
		 "orders with 1; 4.9 with 1e6 and lines of 64); its 353 x 161 past the stall, with retries. "
		 "Not the default with linear = gmres and whole lines either: sa_matrix.sh's bump in 68 "
		 "iterations for 294 and the plate 95 for 101, but the plate from a laminar state run with "
		 "the same keys diverged (bench/results/2026-12-05-implicit13.md)."),
	REAL_KEY("numerics", "dominance", num.dominance, 0, 0, 10, 0, "0", NULL,
		 "time = implicit, implicit = point: a per-cell limit of the CFL where the sweeps would lose "
		 "diagonal dominance: while the largest row sum of |D^-1 O| over a cell's faces (D its diagonal "
		 "block, O its faces' blocks: its row of the block Jacobi iteration) exceeds this value, the "
		 "cell's V/dt doubles (its local step halves, at most 12 times); other cells keep the ramp's "
		 "step. 0 (the default): off. The TMR bump 89 x 41 with aspect_dt 10: 10 never acts (88 "
		 "iterations either way); 3 and below cut too many cells (1.07 orders in 127 iterations); on "
		 "the finest grid (1409 x 641, one H200) with aspect_dt 10, 10 acts and does not keep the "
		 "sweeps from diverging (2 divergences in 60 iterations, 1.94 orders; 2.44 without it; "
		 "bench/results/2026-12-03-implicit11.md)."),
	REAL_KEY("numerics", "max_update", num.max_update, 0, 0, HUGE_VAL, 0, "0", NULL,
		 "time = implicit: the update of a cell is scaled down so that its density and energy change "
		 "by at most this fraction in one iteration (large CFL numbers through a start-up "
		 "transient), and halved further while its density or pressure would be <= 0; idle once "
		 "converging; 0: no limit. Unless the case sets it, 0.2 with time = implicit (as fast as 0 "
		 "and 0.5 on the wedge, a transonic NACA 0012 and the M6)."),
	REAL_KEY("numerics", "cell_cfl", num.cell_cfl, 0, 0, 1, 0, "0", NULL,
		 "time = implicit: a per-cell factor of the local step, kept with the state (and in the "
		 "restart): where max_update or the positivity check scales a cell's update down by a, the "
		 "cell's factor is multiplied by a (by 0.1 at least), down to this value; where the update is "
		 "taken whole, it doubles, up to 1, unless that update changed density or energy by more than "
		 "half of max_update (then it holds). The operator's diagonal uses the cell's own step (V / "
		 "(f dt)), so a cell whose linearisation does not hold at the ramp's CFL takes shorter steps "
		 "while the others keep the ramp's. 0 (the default): off. With 1e-3 on the TMR bump's finest grid "
		 "(GMRES, whole lines, aspect_dt 1e6; one H200) 3.6x fewer cells were clipped and the density "
		 "residual fell 0.0064 orders an iteration for 0.0045, nu~'s converging; on the 177 x 81 and 353 x "
		 "161 grids, whose clipping ends by iteration 40, 77 and 206 iterations for 73 and 128 "
		 "(bench/results/2026-12-06-implicit14.md)."),
	REAL_KEY("numerics", "omega", num.omega, 1, 0, 10, 0, "1", NULL,
		 "implicit = lusgs: factor of the spectral radius in the implicit operator (above 1, e.g. 1.5: "
		 "more diagonal dominance, more robust, slower convergence)."),
	REAL_KEY("numerics", "cfl_max", num.cfl_max, 0, 0, HUGE_VAL, 0, "0", NULL,
		 "time = implicit: CFL ramping from cfl up to this (unless the case sets it, 1e4, or cfl if "
		 "larger: above it the wedge's residual stalled 8.5 orders down, its state 6e-8 off the "
		 "explicit scheme's, where 1e4 went to 11 orders and 5e-12); 0: the CFL stays at cfl. Iteration n's "
		 "CFL comes from the density residuals of iterations up to n - 4, those known when n is "
		 "submitted (the driver keeps 3 iterations in flight), as cfl_ramp says, while the sweeps of "
		 "iteration n - 4 converged well (the history's lin_res, their linear residual reduction, at "
		 "most 0.5); it holds while lin_res is in (0.5, 1], and above 1 (the sweeps diverged) it is "
		 "cut by cfl_cut and the ceiling lowered to half that CFL. A lowered ceiling grows again "
		 "(1.25x per iteration) after 10 x (1 + retries) iterations with lin_res <= 0.5. Where the "
		 "residual at the top stops falling (3 of 8 steps rising and not down to 0.9 of the first; "
		 "three such windows the first time), the ceiling and its top become a quarter of that CFL "
		 "(the log says so; the Mach 6 blunt body at second order: 1e4 -> 24-38)."),
	ENUM_KEY("numerics", "cfl_ramp", num.cfl_ramp, cfl_ramps, NULL, "residual",
		 "time = implicit (growth unless the case sets it), cfl_max set: residual (the CFL follows each ratio of decrease of the density "
		 "residual, at most cfl_growth, and is cut by cfl_cut where it grew: switched evolution "
		 "relaxation) or growth (the CFL is multiplied by cfl_growth every iteration, and cut by "
		 "cfl_cut only where the residual passes ten times its lowest value so far, which then "
		 "becomes the reference: for flows whose residual oscillates, as transonic ones with a "
		 "limiter; the default of time = implicit: the wedge, a transonic NACA 0012 and the M6 "
		 "converged 8 orders in 2-3x fewer iterations than with residual)."),
	REAL_KEY("numerics", "cfl_growth", num.cfl_growth, 1, 0, HUGE_VAL, 0, "2", NULL,
		 "time = implicit: largest factor of the CFL from one iteration to the next (cfl_ramp = "
		 "growth: the factor, 1.5 unless the case sets it)."),
	REAL_KEY("numerics", "cfl_cut", num.cfl_cut, 0, 1, 1, 0, "0.5", NULL,
		 "time = implicit: factor of the CFL where the residual grew (cfl_ramp = residual) or blew "
		 "up (growth); never below cfl."),
	INT_KEY("numerics", "retries", num.retries, 0, 1000, "20", NULL,
		"time = implicit: an iteration whose density residual is not finite or jumps a hundredfold "
		"is thrown away with the iterations in flight after it, and the run goes on from the last "
		"good state kept on the device (a copy every lookahead + 3 iterations) at a tenth of the "
		"CFL, which grows to at most half the CFL that failed until the sweeps have converged "
		"for a while (cfl_max); at most this many "
		"times in a run (and not below CFL 0.1); the history's cfl and retries columns show them. "
		"0: a non-finite residual stops the run."),
	REAL_KEY("numerics", "t_end", num.t_end, 0, 1, HUGE_VAL, 0, NULL, "(none)",
		 "Dimensionless end time; required with time = unsteady, an error otherwise."),
	INT_KEY("numerics", "iterations", num.iterations, 0, INT_MAX, "1000", NULL,
		"Most iterations (time steps) to run; unsteady runs also stop at t_end."),
	REAL_KEY("numerics", "residual_drop", num.residual_drop, 0, 0, 300, 0, "0", NULL,
		 "Stop when the density residual has dropped this many orders of magnitude below its "
		 "reference (residual_ref: its peak so far unless set); 0: off."),
	REAL_KEY("numerics", "residual_ref", residual_ref, 0, 0, HUGE_VAL, 0, "0", NULL,
		 "The density residual from which the progress lines, history.csv (orders_below_ref), "
		 "summary.json and residual_drop measure the drop; 0: its peak so far (a run from the free "
		 "stream starts near 0 and rises first)."),
	INT_KEY("numerics", "first_order", num.first_order, 0, INT_MAX, "0", NULL,
		"With order = 2, the iterations up to this one run at first order (a start that is easier "
		"on a large CFL); 0: none."),
	INT_KEY("numerics", "order_ramp", num.order_ramp, 0, INT_MAX, "0", NULL,
		"With order = 2, second order comes in over this many iterations after first_order: iteration "
		"first_order + k extrapolates k / order_ramp of the limited gradient to the faces (a softer "
		"switch for stiff viscous cases); 0: at once."),

	{"bc", "<marker>", T_BC, 0, 0, bc_kinds, NULL, 0, 0, 0, 0, NULL, "(required)",
	 "Boundary condition of the mesh marker of that name; every marker needs one, and every key "
	 "must name a marker. wall: inviscid (slip); noslip: viscous adiabatic wall; isothermal: "
	 "viscous wall at wall_temperature (laminar runs)."},
	REAL_KEY("bc", "p_out", p_out, 0, 1, HUGE_VAL, 0, NULL, "1/gamma (free stream)",
		 "Static pressure imposed by pressure_outlet (dimensionless)."),
	REAL_KEY("bc", "wall_temperature", wall_temperature, 0, 1, HUGE_VAL, 0, NULL, "flow.temperature",
		 "Temperature of isothermal walls in kelvin."),

	INT_KEY("partition", "blocks", blocks, 0, 1 << 20, "0", NULL,
		"Number of blocks; 0: automatic: one per GPU when only GPUs work, four per worker when only "
		"CPUs work, else two per worker (at least 256 cells each)."),
	ENUM_KEY("partition", "partitioner", partitioner, partitioners, partitioner_values, "metis",
		 "metis (k-way), scotch, linear (contiguous ranges of the file's numbering), hilbert "
		 "(contiguous ranges of a Hilbert curve through the cell centroids) or rcb (recursive coordinate "
		 "bisection, each cut along the axis that crosses the fewest faces). hilbert and rcb need no graph "
		 "partitioner and cut the M6 medium 4-10x faster than METIS, with 1.5-2x its halo cells."),
	INT_KEY("partition", "seed", seed, 0, INT_MAX, "0", NULL, "Seed of the partitioner."),

	TEXT_KEY("runtime", "sched", T_WORD, sched, "", NULL,
		 "StarPU scheduler (eager, lws, dmdas, ...; STARPU_SCHED wins); empty: lws with one kind of "
		 "worker, dmdas with CPU and CUDA workers. modular-heteroprio-heft is refused (StarPU 1.3.10 runs "
		 "none of fvstar's tasks under it)."),
	INT_KEY("runtime", "ncpu", ncpu, -1, 1 << 16, "-1", NULL,
		"CPU workers (STARPU_NCPU, when set, wins: StarPU reads it last); -1: none when a GPU is used (a "
		"GPU runs a stage 40x faster than 16 cores, and equal blocks on the cores would hold it back), else "
		"all cores. Beside GPUs, CPU workers worth less than a quarter of the GPUs' speed (runtime.gpu_speed) "
		"would hold no cells (their halo round trips with the GPU blocks would cost more than they add): "
		"in one process they are then not started, as idle workers poll a core each (runtime.worker_speeds "
		"or runtime.balance = equal gives them cells anyway). More than the machine's cores is refused unless "
		"runtime.oversubscribe = yes."),
	INT_KEY("runtime", "ncuda", ncuda, -1, 1 << 10, "-1", NULL,
		"CUDA workers; -1: StarPU's default (STARPU_NCUDA or all GPUs)."),
	ENUM_KEY("runtime", "balance", balance, balances, balance_values, "speed",
		 "How the cells are shared among the workers: speed: when the workers differ in speed (CPU and "
		 "CUDA workers, or runtime.worker_speeds), one block per worker (partition.blocks / workers when "
		 "set: a multiple of the worker count), each holding its worker's share of the total speed and "
		 "pinned to it; with one kind of worker, equal blocks as with equal. equal: equal blocks that the "
		 "scheduler places."),
	REAL_KEY("runtime", "gpu_speed", gpu_speed, 0, 0, HUGE_VAL, 0, "0", NULL,
		 "balance = speed: how many CPU workers one CUDA worker is worth; 0: from StarPU's calibrated "
		 "history models of the stage codelets (its sampling directory) when they hold both kinds, else "
		 "640 (an H100 ran a stage 40x faster than its node's 16 cores)."),
	TEXT_KEY("runtime", "worker_speeds", T_STR, worker_speeds, "", NULL,
		 "balance = speed: relative speeds of the workers, one positive number per StarPU worker in "
		 "StarPU's order (fvstar runtime info lists them), e.g. 1,3; empty: by worker type (CPU 1, CUDA "
		 "gpu_speed)."),
	OTHER_KEY("runtime", "pin_blocks", T_BOOL, pin_blocks, "yes",
		  "Speed-weighted blocks run on their worker; with equal blocks, several GPUs and no CPU worker, "
		  "block b's tasks run on GPU b mod n (the schedulers put the blocks of a 2-GPU run on one GPU); "
		  "no: the scheduler places every task."),
	OTHER_KEY("runtime", "oversubscribe", T_BOOL, oversubscribe, "no",
		  "yes: more CPU workers (runtime.ncpu, STARPU_NCPU) than the machine's cores are allowed; no: "
		  "refused before StarPU starts (workers beyond the cores share them, and every task waits for a "
		  "time slice)."),
	REAL_KEY("runtime", "watchdog", watchdog, 0, 0, HUGE_VAL, 0, "300", NULL,
		 "Several ranks: seconds a rank may stay silent (no heartbeat: stopped, killed, its node lost) or "
		 "every rank wait without an iteration ending, before every rank stops with a message naming the "
		 "silent or late ranks; at least 20 times the running iteration time; 0: no watchdog."),
	ENUM_KEY("runtime", "memory_check", memory_check, memory_checks, NULL, "yes",
		 "Before the blocks, the state and the solver are allocated, the host memory a rank will need at "
		 "its peak (estimated from the cell and face counts and the numerics) against the node's available "
		 "memory, and each GPU's share against its free memory: yes: an error saying what would not fit "
		 "and what would; warn: a warning; no: no check."),

	TEXT_KEY("output", "dir", T_STR, out_dir, NULL, "`out/<case name>`",
		 "Output directory (relative to the working directory), created if needed; the case "
		 "name is the case file's name without .cfg."),
	INT_KEY("output", "history_every", history_every, 1, INT_MAX, "1", NULL,
		"Write a history.csv row every this many iterations."),
	INT_KEY("output", "progress_every", progress_every, 0, INT_MAX, "10", NULL,
		"Print a progress line to stderr every this many iterations; 0: none."),
	OTHER_KEY("output", "vtu", T_BOOL, vtu, "yes", "Write solution.vtu at the end."),
	OTHER_KEY("output", "vtu_block_id", T_BOOL, vtu_block_id, "no",
		  "Add each cell's block to solution.vtu."),
	INT_KEY("output", "restart_every", restart_every, 0, INT_MAX, "0", NULL,
		"Write the restart file every this many iterations; 0: only at the end."),
	TEXT_KEY("output", "restart", T_STR, restart_from, "", NULL,
		 "Restart file to continue from (relative to the working directory); empty: start from "
		 "the initial state."),
	ENUM_KEY("output", "restart_from_model", restart_from_model, restart_models, restart_model_values, "same",
		 "The physical model a restart may come from when it is not the run's own: same refuses a "
		 "restart of another [flow] model; euler, laminar or sa accepts that model's restart and "
		 "says in the log what it gives (an sa run from an euler restart: nu~ starts at the free "
		 "stream)."),
	INT_KEY("output", "snapshot_every", snapshot_every, 0, INT_MAX, "50", NULL,
		"Keep a copy of the state every this many iterations (two copies, where the state lives: 10 "
		"values per cell more on a GPU), so that a run that diverges writes the last good state to "
		"solution.vtu; 0: none. At least 6. Implicit runs with numerics.retries keep one every 6 "
		"whatever this says (a retry goes back to the newest from before the failure)."),
	TEXT_KEY("output", "trace", T_STR, trace_dir, "", NULL,
		 "Directory for an execution trace (FxT, converted for ViTE/StarVZ); empty: no trace."),
	INT_KEY("output", "trace_from", trace_from, 0, INT_MAX, "0", NULL,
		"With a trace: start recording at this iteration (the tasks before it done first), so that "
		"the iterations, not the start-up, fill the trace; 0: at the run's first iteration."),

	TEXT_KEY("forces", "markers", T_LIST, force_markers, "", "all wall markers",
		 "Comma-separated markers over which forces and moments are integrated."),
	REAL_KEY("forces", "ref_area", ref_area, 0, 1, HUGE_VAL, 0, "1", NULL,
		 "Reference area of the coefficients."),
	REAL_KEY("forces", "ref_length", ref_length, 0, 1, HUGE_VAL, 0, "1", NULL,
		 "Reference length of the moment coefficients."),
	OTHER_KEY("forces", "moment_center", T_VEC3, moment_center, "0,0,0",
		  "Point about which moments are taken, x,y,z."),
};
#define N_KEYS (sizeof keys / sizeof keys[0])
_Static_assert(N_KEYS <= FV_CASE_MAX_KEYS, "raise FV_CASE_MAX_KEYS");

/* ------------------------------------------------------------ numerics */

const char *const fv_sum_keys[FV_N_SUMS] = {"flux_sum", "nodes_sum", "gradient_sum", "limiter_sum", "timestep_sum"};
const char *const fv_sum_names[FV_N_SUM_KINDS + 1] = {"atomic", "gather", "color", "auto", NULL};

void fv_numerics_sums(const fv_numerics_t *n, int sums[FV_N_SUMS])
{
	sums[0] = n->flux_sum;
	sums[1] = n->nodes_sum;
	sums[2] = n->grad_sum;
	sums[3] = n->lim_sum;
	sums[4] = n->dt_sum;
}

const char *fv_sum_name(int sum)
{
	return sum >= 0 && sum < FV_N_SUM_KINDS ? fv_sum_names[sum] : "?";
}

void fv_numerics_default(fv_numerics_t *n)
{
	fv_case_t *c = malloc(sizeof *c);
	if (!c) { /* a default struct is too small to fail on; keep zeros if it does */
		memset(n, 0, sizeof *n);
		return;
	}
	fv_case_default(c);
	*n = c->num;
	free(c);
}

/* key receives the name of the offending key ("nodes_sum"). */
fv_err_t fv_numerics_check(const fv_numerics_t *n, const char **key)
{
	int sums[FV_N_SUMS];
	fv_numerics_sums(n, sums);
	for (int i = 0; i < FV_N_SUMS; i++) {
		if (key)
			*key = fv_sum_keys[i];
		FV_CHECK(sums[i] >= 0 && sums[i] < FV_N_SUM_KINDS, FV_ERR_ARG, "%s: strategy %d unknown", fv_sum_keys[i],
			 sums[i]);
	}
	if (key)
		*key = "nodes_sum";
	FV_CHECK(n->nodes_sum != FV_SUM_COLOR, FV_ERR_ARG,
		 "nodes_sum = color: node values have no colour variant (colour groups are of faces sharing no "
		 "cell; node values scatter into nodes); use gather, atomic or auto");
	if (key)
		*key = "gradient_sum";
	FV_CHECK(n->gradient != FV_GRAD_LEAST_SQUARES || n->grad_sum == FV_SUM_GATHER || n->grad_sum == FV_SUM_AUTO,
		 FV_ERR_ARG,
		 "gradient_sum = %s needs gradient = green-gauss (least squares has only the cell loop: gather or "
		 "auto)",
		 fv_sum_name(n->grad_sum));
	if (key)
		*key = "cfl_max";
	FV_CHECK(n->cfl_max == 0 || n->time_mode == FV_TIME_IMPLICIT, FV_ERR_ARG,
		 "cfl_max = %g: CFL ramping is for time = implicit (an explicit scheme is stable up to CFL 2 or so)",
		 n->cfl_max);
	FV_CHECK(n->cfl_max == 0 || n->cfl_max >= n->cfl, FV_ERR_ARG, "cfl_max = %g is below cfl = %g", n->cfl_max,
		 n->cfl);
	if (key)
		*key = "jacobian";
	FV_CHECK(n->jacobian == FV_JACOBIAN_ROE || (n->time_mode == FV_TIME_IMPLICIT && n->implicit == FV_IMPLICIT_POINT), FV_ERR_ARG,
		 "jacobian = rusanov: the choice of the face blocks' dissipation is for time = implicit with "
		 "implicit = point");
	if (key)
		*key = "linear";
	FV_CHECK(n->linear == FV_LINEAR_SWEEPS || (n->time_mode == FV_TIME_IMPLICIT && n->implicit == FV_IMPLICIT_POINT),
		 FV_ERR_ARG, "linear = gmres: the Krylov solve is for time = implicit with implicit = point");
	if (key)
		*key = "time";
	FV_CHECK(n->time_mode != FV_TIME_IMPLICIT || n->implicit == FV_IMPLICIT_LUSGS || n->implicit == FV_IMPLICIT_POINT,
		 FV_ERR_ARG, "time = implicit: implicit = %d is neither lusgs nor point", n->implicit);
	if (key)
		*key = "";
	return FV_OK;
}

/* Longest value accepted (the command line has no inih line limit). */
#define VALUE_MAX (2 * FV_CASE_PATH_MAX)

const char *fv_bc_kind_name(int kind)
{
	return kind >= 0 && kind < FV_BC_NKINDS ? bc_kinds[kind] : "?";
}

/* ---------------------------------------------------------------- values */

static int parse_real(const char *s, double *v)
{
	char *end;
	/* strtod would skip leading blanks and take hexadecimal floats */
	if (!*s || *s == ' ' || *s == '\t' || strpbrk(s, "xX"))
		return 0;
	errno = 0;
	double x = strtod(s, &end);
	if (*end || errno || !isfinite(x))
		return 0;
	*v = x;
	return 1;
}

static int parse_int(const char *s, long *v)
{
	char *end;
	if (!*s || *s == ' ' || *s == '\t')
		return 0;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (*end || errno || x < INT_MIN || x > INT_MAX)
		return 0;
	*v = x;
	return 1;
}

/* Copies s[0..n) without surrounding blanks into buf (size bufsize). */
static int trimmed(const char *s, size_t n, char *buf, size_t bufsize)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= bufsize)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 1;
}

/* "a,b,c" of finite numbers (blanks around them allowed). */
static int parse_vec3(const char *s, double v[3])
{
	char item[128];
	for (int d = 0; d < 3; d++) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		if ((d < 2) != (comma != NULL) || !trimmed(s, n, item, sizeof item) || !parse_real(item, &v[d]))
			return 0;
		s = comma ? comma + 1 : s + n;
	}
	return 1;
}

static int real_in_range(const key_desc_t *k, double x)
{
	return (k->lo_open ? x > k->lo : x >= k->lo) && (k->hi_open ? x < k->hi : x <= k->hi);
}

/* What a key accepts, as in "expected a number > 0". */
static void expected_text(const key_desc_t *k, char *buf, size_t n)
{
	size_t len = 0;
	switch (k->type) {
	case T_INT:
	case T_REAL: {
		const char *what = k->type == T_INT ? "an integer" : "a number";
		int has_lo = isfinite(k->lo), has_hi = isfinite(k->hi) && !(k->type == T_INT && k->hi >= INT_MAX);
		if (has_lo && has_hi && !k->lo_open && !k->hi_open)
			snprintf(buf, n, "%s in [%.15g, %.15g]", what, k->lo, k->hi);
		else if (has_lo && has_hi)
			snprintf(buf, n, "%s %s %.15g and %s %.15g", what, k->lo_open ? ">" : ">=", k->lo,
				 k->hi_open ? "<" : "<=", k->hi);
		else if (has_lo && k->type == T_INT)
			/* a count over the limit is told the limit */
			snprintf(buf, n, "%s %s %.15g (at most %d, the integer limit)", what, k->lo_open ? ">" : ">=",
				 k->lo, INT_MAX);
		else if (has_lo)
			snprintf(buf, n, "%s %s %.15g", what, k->lo_open ? ">" : ">=", k->lo);
		else if (has_hi)
			snprintf(buf, n, "%s %s %.15g", what, k->hi_open ? "<" : "<=", k->hi);
		else
			snprintf(buf, n, "%s", what);
		return;
	}
	case T_ENUM:
	case T_BC: {
		int count = 0;
		while (k->names[count])
			count++;
		buf[0] = '\0';
		for (int i = 0; i < count && len < n; i++) {
			const char *sep = i == 0 ? "" : i == count - 1 ? " or " : ", ";
			len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, k->names[i]);
		}
		return;
	}
	case T_BOOL:
		snprintf(buf, n, "yes or no");
		return;
	case T_STR:
	case T_PATH:
		snprintf(buf, n, "at most %zu characters", k->size - 1);
		return;
	case T_WORD:
		snprintf(buf, n, "a name of letters, digits, '-' and '_'");
		return;
	case T_LIST:
		snprintf(buf, n, "a comma-separated list of marker names");
		return;
	case T_VEC3:
		snprintf(buf, n, "three numbers x,y,z");
		return;
	case T_STATE:
		snprintf(buf, n, "rho,u,p: three numbers with rho > 0 and p > 0");
		return;
	}
}

static int enum_lookup(const key_desc_t *k, const char *s, int *v)
{
	for (int i = 0; k->names[i]; i++)
		if (strcmp(s, k->names[i]) == 0) {
			*v = k->values ? k->values[i] : i;
			return 1;
		}
	return 0;
}

static const char *enum_name(const key_desc_t *k, int v)
{
	for (int i = 0; k->names[i]; i++)
		if ((k->values ? k->values[i] : i) == v)
			return k->names[i];
	return "?";
}

/* Normalises "a, b ,c" into "a,b,c" in out; 0 on an empty or long name. */
static int parse_list(const char *s, char *out, size_t size)
{
	char item[FV_MARKER_NAME_MAX];
	size_t len = 0;
	out[0] = '\0';
	if (!*s)
		return 1;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		if (!trimmed(s, n, item, sizeof item) || !item[0])
			return 0;
		size_t m = strlen(item);
		if (len + m + 2 > size)
			return 0;
		if (len)
			out[len++] = ',';
		memcpy(out + len, item, m + 1);
		len += m;
		if (!comma)
			return 1;
		s = comma + 1;
	}
}

/* Parses value into the field of key k, leaving it unchanged on failure.
 * line > 0: from the case file (paths are then relative to its dir). */
static int store_value(fv_case_t *c, const key_desc_t *k, const char *value, int line)
{
	char *field = (char *)c + k->off;
	switch (k->type) {
	case T_INT: {
		long x;
		if (!parse_int(value, &x) || x < k->lo || x > k->hi)
			return 0;
		*(int *)field = (int)x;
		return 1;
	}
	case T_REAL: {
		double x;
		if (!parse_real(value, &x) || !real_in_range(k, x))
			return 0;
		*(double *)field = x;
		return 1;
	}
	case T_ENUM:
		return enum_lookup(k, value, (int *)field);
	case T_BOOL:
		if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
			return 0;
		*(int *)field = value[0] == 'y';
		return 1;
	case T_WORD:
		for (const char *p = value; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			      *p == '-' || *p == '_'))
				return 0;
		/* fall through */
	case T_STR:
		if (strlen(value) >= k->size)
			return 0;
		strcpy(field, value);
		return 1;
	case T_PATH: {
		/* a relative path in the file means the file's directory, so a
		 * case runs the same from any working directory */
		int join = line > 0 && value[0] && value[0] != '/' && strcmp(c->dir, ".") != 0;
		int n = join ? snprintf(field, k->size, "%s/%s", c->dir, value)
			     : snprintf(field, k->size, "%s", value);
		return n >= 0 && (size_t)n < k->size;
	}
	case T_LIST: {
		char buf[FV_CASE_PATH_MAX];
		if (k->size > sizeof buf || !parse_list(value, buf, k->size))
			return 0;
		strcpy(field, buf);
		return 1;
	}
	case T_VEC3:
	case T_STATE: {
		double v[3];
		if (!parse_vec3(value, v) || (k->type == T_STATE && !(v[0] > 0 && v[2] > 0)))
			return 0;
		memcpy(field, v, sizeof v);
		return 1;
	}
	case T_BC:
		break;
	}
	return 0;
}

/* ------------------------------------------------------------ key lookup */

static const section_desc_t *find_section(const char *name)
{
	for (size_t s = 0; s < N_SECTIONS; s++)
		if (strcmp(sections[s].name, name) == 0)
			return &sections[s];
	return NULL;
}

/* The key of that name in section, else the section's T_BC wildcard. */
static int find_key(const char *section, const char *name)
{
	int any = -1;
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcmp(keys[i].section, section) == 0) {
			if (keys[i].type == T_BC)
				any = (int)i;
			else if (strcmp(keys[i].name, name) == 0)
				return (int)i;
		}
	return any;
}

/* Levenshtein distance of two short names (longer ones: a large value), for
 * the "did you mean" of an unknown section or key. */
static int name_distance(const char *a, const char *b)
{
	enum { M = 48 };
	int row[M + 1], la = (int)strlen(a), lb = (int)strlen(b);
	if (la > M || lb > M)
		return M;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* "did you mean 'x'? " for the closest of names (a typo: at most a third of
 * the name's edits apart, 2 at least, as a swap of two letters is 2; 1 for
 * names of 1 or 2 characters), else "". */
static void suggest(const char *name, const char *const *names, size_t n_names, char *buf, size_t n)
{
	int len = (int)strlen(name), best = len <= 2 ? 1 : len / 3 < 2 ? 2 : len / 3, found = -1;
	for (size_t i = 0; i < n_names; i++) {
		int d = name_distance(name, names[i]);
		if (d <= best)
			best = d, found = (int)i;
	}
	if (found >= 0)
		snprintf(buf, n, "did you mean '%s'? ", names[found]);
	else
		buf[0] = '\0';
}

/* The suggestion for an unknown section: the nearest section name. */
static void suggest_section(const char *section, char *buf, size_t n)
{
	const char *names[N_SECTIONS];
	for (size_t s = 0; s < N_SECTIONS; s++)
		names[s] = sections[s].name;
	suggest(section, names, N_SECTIONS, buf, n);
}

/* The suggestion for an unknown key: the nearest key of its section, else
 * the section that has a key of exactly that name. */
static void suggest_key(const char *section, const char *name, char *buf, size_t n)
{
	const char *names[N_KEYS];
	size_t k = 0;
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcmp(keys[i].section, section) == 0 && keys[i].type != T_BC)
			names[k++] = keys[i].name;
	suggest(name, names, k, buf, n);
	if (buf[0])
		return;
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcmp(keys[i].name, name) == 0 && keys[i].type != T_BC) {
			snprintf(buf, n, "did you mean %s.%s ([%s] %s)? ", keys[i].section, name, keys[i].section,
				 name);
			return;
		}
}

static void section_list(char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t s = 0; s < N_SECTIONS && len < n; s++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", s ? ", " : "", sections[s].name);
}

static void key_list(const char *section, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < N_KEYS && len < n; i++)
		if (strcmp(keys[i].section, section) == 0)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", keys[i].name);
}

/* "case.cfg:12", "command line" or "default": where line says a key was set. */
static void where_text(const fv_case_t *c, int line, char *buf, size_t n)
{
	if (line > 0)
		snprintf(buf, n, "%s:%d", c->path, line);
	else if (line < 0)
		snprintf(buf, n, "command line");
	else
		snprintf(buf, n, "default");
}

static fv_err_t set_bc(fv_case_t *c, const key_desc_t *k, const char *where, const char *name,
		       const char *value, int line)
{
	char expected[256];
	int kind, slot = -1;
	FV_CHECK(strlen(name) < FV_MARKER_NAME_MAX, FV_ERR_ARG,
		 "%s: [bc] %s: a marker name has at most %d characters", where, name, FV_MARKER_NAME_MAX - 1);
	if (!enum_lookup(k, value, &kind)) {
		expected_text(k, expected, sizeof expected);
		return FV_ERROR(FV_ERR_ARG, "%s: [bc] %s = '%s': expected %s", where, name, value, expected);
	}
	for (int i = 0; i < c->n_bc; i++)
		if (strcmp(c->bc[i].marker, name) == 0)
			slot = i;
	if (slot >= 0) {
		FV_CHECK(!(line > 0 && c->bc[slot].line > 0), FV_ERR_ARG,
			 "%s: [bc] %s = '%s': duplicate key (first set at line %d)", where, name, value,
			 c->bc[slot].line);
		FV_CHECK(!(line < 0 && c->bc[slot].line < 0), FV_ERR_ARG,
			 "%s: [bc] %s = '%s': given twice", where, name, value);
	} else {
		FV_CHECK(c->n_bc < FV_CASE_MAX_BC, FV_ERR_ARG,
			 "%s: [bc] %s: more than %d boundary conditions", where, name, FV_CASE_MAX_BC);
		slot = c->n_bc++;
		strcpy(c->bc[slot].marker, name);
	}
	c->bc[slot].kind = kind;
	c->bc[slot].line = line;
	return FV_OK;
}

/* Sets [section] name = value; where names the source in messages, line
 * is > 0 for a case-file line and -1 for the command line. */
static fv_err_t set_key(fv_case_t *c, const char *section, const char *name, const char *raw, const char *where,
			int line)
{
	char value[VALUE_MAX], list[512], expected[256], hint[128];
	size_t n = strlen(raw);
	int ki;

	FV_CHECK(section[0], FV_ERR_ARG, "%s: %s = '%s' comes before any [section]", where, name, raw);
	if (!find_section(section)) {
		section_list(list, sizeof list);
		suggest_section(section, hint, sizeof hint);
		return FV_ERROR(FV_ERR_ARG, "%s: unknown section [%s] (%ssections: %s)", where, section, hint, list);
	}
	ki = find_key(section, name);
	if (ki < 0) {
		key_list(section, list, sizeof list);
		suggest_key(section, name, hint, sizeof hint);
		return FV_ERROR(FV_ERR_ARG, "%s: [%s] unknown key '%s' (%skeys of [%s]: %s)", where, section, name,
				hint, section, list);
	}
	/* one pair of double quotes around a value is dropped ("1,0,1") */
	if (n >= 2 && raw[0] == '"' && raw[n - 1] == '"')
		raw++, n -= 2;
	FV_CHECK(n < sizeof value, FV_ERR_ARG, "%s: [%s] %s: value longer than %zu characters", where, section,
		 name, sizeof value - 1);
	memcpy(value, raw, n);
	value[n] = '\0';

	const key_desc_t *k = &keys[ki];
	if (k->type == T_BC)
		return set_bc(c, k, where, name, value, line);
	FV_CHECK(!(line > 0 && c->key_line[ki] > 0), FV_ERR_ARG,
		 "%s: [%s] %s = '%s': duplicate key (first set at line %d)", where, section, name, value,
		 c->key_line[ki]);
	FV_CHECK(!(line < 0 && c->key_line[ki] < 0), FV_ERR_ARG, "%s: [%s] %s = '%s': given twice", where,
		 section, name, value);
	if (!store_value(c, k, value, line)) {
		expected_text(k, expected, sizeof expected);
		return FV_ERROR(FV_ERR_ARG, "%s: [%s] %s = '%s': expected %s", where, section, name, value,
				expected);
	}
	c->key_line[ki] = line;
	c->finished = 0;
	return FV_OK;
}

/* --------------------------------------------------------------- the API */

void fv_case_default(fv_case_t *c)
{
	memset(c, 0, sizeof *c);
	strcpy(c->dir, ".");
	for (size_t i = 0; i < N_KEYS; i++)
		if (keys[i].def && !store_value(c, &keys[i], keys[i].def, 0)) {
			/* the table contradicts itself: test_case_io catches this */
			fprintf(stderr, "fvstar: bad default '%s' of [%s] %s\n", keys[i].def, keys[i].section,
				keys[i].name);
			abort();
		}
}

fv_err_t fv_case_set(fv_case_t *c, const char *section_dot_key, const char *value, const char *origin)
{
	char section[64];
	const char *dot = strchr(section_dot_key, '.');
	const char *where = origin && *origin ? origin : "command line";
	size_t n = dot ? (size_t)(dot - section_dot_key) : 0;
	FV_CHECK(dot && n > 0 && n < sizeof section && dot[1], FV_ERR_ARG,
		 "%s: '%s' is not section.key (as in numerics.cfl=2)", where, section_dot_key);
	memcpy(section, section_dot_key, n);
	section[n] = '\0';
	return set_key(c, section, dot + 1, value, where, -1);
}

fv_err_t fv_case_set_arg(fv_case_t *c, const char *arg, const char *origin)
{
	char key[256];
	const char *eq = strchr(arg, '=');
	const char *where = origin && *origin ? origin : "command line";
	size_t n = eq ? (size_t)(eq - arg) : 0;
	FV_CHECK(eq && n > 0 && n < sizeof key, FV_ERR_ARG, "%s: '%s' is not section.key=value (as in numerics.cfl=2)",
		 where, arg);
	memcpy(key, arg, n);
	key[n] = '\0';
	return fv_case_set(c, key, eq + 1, origin);
}

/* inih reads lines through this, from the file in memory. */
typedef struct ini_ctx {
	fv_case_t *c;
	const char *p, *end;
	int line;          /* lines handed to inih so far: the current line */
	int long_line;     /* first line too long for inih's buffer, 0: none */
	int max_line;      /* the longest line inih takes, in characters */
	fv_err_t err;      /* first error of a key (message in fv_errmsg) */
	int err_line;
} ini_ctx_t;

static char *case_ini_reader(char *str, int num, void *stream)
{
	ini_ctx_t *x = stream;
	const char *s = x->p, *eol, *next;
	size_t n;
	if (s >= x->end)
		return NULL;
	eol = memchr(s, '\n', (size_t)(x->end - s));
	next = eol ? eol + 1 : x->end;
	x->p = next;
	x->line++;
	/* inih takes an indented line for the continuation of the previous
	 * value; dropping the indent makes indented keys plain keys */
	while (s < next && (*s == ' ' || *s == '\t'))
		s++;
	n = (size_t)(next - s);
	if (n + 1 > (size_t)num) {
		/* inih would split it into two lines: report it instead, and
		 * hand inih an empty line so its line count stays right */
		if (!x->long_line) {
			x->long_line = x->line;
			x->max_line = num - 2; /* room for '\n' and '\0' */
		}
		n = 0;
	}
	memcpy(str, s, n);
	str[n] = '\0';
	return str;
}

static int case_ini_handler(void *user, const char *section, const char *name, const char *value)
{
	ini_ctx_t *x = user;
	char where[FV_CASE_PATH_MAX + 16];
	if (x->err)
		return 1; /* only the first error is reported */
	snprintf(where, sizeof where, "%s:%d", x->c->path, x->line);
	x->err = set_key(x->c, section, name, value, where, x->line);
	if (x->err)
		x->err_line = x->line;
	return 1;
}

/* dir and name of the case file at path */
static fv_err_t set_case_path(fv_case_t *c, const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t n = strlen(path);
	FV_CHECK(n > 0 && n < sizeof c->path, FV_ERR_ARG, "case file name '%s' is empty or too long", path);
	strcpy(c->path, path);
	if (!slash)
		strcpy(c->dir, ".");
	else if (slash == path)
		strcpy(c->dir, "/");
	else
		snprintf(c->dir, sizeof c->dir, "%.*s", (int)(slash - path), path);
	snprintf(c->name, sizeof c->name, "%s", base);
	n = strlen(c->name);
	if (n > 4 && strcmp(c->name + n - 4, ".cfg") == 0)
		c->name[n - 4] = '\0';
	return FV_OK;
}

fv_err_t fv_case_parse(fv_case_t *c, const char *buf, size_t len, const char *name)
{
	ini_ctx_t x = {.c = c};
	const char *nul;
	int ret, bad = 0;

	FV_CHECK(!c->path[0], FV_ERR_ARG, "%s: a case file (%s) was read already", name, c->path);
	FV_CALL(set_case_path(c, name));
	nul = memchr(buf, '\0', len);
	if (nul) {
		int line = 1;
		for (const char *p = buf; p < nul; p++)
			line += *p == '\n';
		return FV_ERROR(FV_ERR_FORMAT, "%s:%d: NUL byte: not a text file", name, line);
	}
	x.p = buf;
	x.end = buf + len;
	ret = ini_parse_stream(case_ini_reader, &x, case_ini_handler, &x);
	FV_CHECK(ret >= 0, FV_ERR_MEM, "%s: the INI parser ran out of memory", name);

	/* the first problem by line: a bad key, a line inih could not read,
	 * or one too long for it */
	if (x.err)
		bad = x.err_line;
	if (x.long_line && (!bad || x.long_line < bad))
		bad = x.long_line;
	if (ret > 0 && (!bad || ret < bad))
		bad = ret;
	if (!bad)
		return FV_OK;
	if (bad == x.err_line && x.err)
		return fv_error_trace(x.err, __FILE__, __LINE__);
	if (bad == x.long_line)
		return FV_ERROR(FV_ERR_FORMAT, "%s:%d: line longer than %d characters, the INI parser's limit", name,
				bad, x.max_line);
	return FV_ERROR(FV_ERR_FORMAT, "%s:%d: expected '[section]', 'key = value' or a comment (; or #)", name,
			bad);
}

fv_err_t fv_case_read(fv_case_t *c, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	fv_err_t err;

	FV_CHECK(!c->path[0], FV_ERR_ARG, "%s: a case file (%s) was read already", path, c->path);
	FV_CALL(fv_read_file(path, &buf, &len));
	err = fv_case_parse(c, buf, len, path);
	free(buf);
	return err == FV_OK ? FV_OK : fv_error_trace(err, __FILE__, __LINE__);
}

static int key_index(const char *section, const char *name)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (strcmp(keys[i].section, section) == 0 && strcmp(keys[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* time = implicit on its own: implicit-sized steps, their ramp and the
 * per-cell limit (the explicit defaults, CFL 1 with no ramp, dropped 1.2
 * orders in 400 iterations on the wedge); a key the case sets keeps its
 * value. */
static void implicit_defaults(fv_case_t *c)
{
	fv_numerics_t *n = &c->num;
	if (n->time_mode != FV_TIME_IMPLICIT)
		return;
	if (!c->key_line[key_index("numerics", "cfl")])
		n->cfl = FV_IMPLICIT_CFL;
	if (!c->key_line[key_index("numerics", "cfl_max")])
		n->cfl_max = n->cfl > FV_IMPLICIT_CFL_MAX ? n->cfl : FV_IMPLICIT_CFL_MAX;
	if (!c->key_line[key_index("numerics", "max_update")])
		n->max_update = FV_IMPLICIT_MAX_UPDATE;
	if (!c->key_line[key_index("numerics", "cfl_ramp")])
		n->cfl_ramp = FV_CFL_RAMP_GROWTH;
	if (!c->key_line[key_index("numerics", "cfl_growth")] && n->cfl_ramp == FV_CFL_RAMP_GROWTH)
		n->cfl_growth = FV_IMPLICIT_CFL_GROWTH;
}

/* limiter_shock unset: the pressure switch where the free stream can hold
 * a strong shock. Without it the Mach 6 blunt body's second-order solution
 * never settles (explicitly either: its bow shock's pressure ratio is 42,
 * and the free-stream cell one node from it flips its slope every
 * iteration); with it everywhere the Mach 2 wedge's oblique shock (ratio
 * 1.7) goes to first order and its answer moves 8.5e-2. From Mach 3 a
 * normal shock's ratio is 10 or more; below it the switch stays off, so
 * every case under Mach 3 runs as before bit for bit. */
static void shock_default(fv_case_t *c)
{
	if (!c->key_line[key_index("numerics", "limiter_shock")] && c->mach >= FV_SHOCK_MACH)
		c->num.limiter_shock = FV_SHOCK_AUTO;
}

/* Empty, or a comma-separated list of positive numbers. */
static int speeds_valid(const char *s)
{
	while (*s) {
		char *end;
		double x = strtod(s, &end);
		if (end == s || !(x > 0) || !isfinite(x) || (*end && *end != ','))
			return 0;
		s = *end ? end + 1 : end;
		if (!*s && *end)
			return 0; /* a trailing comma */
	}
	return 1;
}

fv_err_t fv_case_finish(fv_case_t *c)
{
	char where[FV_CASE_PATH_MAX + 16];
	const char *of = c->path[0] ? c->path : "the case (no case file)";
	int k_time = key_index("numerics", "time"), k_tend = key_index("numerics", "t_end");

	FV_CHECK(c->mesh_file[0], FV_ERR_ARG, "%s: [mesh] file is not set", of);
	if (c->num.time_mode == FV_TIME_UNSTEADY && c->num.t_end == 0) {
		where_text(c, c->key_line[k_time], where, sizeof where);
		return FV_ERROR(FV_ERR_ARG, "%s: [numerics] time = unsteady needs [numerics] t_end (the end time)",
				where);
	}
	if (c->num.time_mode != FV_TIME_UNSTEADY && c->num.t_end != 0) {
		where_text(c, c->key_line[k_tend], where, sizeof where);
		return FV_ERROR(FV_ERR_ARG,
				"%s: [numerics] t_end = %g is set but time = %s (set time = unsteady or drop t_end)",
				where, c->num.t_end, time_modes[c->num.time_mode]);
	}
	FV_CHECK(c->ncpu != 0 || c->ncuda != 0, FV_ERR_ARG,
		 "%s: [runtime] ncpu = 0 and ncuda = 0 leave no worker", of);
	if (!speeds_valid(c->worker_speeds)) {
		where_text(c, c->key_line[key_index("runtime", "worker_speeds")], where, sizeof where);
		return FV_ERROR(FV_ERR_ARG, "%s: [runtime] worker_speeds = %s: not a comma-separated list of positive numbers",
				where, c->worker_speeds);
	}
	implicit_defaults(c);
	shock_default(c);
	{
		const char *key = NULL;
		if (fv_numerics_check(&c->num, &key) != FV_OK) {
			char msg[512];
			snprintf(msg, sizeof msg, "%s", fv_errmsg());
			where_text(c, c->key_line[key_index("numerics", key)], where, sizeof where);
			return FV_ERROR(FV_ERR_ARG, "%s: [numerics] %s", where, msg);
		}
	}
	if (c->p_out == 0)
		c->p_out = 1.0 / c->gamma;
	FV_CHECK(c->model == FV_MODEL_EULER || c->mach > 0, FV_ERR_ARG,
		 "%s: [flow] model = %s needs mach > 0 (the Reynolds number is on the free-stream speed)", of,
		 models[c->model]);
	if (c->wall_temperature == 0)
		c->wall_temperature = c->temperature;
	for (int b = 0; b < c->n_bc; b++)
		if (fv_bc_is_noslip(c->bc[b].kind) && c->model == FV_MODEL_EULER) {
			where_text(c, c->bc[b].line, where, sizeof where);
			return FV_ERROR(FV_ERR_ARG,
					"%s: [bc] %s = %s: a viscous wall needs [flow] model = laminar or sa (an "
					"inviscid wall is 'wall')",
					where, c->bc[b].marker, fv_bc_kind_name(c->bc[b].kind));
		}
	if (!c->out_dir[0]) {
		int n = snprintf(c->out_dir, sizeof c->out_dir, "out/%s", c->name[0] ? c->name : "fvstar");
		FV_CHECK(n > 0 && (size_t)n < sizeof c->out_dir, FV_ERR_ARG, "%s: output directory name too long", of);
	}
	c->finished = 1;
	return FV_OK;
}

/* ------------------------------------------------------------- printing */

/* The shortest %g that reads back as x. */
static void format_real(double x, char *buf, size_t n)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}

/* The field of k as the text that sets it; 0 when unset (no text). */
static int format_value(const fv_case_t *c, const key_desc_t *k, char *buf, size_t n)
{
	const char *field = (const char *)c + k->off;
	char a[32], b[32], d[32];
	switch (k->type) {
	case T_INT:
		snprintf(buf, n, "%d", *(const int *)field);
		return 1;
	case T_REAL:
		format_real(*(const double *)field, buf, n);
		return k->def != NULL || *(const double *)field != 0;
	case T_ENUM:
		snprintf(buf, n, "%s", enum_name(k, *(const int *)field));
		return 1;
	case T_BOOL:
		snprintf(buf, n, "%s", *(const int *)field ? "yes" : "no");
		return 1;
	case T_STR:
	case T_WORD:
	case T_PATH:
	case T_LIST:
		snprintf(buf, n, "%s", field);
		return 1;
	case T_VEC3:
	case T_STATE: {
		const double *v = (const double *)field;
		format_real(v[0], a, sizeof a);
		format_real(v[1], b, sizeof b);
		format_real(v[2], d, sizeof d);
		snprintf(buf, n, "%s,%s,%s", a, b, d);
		return 1;
	}
	case T_BC:
		break;
	}
	buf[0] = '\0';
	return 0;
}

static void print_origin(const fv_case_t *c, int line, FILE *out)
{
	char where[FV_CASE_PATH_MAX + 16];
	if (line != 0) {
		where_text(c, line, where, sizeof where);
		fprintf(out, "  ; %s", where);
	}
	fputc('\n', out);
}

void fv_case_print(const fv_case_t *c, FILE *out)
{
	char value[VALUE_MAX];
	const char *section = "";
	fprintf(out, "; fvstar case %s: effective values%s\n", c->path[0] ? c->path : "(none)",
		c->finished ? "" : " (before fv_case_finish)");
	for (size_t i = 0; i < N_KEYS; i++) {
		const key_desc_t *k = &keys[i];
		if (strcmp(k->section, section) != 0) {
			section = k->section;
			fprintf(out, "\n[%s]\n", section);
		}
		if (k->type == T_BC) {
			for (int b = 0; b < c->n_bc; b++) {
				fprintf(out, "%s = %s", c->bc[b].marker, fv_bc_kind_name(c->bc[b].kind));
				print_origin(c, c->bc[b].line, out);
			}
			continue;
		}
		if (!format_value(c, k, value, sizeof value)) {
			fprintf(out, "; %s = %s\n", k->name, k->def_doc ? k->def_doc : "");
			continue;
		}
		/* blanks at either end would be lost without the quotes */
		size_t n = strlen(value);
		int quote = n && (value[0] == ' ' || value[n - 1] == ' ' || value[0] == '"');
		fprintf(out, quote ? "%s = \"%s\"" : n ? "%s = %s" : "%s =%s", k->name, value);
		print_origin(c, c->key_line[i], out);
	}
}

static const char *type_doc(const key_desc_t *k, char *buf, size_t n)
{
	size_t len = 0;
	switch (k->type) {
	case T_INT:
	case T_REAL:
		expected_text(k, buf, n);
		/* "an integer >= 0" reads as a type without the article */
		return strncmp(buf, "an ", 3) == 0 ? buf + 3 : strncmp(buf, "a ", 2) == 0 ? buf + 2 : buf;
	case T_ENUM:
	case T_BC:
		buf[0] = '\0';
		for (int i = 0; k->names[i] && len < n; i++)
			len += (size_t)snprintf(buf + len, n - len, "%s`%s`", i ? ", " : "", k->names[i]);
		return buf;
	case T_BOOL:
		return "`yes`, `no`";
	case T_STR:
		return "path";
	case T_WORD:
		return "name";
	case T_PATH:
		return "path (see above)";
	case T_LIST:
		return "list `a,b`";
	case T_VEC3:
		return "`x,y,z`";
	case T_STATE:
		return "`rho,u,p`";
	}
	return "";
}

void fv_case_write_doc(FILE *out)
{
	fv_case_write_doc_section(out, NULL);
}

fv_err_t fv_case_write_doc_section(FILE *out, const char *section)
{
	char type[256];
	if (section && !find_section(section)) {
		char list[256];
		section_list(list, sizeof list);
		return FV_ERROR(FV_ERR_ARG, "no section [%s] in a case file (sections: %s)", section, list);
	}
	for (size_t s = 0; s < N_SECTIONS; s++) {
		if (section && strcmp(section, sections[s].name) != 0)
			continue;
		fprintf(out, "### [%s]\n\n%s\n\n| key | accepts | default | meaning |\n|---|---|---|---|\n",
			sections[s].name, sections[s].doc);
		for (size_t i = 0; i < N_KEYS; i++) {
			const key_desc_t *k = &keys[i];
			if (strcmp(k->section, sections[s].name) != 0)
				continue;
			fprintf(out, "| `%s` | %s | ", k->name, type_doc(k, type, sizeof type));
			if (k->def_doc)
				fprintf(out, "%s", k->def_doc);
			else
				fprintf(out, k->def[0] ? "`%s`" : "(empty)", k->def);
			fprintf(out, " | %s |\n", k->doc);
		}
		fprintf(out, "\n");
	}
	return FV_OK;
}

json_t *fv_case_json(const fv_case_t *c)
{
	json_t *root = json_object();
	json_t *sec = NULL;
	const char *section = "";
	if (!root)
		return NULL;
	json_object_set_new(root, "file", json_string(c->path));
	for (size_t i = 0; i < N_KEYS; i++) {
		const key_desc_t *k = &keys[i];
		const char *field = (const char *)c + k->off;
		json_t *v = NULL;
		if (strcmp(k->section, section) != 0) {
			section = k->section;
			sec = json_object();
			json_object_set_new(root, section, sec);
		}
		switch (k->type) {
		case T_INT:
			v = json_integer(*(const int *)field);
			break;
		case T_REAL:
			v = k->def || *(const double *)field != 0 ? fv_json_real(*(const double *)field) : json_null();
			break;
		case T_ENUM: {
			/* order = 2 and rk = 3 are numbers, not names */
			const char *name = enum_name(k, *(const int *)field);
			v = name[0] >= '0' && name[0] <= '9' ? json_integer(*(const int *)field) : json_string(name);
			break;
		}
		case T_BOOL:
			v = json_boolean(*(const int *)field);
			break;
		case T_STR:
		case T_WORD:
		case T_PATH:
		case T_LIST:
			v = json_string(field);
			break;
		case T_VEC3:
		case T_STATE: {
			const double *d = (const double *)field;
			v = json_pack("[fff]", d[0], d[1], d[2]);
			break;
		}
		case T_BC:
			for (int b = 0; b < c->n_bc; b++)
				json_object_set_new(sec, c->bc[b].marker, json_string(fv_bc_kind_name(c->bc[b].kind)));
			continue;
		}
		json_object_set_new(sec, k->name, v ? v : json_null());
	}
	/* the axes of the forces, which a 2D mesh turns into its plane */
	json_object_set_new(json_object_get(root, "flow"), "axes", json_string(fv_case_axes(c)));
	return root;
}

/* ------------------------------------------------------------ markers */

static int find_marker(const fv_mesh_t *m, const char *name)
{
	for (int k = 0; k < m->n_markers; k++)
		if (strcmp(m->markers[k].name, name) == 0)
			return k;
	return -1;
}

static void marker_list(const fv_mesh_t *m, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < m->n_markers && len < n; k++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? ", " : "", m->markers[k].name);
}

static const char *case_of(const fv_case_t *c)
{
	return c->path[0] ? c->path : "the case";
}

fv_err_t fv_case_bc_kinds(const fv_case_t *c, const fv_mesh_t *m, int *kind)
{
	char missing[512], names[512], where[FV_CASE_PATH_MAX + 16];
	size_t len = 0;
	int n_missing = 0, first = -1;

	missing[0] = '\0';
	for (int k = 0; k < m->n_markers; k++) {
		int b = 0;
		while (b < c->n_bc && strcmp(c->bc[b].marker, m->markers[k].name) != 0)
			b++;
		if (b < c->n_bc) {
			if (kind)
				kind[k] = c->bc[b].kind;
		} else {
			if (len < sizeof missing)
				len += (size_t)snprintf(missing + len, sizeof missing - len, "%s'%s'",
							n_missing ? ", " : "", m->markers[k].name);
			if (first < 0)
				first = k;
			n_missing++;
		}
	}
	if (n_missing)
		return FV_ERROR(FV_ERR_ARG,
				"marker%s %s ha%s no boundary condition in [bc] of %s (add '%s = wall' or %s, "
				"%s, %s, %s, %s)",
				n_missing > 1 ? "s" : "", missing, n_missing > 1 ? "ve" : "s", case_of(c),
				m->markers[first].name, bc_kinds[FV_BC_FARFIELD], bc_kinds[FV_BC_SYMMETRY],
				bc_kinds[FV_BC_SUPERSONIC_INFLOW], bc_kinds[FV_BC_SUPERSONIC_OUTFLOW],
				bc_kinds[FV_BC_PRESSURE_OUTLET]);
	for (int b = 0; b < c->n_bc; b++)
		if (find_marker(m, c->bc[b].marker) < 0) {
			where_text(c, c->bc[b].line, where, sizeof where);
			marker_list(m, names, sizeof names);
			return FV_ERROR(FV_ERR_ARG, "%s: [bc] %s = %s: the mesh (%s) has no marker '%s' (its markers: %s)",
					where, c->bc[b].marker, fv_bc_kind_name(c->bc[b].kind), m->source,
					c->bc[b].marker, names);
		}
	return fv_case_force_markers(c, m, NULL);
}

fv_err_t fv_case_check_markers(const fv_case_t *c, const fv_mesh_t *m)
{
	return fv_case_bc_kinds(c, m, NULL);
}

fv_err_t fv_case_force_markers(const fv_case_t *c, const fv_mesh_t *m, uint8_t *is_force)
{
	char item[FV_MARKER_NAME_MAX], names[512], where[FV_CASE_PATH_MAX + 16];
	const char *s = c->force_markers;
	if (is_force)
		memset(is_force, 0, (size_t)m->n_markers);
	if (!*s) {
		for (int b = 0; b < c->n_bc && is_force; b++) {
			int k = find_marker(m, c->bc[b].marker);
			if (k >= 0 && fv_bc_is_wall(c->bc[b].kind))
				is_force[k] = 1;
		}
		return FV_OK;
	}
	/* the list is normalised ("a,b") by parse_list */
	while (*s) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		snprintf(item, sizeof item, "%.*s", (int)n, s);
		int k = find_marker(m, item);
		if (k < 0) {
			where_text(c, c->key_line[key_index("forces", "markers")], where, sizeof where);
			marker_list(m, names, sizeof names);
			return FV_ERROR(FV_ERR_ARG, "%s: [forces] markers: the mesh (%s) has no marker '%s' (its markers: %s)",
					where, m->source, item, names);
		}
		if (is_force)
			is_force[k] = 1;
		s += n + (comma != NULL);
	}
	return FV_OK;
}

/* ------------------------------------------------------------- physics */

fv_err_t fv_case_set_mesh_2d(fv_case_t *c, int is_2d)
{
	char where[FV_CASE_PATH_MAX + 32];
	c->mesh_2d = is_2d != 0;
	if (!c->mesh_2d || c->beta_deg == 0)
		return FV_OK;
	where_text(c, c->key_line[key_index("flow", "beta")], where, sizeof where);
	return FV_ERROR(FV_ERR_ARG,
			"%s: [flow] beta = %g on a 2D mesh (%s, extruded in z): a 2D flow has no sideslip, and beta would "
			"turn it towards +y only as a stand-in for the angle of attack; on a 2D mesh [flow] alpha turns "
			"the free stream in the x-y plane, with the lift along y (CL) and the drag along x (CD): set "
			"alpha = %g and beta = 0",
			where, c->beta_deg, c->mesh_file, c->beta_deg);
}

const char *fv_case_axes(const fv_case_t *c)
{
	return c->mesh_2d ? "lift along y, drag along x (2D mesh: alpha turns both in the x-y plane; CS is the z force)"
			  : "lift along z, drag along x, side force along y (3D mesh: alpha turns the free stream "
			    "towards +z, beta towards +y)";
}

void fv_case_freestream(const fv_case_t *c, double prim[5])
{
	const double deg = acos(-1.0) / 180;
	double a = c->alpha_deg * deg, b = c->beta_deg * deg;
	prim[0] = 1;
	if (c->mesh_2d) {
		/* a 2D mesh lies in the x-y plane (extruded in z): SU2's 2D
		 * convention */
		prim[1] = c->mach * cos(a);
		prim[2] = c->mach * sin(a);
		prim[3] = 0;
	} else {
		prim[1] = c->mach * cos(a) * cos(b);
		prim[2] = c->mach * sin(b);
		prim[3] = c->mach * sin(a) * cos(b);
	}
	prim[4] = 1 / c->gamma;
}

void fv_case_force_coeffs(const fv_case_t *c, const double force[3], const double moment[3], double coef[FV_NCOEF])
{
	double w[5], axes[3][3], q, fq, mq;
	fv_case_freestream(c, w);
	fv_case_force_axes(c, axes[0], axes[1], axes[2]);
	q = 0.5 * w[0] * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]);
	fq = q > 0 ? 1 / (q * c->ref_area) : 0;
	mq = fq / c->ref_length;
	for (int k = 0; k < 3; k++) {
		coef[k] = fq * (force[0] * axes[k][0] + force[1] * axes[k][1] + force[2] * axes[k][2]);
		coef[3 + k] = mq * moment[k];
	}
}

void fv_case_force_axes(const fv_case_t *c, double drag[3], double side[3], double lift[3])
{
	const double deg = acos(-1.0) / 180;
	double a = c->alpha_deg * deg, b = c->beta_deg * deg;
	if (c->mesh_2d) {
		drag[0] = cos(a);
		drag[1] = sin(a);
		drag[2] = 0;
		side[0] = 0;
		side[1] = 0;
		side[2] = 1;
		lift[0] = -sin(a);
		lift[1] = cos(a);
		lift[2] = 0;
		return;
	}
	drag[0] = cos(a) * cos(b);
	drag[1] = sin(b);
	drag[2] = sin(a) * cos(b);
	side[0] = -cos(a) * sin(b);
	side[1] = cos(b);
	side[2] = -sin(a) * sin(b);
	lift[0] = -sin(a);
	lift[1] = 0;
	lift[2] = cos(a);
}
