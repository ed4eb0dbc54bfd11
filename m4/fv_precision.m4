# SPDX-License-Identifier: MIT
# --enable-single: float instead of double for every solver field.
AC_DEFUN([FV_ARG_PRECISION], [
  AC_ARG_ENABLE([single],
    [AS_HELP_STRING([--enable-single], [single precision (float) instead of double])],
    [], [enable_single=no])
  FV_PRECISION=double
  FV_PRECISION_CPPFLAGS=
  AS_IF([test "x$enable_single" = xyes],
    [FV_PRECISION=single
     FV_PRECISION_CPPFLAGS=-DFV_SINGLE])
  AC_SUBST([FV_PRECISION_CPPFLAGS])
])

AC_DEFUN([FV_CHECK_LIBM], [
  AC_SEARCH_LIBS([sqrt], [m], [], [AC_MSG_ERROR([libm not found])])
])
