/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the mesh readers and the pipeline behind them:
 * parse (Gmsh when the input starts with '$', as $MeshFormat does, else
 * SU2), then faces, geometry and checks. One target for both readers lets
 * the seeds of either cross over. Built and run by tools/fuzz.sh mesh. */
#include <stddef.h>
#include <stdint.h>

#include "fvstar/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fv_mesh_t m;
	fv_err_t err;
	size_t i = 0;
	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	if (i < size && data[i] == '$')
		err = fv_mesh_parse_gmsh(&m, (const char *)data, size, "fuzz.msh");
	else
		err = fv_mesh_parse_su2(&m, (const char *)data, size, "fuzz.su2");
	if (err == FV_OK) {
		(void)fv_mesh_prepare(&m);
		fv_mesh_free(&m);
	}
	return 0;
}
