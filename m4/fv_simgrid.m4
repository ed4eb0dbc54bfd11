# SPDX-License-Identifier: MIT
# --with-starpu-simgrid=PREFIX: StarPU 1.3 built with --enable-simgrid
# (tools/build-starpu.sh --simgrid). The same sources are then built a
# second time against it into fvstar-sim (objects with -DFV_SIMGRID, which
# config.h reads as no CUDA and no MPI: StarPU simulates the CUDA workers,
# and its SimGrid build has no StarPU-MPI), installed beside fvstar with its
# StarPU in $(libdir)/fvstar/starpu-simgrid (doc/simgrid.md).
AC_DEFUN([FV_CHECK_STARPU_SIMGRID], [
  AC_ARG_WITH([starpu-simgrid],
    [AS_HELP_STRING([--with-starpu-simgrid=PREFIX], [StarPU 1.3 built with SimGrid: also build fvstar-sim, simulated runs])],
    [], [with_starpu_simgrid=no])
  fv_sim=no
  AS_IF([test "x$with_starpu_simgrid" != xno && test "x$with_starpu_simgrid" != x], [
    fv_sim_pc=$with_starpu_simgrid/lib/pkgconfig
    fv_sim_cfg=$with_starpu_simgrid/include/starpu/1.3/starpu_config.h
    AS_IF([test -f "$fv_sim_pc/starpu-1.3.pc" && test -f "$fv_sim_cfg"], [],
      [AC_MSG_ERROR([--with-starpu-simgrid=$with_starpu_simgrid: no StarPU 1.3 there (tools/build-starpu.sh --simgrid builds one)])])
    AS_IF([grep -q '^#define STARPU_SIMGRID 1' "$fv_sim_cfg"], [],
      [AC_MSG_ERROR([--with-starpu-simgrid=$with_starpu_simgrid: that StarPU was built without SimGrid ($fv_sim_cfg has no STARPU_SIMGRID)])])
    STARPU_SIM_CFLAGS=`PKG_CONFIG_PATH="$fv_sim_pc" $PKG_CONFIG --cflags starpu-1.3`
    STARPU_SIM_LIBDIR=`PKG_CONFIG_PATH="$fv_sim_pc" $PKG_CONFIG --variable=libdir starpu-1.3`
    PKG_CHECK_MODULES([SIMGRID], [simgrid], [],
      [AC_MSG_ERROR([--with-starpu-simgrid: SimGrid not found ($SIMGRID_PKG_ERRORS); apt-get install libsimgrid-dev])])
    STARPU_SIM_LIBS="`PKG_CONFIG_PATH="$fv_sim_pc" $PKG_CONFIG --libs starpu-1.3` $SIMGRID_LIBS -Wl,-rpath,$STARPU_SIM_LIBDIR"
    fv_sim=yes
  ])
  AC_MSG_CHECKING([whether to build fvstar-sim (StarPU with SimGrid)])
  AC_MSG_RESULT([$fv_sim])
  AC_SUBST([STARPU_SIM_CFLAGS])
  AC_SUBST([STARPU_SIM_LIBS])
  AC_SUBST([STARPU_SIM_LIBDIR])
  AM_CONDITIONAL([FV_SIM], [test "x$fv_sim" = xyes])
  AH_BOTTOM([/* fvstar-sim's objects (-DFV_SIMGRID, m4/fv_simgrid.m4) */
#ifdef FV_SIMGRID
#include "src/sim_config.h"
#endif])
])
