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

  # --with-starpu-smpi=PREFIX: StarPU 1.3 with SimGrid and StarPU-MPI over
  # SMPI, static (tools/build-starpu.sh --simgrid --smpi). The sources are
  # built a third time into fvstar-smpi, a shared object that smpirun loads
  # once per simulated rank (SMPI privatises its globals, StarPU's among
  # them, which is why that StarPU is static), with SMPI's mpi.h; `fvstar
  # sim run --ranks N` runs it (doc/simgrid.md).
  AC_ARG_WITH([starpu-smpi],
    [AS_HELP_STRING([--with-starpu-smpi=PREFIX], [static StarPU 1.3 with SimGrid and MPI: also build fvstar-smpi, simulated ranks and clusters])],
    [], [with_starpu_smpi=no])
  fv_smpi=no
  AS_IF([test "x$with_starpu_smpi" != xno && test "x$with_starpu_smpi" != x], [
    fv_smpi_pc=$with_starpu_smpi/lib/pkgconfig
    fv_smpi_cfg=$with_starpu_smpi/include/starpu/1.3/starpu_config.h
    AS_IF([test -f "$fv_smpi_pc/starpumpi-1.3.pc" && test -f "$fv_smpi_cfg"], [],
      [AC_MSG_ERROR([--with-starpu-smpi=$with_starpu_smpi: no StarPU-MPI 1.3 there (tools/build-starpu.sh --simgrid --smpi builds one)])])
    AS_IF([grep -q '^#define STARPU_SIMGRID 1' "$fv_smpi_cfg" && grep -q '^#define STARPU_USE_MPI 1' "$fv_smpi_cfg"], [],
      [AC_MSG_ERROR([--with-starpu-smpi=$with_starpu_smpi: that StarPU lacks SimGrid or MPI ($fv_smpi_cfg)])])
    AS_IF([test -f "$with_starpu_smpi/lib/libstarpu-1.3.a"], [],
      [AC_MSG_ERROR([--with-starpu-smpi=$with_starpu_smpi: no static libstarpu-1.3.a (SMPI privatises only what is linked in)])])
    PKG_CHECK_MODULES([SIMGRID], [simgrid], [],
      [AC_MSG_ERROR([--with-starpu-smpi: SimGrid not found ($SIMGRID_PKG_ERRORS); apt-get install libsimgrid-dev])])
    AC_PATH_PROG([SMPIRUN], [smpirun], [])
    AS_IF([test -n "$SMPIRUN"], [], [AC_MSG_ERROR([--with-starpu-smpi: no smpirun (libsimgrid-dev)])])
    fv_sg_inc=`$PKG_CONFIG --variable=includedir simgrid`
    AS_IF([test -f "$fv_sg_inc/smpi/mpi.h"], [],
      [AC_MSG_ERROR([--with-starpu-smpi: no $fv_sg_inc/smpi/mpi.h (libsimgrid-dev)])])
    STARPU_SMPI_CFLAGS="-I$fv_sg_inc/smpi `PKG_CONFIG_PATH="$fv_smpi_pc" $PKG_CONFIG --cflags starpumpi-1.3`"
    STARPU_SMPI_LIBS="`PKG_CONFIG_PATH="$fv_smpi_pc" $PKG_CONFIG --static --libs starpumpi-1.3` $SIMGRID_LIBS -lstdc++"
    fv_smpi=yes
  ])
  AC_MSG_CHECKING([whether to build fvstar-smpi (StarPU-MPI with SimGrid's SMPI)])
  AC_MSG_RESULT([$fv_smpi])
  AC_SUBST([STARPU_SMPI_CFLAGS])
  AC_SUBST([STARPU_SMPI_LIBS])
  AM_CONDITIONAL([FV_SMPI], [test "x$fv_smpi" = xyes])
  AH_BOTTOM([/* fvstar-sim's objects (-DFV_SIMGRID, m4/fv_simgrid.m4) */
#ifdef FV_SIMGRID
#include "src/sim_config.h"
#endif])
  AS_IF([test "x$fv_smpi" = xyes],
    [AC_DEFINE_UNQUOTED([FV_SMPIRUN], ["$SMPIRUN"], [SimGrid's smpirun, which runs fvstar-smpi])])
])
