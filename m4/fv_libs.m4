# SPDX-License-Identifier: MIT
# Support libraries from Debian: inih (case files), jansson (JSON), cmocka
# (unit tests, optional: without it `make check` fails with a clear message).
AC_DEFUN([FV_CHECK_SUPPORT_LIBS], [
  PKG_CHECK_MODULES([INIH], [inih], [],
    [AC_MSG_ERROR([inih not found (install libinih-dev)])])
  PKG_CHECK_MODULES([JANSSON], [jansson], [],
    [AC_MSG_ERROR([jansson not found (install libjansson-dev)])])
  PKG_CHECK_MODULES([CMOCKA], [cmocka], [fv_have_cmocka=yes], [fv_have_cmocka=no])
  AC_PATH_PROG([GMSH], [gmsh], [])
  AC_PATH_PROG([PYTHON3], [python3], [])
])

# Every automake conditional, in one place.
AC_DEFUN([FV_CONDITIONALS], [
  AM_CONDITIONAL([FV_USE_CUDA], [test "x$fv_use_cuda" = xyes])
  AM_CONDITIONAL([FV_USE_MPI], [test "x$fv_have_mpi" = xyes])
  AM_CONDITIONAL([FV_USE_METIS], [test "x$fv_have_metis" = xyes])
  AM_CONDITIONAL([FV_USE_SCOTCH], [test "x$fv_have_scotch" = xyes])
  AM_CONDITIONAL([FV_HAVE_CMOCKA], [test "x$fv_have_cmocka" = xyes])
  AM_CONDITIONAL([FV_HAVE_CGNS], [test "x$fv_have_cgns" = xyes])
])

AC_DEFUN([FV_SUMMARY], [
  AC_MSG_NOTICE([
fvstar $PACKAGE_VERSION configured:
  precision        $FV_PRECISION
  StarPU           $fv_starpu_version ($fv_starpu_libdir) CUDA=$fv_starpu_cuda FxT=$fv_starpu_fxt MPI=$fv_starpu_mpi
  StarPU at run    $fv_starpu_rundir
  CUDA codelets    $fv_use_cuda${NVCC:+ ($NVCC${fv_cuda_version:+ $fv_cuda_version}, sm_$with_cuda_arch)}
  StarPU-MPI       $fv_have_mpi
  METIS            $fv_have_metis
  Scotch           $fv_have_scotch
  CGNS             $fv_have_cgns
  OpenMP (set-up)  $fv_have_openmp
  unit tests       cmocka=$fv_have_cmocka gmsh=${GMSH:-no} python3=${PYTHON3:-no}])
])
