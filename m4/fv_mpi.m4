# SPDX-License-Identifier: MIT
# --enable-mpi (auto): Open MPI through pkg-config (mpi-c / ompi-c).
AC_DEFUN([FV_CHECK_MPI], [
  AC_ARG_ENABLE([mpi],
    [AS_HELP_STRING([--enable-mpi], [StarPU-MPI over MPI (default: auto)])],
    [], [enable_mpi=auto])
  fv_have_mpi=no
  AS_IF([test "x$enable_mpi" != xno], [
    PKG_CHECK_MODULES([MPI], [mpi-c], [fv_have_mpi=yes],
      [PKG_CHECK_MODULES([MPI], [ompi-c], [fv_have_mpi=yes], [fv_have_mpi=no])])
    AS_IF([test "x$fv_have_mpi$enable_mpi" = xnoyes],
      [AC_MSG_ERROR([--enable-mpi given but no MPI found (install libopenmpi-dev)])])
  ])
])
