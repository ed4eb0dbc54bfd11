# SPDX-License-Identifier: MIT
# OpenMP for the set-up loops (faces, geometry, renumbering, blocks):
# used where the compiler has it, --disable-openmp or a compiler without
# it builds the same code serial.
AC_DEFUN([FV_CHECK_OPENMP], [
  AC_OPENMP
  AS_IF([test "x$enable_openmp" != xno && test -n "$OPENMP_CFLAGS"],
    [fv_have_openmp="yes ($OPENMP_CFLAGS)"], [fv_have_openmp=no])
])
