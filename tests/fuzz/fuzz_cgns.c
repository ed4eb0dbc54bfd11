/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the CGNS reader and the pipeline behind it: the
 * CGNS library reads files only, so each input is written to a file under
 * $TMPDIR (default /tmp) first. Build and run (clang, libcgns-dev):
 *   srcs="src/util/error.c src/util/parse.c src/mesh/mesh.c src/mesh/io.c
 *     src/mesh/read_su2.c src/mesh/read_gmsh.c src/mesh/read_cgns.c
 *     src/mesh/extrude.c src/mesh/faces.c src/mesh/geometry.c src/mesh/check.c"
 *   echo '#define FV_HAVE_CGNS 1' >build/fuzz/config.h
 *   clang -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -Ibuild/fuzz -Iinclude -Isrc \
 *     -fsanitize=fuzzer,address,undefined $srcs tests/fuzz/fuzz_cgns.c \
 *     -lcgns -lm -o build/fuzz/fuzz_cgns
 *   build/fuzz/fuzz_cgns CORPUS -detect_leaks=0 -max_total_time=300
 * (the HDF5 library keeps global state, hence no leak detection). The
 * seeds are in tests/fuzz/seeds/cgns; `tools/fuzz.sh cgns` runs it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fvstar/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[256];
	fv_mesh_t m;
	if (!path[0]) {
		const char *dir = getenv("TMPDIR");
		snprintf(path, sizeof path, "%s/fvstar-fuzz-%d.cgns", dir && *dir ? dir : "/tmp", (int)getpid());
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	if (fv_mesh_read_cgns(&m, path) == FV_OK) {
		(void)fv_mesh_prepare(&m);
		fv_mesh_free(&m);
	}
	return 0;
}
