/* SPDX-License-Identifier: MIT */
/* Where a traced run finds the FxT build of StarPU and starpu_fxt_tool:
 * beside an installed fvstar, else in the StarPU the build was configured
 * with. */
#ifndef FVSTAR_RUNTIME_PATHS_H
#define FVSTAR_RUNTIME_PATHS_H

/* The directory of the FxT-enabled libstarpu: $FVSTAR_STARPU_TRACE_LIBDIR
 * when set; else EXEDIR/FV_REL_LIBDIR/fvstar/starpu-fxt when it exists
 * (`make install`, tools/device-pack.sh); else the build's
 * FV_STARPU_TRACE_LIBDIR. Never NULL; computed once. */
const char *fv_starpu_trace_libdir(void);
/* starpu_fxt_tool: $FVSTAR_STARPU_FXT_TOOL when set; else
 * EXEDIR/FV_REL_LIBEXECDIR/fvstar/starpu_fxt_tool when it is there; else
 * FV_STARPU_BINDIR/starpu_fxt_tool. Never NULL; computed once. */
const char *fv_starpu_fxt_tool(void);

#endif
