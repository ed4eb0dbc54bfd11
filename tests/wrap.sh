#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one test with a time limit and a quiet, deterministic StarPU:
# CPU workers only unless the test asks for CUDA, no calibration output.
: "${FV_TEST_TIMEOUT:=600}"
export STARPU_SILENT=1
export STARPU_HOME="${top_builddir:-.}/tests/starpu-home"
: "${STARPU_NCPU:=2}"
export STARPU_NCPU
exec timeout "$FV_TEST_TIMEOUT" "$@"
