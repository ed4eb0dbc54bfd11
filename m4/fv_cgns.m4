# SPDX-License-Identifier: MIT
# --with-cgns (default: auto; an error only when asked for): the CGNS
# mid-level library (Debian libcgns-dev) for reading .cgns meshes.
AC_DEFUN([FV_CHECK_CGNS], [
  AC_ARG_WITH([cgns], [AS_HELP_STRING([--with-cgns@<:@=PREFIX@:>@], [CGNS mesh input (default: auto)])],
    [], [with_cgns=auto])
  fv_have_cgns=no
  AS_IF([test "x$with_cgns" != xno], [
    fv_save_CPPFLAGS=$CPPFLAGS; fv_save_LIBS=$LIBS
    AS_CASE([$with_cgns], [yes|auto], [], [CGNS_CFLAGS="-I$with_cgns/include"; CGNS_LIBS="-L$with_cgns/lib"])
    CPPFLAGS="$CPPFLAGS $CGNS_CFLAGS"; LIBS="$CGNS_LIBS $LIBS"
    AC_CHECK_HEADER([cgnslib.h],
      [AC_CHECK_LIB([cgns], [cg_section_read], [fv_have_cgns=yes; CGNS_LIBS="$CGNS_LIBS -lcgns"])])
    CPPFLAGS=$fv_save_CPPFLAGS; LIBS=$fv_save_LIBS
    AS_IF([test "x$fv_have_cgns" = xno && test "x$with_cgns" != xauto],
      [AC_MSG_ERROR([--with-cgns given but the CGNS library was not found (install libcgns-dev)])])
  ])
  AS_IF([test "x$fv_have_cgns" = xyes], [AC_DEFINE([FV_HAVE_CGNS], [1], [the CGNS library is available])])
  AC_SUBST([CGNS_CFLAGS])
  AC_SUBST([CGNS_LIBS])
])
