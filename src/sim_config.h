/* SPDX-License-Identifier: MIT */
/* What config.h says for fvstar-sim's objects (-DFV_SIMGRID): StarPU's
 * SimGrid build simulates the CUDA workers (no CUDA code is built or
 * called) and has no StarPU-MPI (m4/fv_simgrid.m4). */
/* no include guard: config.h may be read twice, each time redefining */
#undef FV_HAVE_CUDA
#undef FV_HAVE_MPI
