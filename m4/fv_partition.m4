# SPDX-License-Identifier: MIT
# --with-metis / --with-scotch (default: auto; an error only when asked for).
AC_DEFUN([FV_CHECK_METIS], [
  AC_ARG_WITH([metis], [AS_HELP_STRING([--with-metis@<:@=PREFIX@:>@], [METIS partitioner (default: auto)])],
    [], [with_metis=auto])
  fv_have_metis=no
  AS_IF([test "x$with_metis" != xno], [
    fv_save_CPPFLAGS=$CPPFLAGS; fv_save_LIBS=$LIBS
    AS_CASE([$with_metis], [yes|auto], [], [METIS_CFLAGS="-I$with_metis/include"; METIS_LIBS="-L$with_metis/lib"])
    CPPFLAGS="$CPPFLAGS $METIS_CFLAGS"; LIBS="$METIS_LIBS $LIBS"
    AC_CHECK_HEADER([metis.h],
      [AC_CHECK_LIB([metis], [METIS_PartGraphKway], [fv_have_metis=yes; METIS_LIBS="$METIS_LIBS -lmetis"])])
    CPPFLAGS=$fv_save_CPPFLAGS; LIBS=$fv_save_LIBS
    AS_IF([test "x$fv_have_metis" = xno && test "x$with_metis" != xauto],
      [AC_MSG_ERROR([--with-metis given but METIS not found (install libmetis-dev)])])
  ])
  AS_IF([test "x$fv_have_metis" = xyes], [AC_DEFINE([FV_HAVE_METIS], [1], [METIS is available])])
  AC_SUBST([METIS_CFLAGS])
  AC_SUBST([METIS_LIBS])
])

AC_DEFUN([FV_CHECK_SCOTCH], [
  AC_ARG_WITH([scotch], [AS_HELP_STRING([--with-scotch@<:@=PREFIX@:>@], [Scotch partitioner (default: auto)])],
    [], [with_scotch=auto])
  fv_have_scotch=no
  AS_IF([test "x$with_scotch" != xno], [
    fv_save_CPPFLAGS=$CPPFLAGS; fv_save_LIBS=$LIBS
    AS_CASE([$with_scotch],
      [yes|auto], [SCOTCH_CFLAGS="-I/usr/include/scotch"],
      [SCOTCH_CFLAGS="-I$with_scotch/include"; SCOTCH_LIBS="-L$with_scotch/lib"])
    CPPFLAGS="$CPPFLAGS $SCOTCH_CFLAGS"; LIBS="$SCOTCH_LIBS $LIBS"
    AC_CHECK_HEADER([scotch.h],
      [AC_CHECK_LIB([scotch], [SCOTCH_graphPart],
        [fv_have_scotch=yes; SCOTCH_LIBS="$SCOTCH_LIBS -lscotch -lscotcherr"], [], [-lscotcherr])],
      [], [[#include <stdio.h>
#include <stdint.h>]])
    CPPFLAGS=$fv_save_CPPFLAGS; LIBS=$fv_save_LIBS
    AS_IF([test "x$fv_have_scotch" = xno && test "x$with_scotch" != xauto],
      [AC_MSG_ERROR([--with-scotch given but Scotch not found (install libscotch-dev)])])
  ])
  AS_IF([test "x$fv_have_scotch" = xyes], [AC_DEFINE([FV_HAVE_SCOTCH], [1], [Scotch is available])])
  AC_SUBST([SCOTCH_CFLAGS])
  AC_SUBST([SCOTCH_LIBS])
])
