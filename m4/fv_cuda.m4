# SPDX-License-Identifier: MIT
# --enable-cuda (default: on when nvcc is found and StarPU has CUDA; an error
# only when asked for and missing), --with-cuda-arch (default 90).
AC_DEFUN([FV_CHECK_CUDA], [
  AC_ARG_ENABLE([cuda],
    [AS_HELP_STRING([--enable-cuda], [CUDA codelets (default: auto, on when nvcc is found)])],
    [], [enable_cuda=auto])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=SM], [CUDA compute capability to build for (default: 90, H100/H200)])],
    [], [with_cuda_arch=90])
  AC_ARG_VAR([NVCC], [CUDA compiler])
  AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
  fv_use_cuda=no
  AS_IF([test "x$enable_cuda" != xno], [
    AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])
    AS_IF([test -z "$NVCC"], [
      AS_IF([test "x$enable_cuda" = xyes], [AC_MSG_ERROR([--enable-cuda given but nvcc not found (set NVCC or PATH)])])
    ], [test "x$fv_starpu_cuda" != xyes], [
      AS_IF([test "x$enable_cuda" = xyes],
        [AC_MSG_ERROR([--enable-cuda given but StarPU was built without CUDA; rebuild it with tools/build-starpu.sh --cuda])],
        [AC_MSG_WARN([nvcc found but StarPU has no CUDA: building CPU codelets only])])
    ], [fv_use_cuda=yes])
  ])
  AS_IF([test "x$fv_use_cuda" = xyes], [
    # The toolkit root as nvcc itself reports it: nvcc may be a wrapper
    # script or a symbolic link outside the toolkit (/usr/local/bin/nvcc).
    fv_cuda_dir=`$NVCC --dryrun -x cu -c /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' | head -1`
    AS_IF([test -z "$fv_cuda_dir"], [
      fv_cuda_dir=`dirname "$NVCC"`
      fv_cuda_dir=`dirname "$fv_cuda_dir"`])
    fv_cuda_dir=`cd "$fv_cuda_dir" && pwd -P`
    AS_IF([test ! -e "$fv_cuda_dir/lib64/libcudart.so"],
      [AC_MSG_ERROR([libcudart.so not found in $fv_cuda_dir/lib64 (CUDA toolkit of $NVCC); use --disable-cuda or set NVCC])])
    AC_MSG_NOTICE([CUDA toolkit: $fv_cuda_dir])
    CUDA_CFLAGS="-isystem $fv_cuda_dir/include"
    CUDA_LIBS="-L$fv_cuda_dir/lib64 -Wl,-rpath,$fv_cuda_dir/lib64 -lcudart -lstdc++"
    FV_NVCC_FLAGS="-O3 -std=c++17 -arch=sm_$with_cuda_arch -Xcompiler -Wall,-Wextra"
    fv_cuda_version=`$NVCC --version | sed -n 's/.*release \(@<:@0-9.@:>@*\).*/\1/p'`
    AC_DEFINE([FV_HAVE_CUDA], [1], [CUDA codelets are built])
  ])
  AC_SUBST([CUDA_CFLAGS])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([FV_NVCC_FLAGS])
])
