# SPDX-License-Identifier: MIT
# StarPU 1.3 from --with-starpu=PREFIX, else pkg-config starpu-1.3; with MPI
# on, starpumpi-1.3 too. Reads STARPU_USE_CUDA / STARPU_USE_FXT from the
# installed starpu_config.h, and sets an rpath to StarPU's libdir.
# --with-starpu-notrace=PREFIX: the same StarPU built without FxT, whose
# library is loaded first at run time (FxT costs ~15% per task even with
# tracing off: bench/results/2026-11-22-starpu-builds.md); the FxT library
# stays the fallback and is what traced runs load.
# `make install` copies both builds' libraries into $(libdir)/fvstar/starpu
# and starpu-fxt, and starpu_fxt_tool into $(libexecdir)/fvstar; fvstar's
# RUNPATH names those first, relative to $ORIGIN (FV_STARPU_ORIGIN_RPATH),
# then the build's own StarPU, so one binary works installed and in the
# build tree (src/runtime/paths.c finds the trace library and tool alike).
AC_DEFUN([FV_CHECK_STARPU], [
  AC_ARG_WITH([starpu-notrace],
    [AS_HELP_STRING([--with-starpu-notrace=PREFIX], [the same StarPU built without FxT, loaded when no trace is asked for])],
    [], [with_starpu_notrace=])
  AC_ARG_WITH([starpu],
    [AS_HELP_STRING([--with-starpu=PREFIX], [StarPU 1.3 installation (default: pkg-config starpu-1.3)])],
    [], [with_starpu=])
  AS_IF([test -n "$with_starpu"], [
    AS_IF([test -f "$with_starpu/lib/pkgconfig/starpu-1.3.pc"],
      [PKG_CONFIG_PATH="$with_starpu/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
       export PKG_CONFIG_PATH],
      [AC_MSG_ERROR([--with-starpu=$with_starpu: no lib/pkgconfig/starpu-1.3.pc there])])
  ])
  fv_starpu_pc=starpu-1.3
  AS_IF([test "x$fv_have_mpi" = xyes], [fv_starpu_pc="starpumpi-1.3 starpu-1.3"])
  PKG_CHECK_MODULES([STARPU], [$fv_starpu_pc], [],
    [AC_MSG_ERROR([StarPU 1.3 not found ($STARPU_PKG_ERRORS).
Build it with tools/build-starpu.sh, then pass --with-starpu=PREFIX or set PKG_CONFIG_PATH.])])
  fv_starpu_version=`$PKG_CONFIG --modversion starpu-1.3`
  fv_starpu_libdir=`$PKG_CONFIG --variable=libdir starpu-1.3`
  fv_starpu_bindir=`$PKG_CONFIG --variable=prefix starpu-1.3`/bin
  fv_starpu_rundir=$fv_starpu_libdir
  AS_IF([test -n "$with_starpu_notrace"], [
    fv_cfg_a=`$PKG_CONFIG --variable=includedir starpu-1.3`/starpu/1.3/starpu_config.h
    fv_cfg_b=$with_starpu_notrace/include/starpu/1.3/starpu_config.h
    AS_IF([test -f "$fv_cfg_b" && test -f "$with_starpu_notrace/lib/libstarpu-1.3.so"], [],
      [AC_MSG_ERROR([--with-starpu-notrace=$with_starpu_notrace: no StarPU 1.3 there])])
    AS_IF([test -n "`diff "$fv_cfg_a" "$fv_cfg_b" | grep '^@<:@<>@:>@' | grep -v STARPU_USE_FXT`"],
      [AC_MSG_ERROR([--with-starpu-notrace: $fv_cfg_b differs from $fv_cfg_a in more than STARPU_USE_FXT; build both with the same options])])
    fv_starpu_rundir="$with_starpu_notrace/lib"
    STARPU_LIBS="$STARPU_LIBS -Wl,-rpath,$fv_starpu_rundir"
  ])
  STARPU_LIBS="$STARPU_LIBS -Wl,-rpath,$fv_starpu_libdir"
  # distcheck builds as this tree was configured: the same StarPU, and
  # without CUDA where this build was asked for none
  FV_DISTCHECK_FLAGS="${with_starpu:+--with-starpu=$with_starpu} ${with_starpu_notrace:+--with-starpu-notrace=$with_starpu_notrace} ${enable_cuda:+--enable-cuda=$enable_cuda}"
  AC_SUBST([FV_DISTCHECK_FLAGS])
  AC_DEFINE_UNQUOTED([FV_STARPU_TRACE_LIBDIR], ["$fv_starpu_libdir"], [StarPU library for traced runs])
  fv_save_CPPFLAGS=$CPPFLAGS
  CPPFLAGS="$CPPFLAGS $STARPU_CFLAGS"
  AC_CHECK_HEADER([starpu.h], [], [AC_MSG_ERROR([starpu.h not usable with $STARPU_CFLAGS])])
  AC_CHECK_DECL([STARPU_USE_CUDA], [fv_starpu_cuda=yes], [fv_starpu_cuda=no], [[#include <starpu_config.h>]])
  AC_CHECK_DECL([STARPU_USE_FXT], [fv_starpu_fxt=yes], [fv_starpu_fxt=no], [[#include <starpu_config.h>]])
  AC_CHECK_DECL([STARPU_USE_MPI], [fv_starpu_mpi=yes], [fv_starpu_mpi=no], [[#include <starpu_config.h>]])
  CPPFLAGS=$fv_save_CPPFLAGS
  AS_IF([test "x$fv_have_mpi$fv_starpu_mpi" = xyesno],
    [AC_MSG_WARN([StarPU has no MPI support: building without StarPU-MPI])
     fv_have_mpi=no
     PKG_CHECK_MODULES([STARPU], [starpu-1.3])
     AS_IF([test "$fv_starpu_rundir" != "$fv_starpu_libdir"], [STARPU_LIBS="$STARPU_LIBS -Wl,-rpath,$fv_starpu_rundir"])
     STARPU_LIBS="$STARPU_LIBS -Wl,-rpath,$fv_starpu_libdir"])
  AS_IF([test "x$fv_have_mpi" = xyes], [AC_DEFINE([FV_HAVE_MPI], [1], [StarPU-MPI is used])])
  AC_DEFINE_UNQUOTED([FV_STARPU_BINDIR], ["$fv_starpu_bindir"], [StarPU's tools (starpu_fxt_tool)])
  FV_STARPU_RUNDIR=$fv_starpu_rundir
  FV_STARPU_LIBDIR=$fv_starpu_libdir
  FV_STARPU_BINDIR=$fv_starpu_bindir
  AC_SUBST([FV_STARPU_RUNDIR])
  AC_SUBST([FV_STARPU_LIBDIR])
  AC_SUBST([FV_STARPU_BINDIR])
  FV_INSTALL_RELDIRS
])

# libdir and libexecdir relative to bindir, as installed (default ../lib and
# ../libexec): the installed fvstar finds its StarPU from its own directory,
# wherever the tree was copied (DESTDIR, a packed device/ directory).
AC_DEFUN([FV_INSTALL_RELDIRS], [
  fv_save_prefix=$prefix
  fv_save_exec_prefix=$exec_prefix
  test "x$prefix" = xNONE && prefix=$ac_default_prefix
  test "x$exec_prefix" = xNONE && exec_prefix=$prefix
  fv_b=$bindir; fv_l=$libdir; fv_x=$libexecdir
  for fv_i in 1 2 3; do eval fv_b=\"$fv_b\"; eval fv_l=\"$fv_l\"; eval fv_x=\"$fv_x\"; done
  prefix=$fv_save_prefix
  exec_prefix=$fv_save_exec_prefix
  FV_REL_LIBDIR=`realpath -m --relative-to="$fv_b" "$fv_l" 2>/dev/null` || FV_REL_LIBDIR=../lib
  FV_REL_LIBEXECDIR=`realpath -m --relative-to="$fv_b" "$fv_x" 2>/dev/null` || FV_REL_LIBEXECDIR=../libexec
  # and libdir from $(libexecdir)/fvstar, for the installed starpu_fxt_tool
  FV_REL_TOOL_LIBDIR=`realpath -m --relative-to="$fv_x/fvstar" "$fv_l" 2>/dev/null` || FV_REL_TOOL_LIBDIR=../../lib
  AC_SUBST([FV_REL_TOOL_LIBDIR])
  AC_MSG_CHECKING([libdir and libexecdir relative to bindir])
  AC_MSG_RESULT([$FV_REL_LIBDIR, $FV_REL_LIBEXECDIR])
  AC_SUBST([FV_REL_LIBDIR])
  AC_DEFINE_UNQUOTED([FV_REL_LIBDIR], ["$FV_REL_LIBDIR"], [libdir relative to bindir])
  AC_DEFINE_UNQUOTED([FV_REL_LIBEXECDIR], ["$FV_REL_LIBEXECDIR"], [libexecdir relative to bindir])
  # $$ survives make, the quotes the shell; the linker gets $ORIGIN
  FV_STARPU_ORIGIN_RPATH="-Wl,-rpath,'\$\$ORIGIN/$FV_REL_LIBDIR/fvstar/starpu' -Wl,-rpath,'\$\$ORIGIN/$FV_REL_LIBDIR/fvstar/starpu-fxt'"
  AC_SUBST([FV_STARPU_ORIGIN_RPATH])
])
