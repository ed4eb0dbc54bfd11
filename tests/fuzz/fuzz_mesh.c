/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the mesh readers and the pipeline behind them:
 * parse (SU2 or Gmsh, by FUZZ_GMSH), then faces, geometry and checks.
 * Built and run by tools/fuzz.sh; crashers go to tests/fuzz/regressions. */
#include <stddef.h>
#include <stdint.h>

#include "fvstar/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fv_mesh_t m;
	fv_err_t err;
#ifdef FUZZ_GMSH
	err = fv_mesh_parse_gmsh(&m, (const char *)data, size, "fuzz.msh");
#else
	err = fv_mesh_parse_su2(&m, (const char *)data, size, "fuzz.su2");
#endif
	if (err == FV_OK) {
		(void)fv_mesh_prepare(&m);
		fv_mesh_free(&m);
	}
	return 0;
}
