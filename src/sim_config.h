/* SPDX-License-Identifier: MIT */
/* What config.h says for the simulated builds' objects (-DFV_SIMGRID):
 * StarPU's SimGrid build simulates the CUDA workers (no CUDA code is built
 * or called); fvstar-sim's StarPU has no StarPU-MPI, fvstar-smpi's
 * (-DFV_SMPI) has it over SimGrid's SMPI (m4/fv_simgrid.m4). */
/* no include guard: config.h may be read twice, each time redefining */
#undef FV_HAVE_CUDA
#undef FV_HAVE_MPI
#ifdef FV_SMPI
#define FV_HAVE_MPI 1
#endif
