/* SPDX-License-Identifier: MIT */
/* libFuzzer target for case files: the input up to its first NUL byte is
 * the case file (fv_case_parse, the path fv_case_read takes), each further
 * NUL-separated piece a command-line "section.key=value" (fv_case_set_arg);
 * then the cross-checks, the printed case, its JSON and the markers check
 * against a mesh with the markers wing, symmetry and farfield. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fvstar/case.h"
#include "fvstar/output.h"
#include "io/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	static fv_case_t c; /* 60 kB: off the stack */
	const char *p = (const char *)data, *end = p + size;
	const char *nul = memchr(p, '\0', size);
	fv_err_t err;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	fv_case_default(&c);
	/* the case text in a buffer of its own size, so that reading past
	 * it is caught */
	size_t n = nul ? (size_t)(nul - p) : size;
	char *text = malloc(n ? n : 1);
	if (!text)
		return 0;
	memcpy(text, p, n);
	err = fv_case_parse(&c, text, n, "cases/fuzz.cfg");
	free(text);
	for (p = nul ? nul + 1 : end; err == FV_OK && p < end;) {
		const char *q = memchr(p, '\0', (size_t)(end - p));
		size_t k = q ? (size_t)(q - p) : (size_t)(end - p);
		char *arg = malloc(k + 1);
		if (!arg)
			return 0;
		memcpy(arg, p, k);
		arg[k] = '\0';
		err = fv_case_set_arg(&c, arg, "command line");
		free(arg);
		p += k + 1;
	}
	if (err == FV_OK)
		err = fv_case_finish(&c);
	if (err == FV_OK) {
		static const char *const names[] = {"wing", "symmetry", "farfield"};
		fv_mesh_t m;
		json_t *j;
		double prim[5], coef[FV_NCOEF], f[3] = {1, 2, 3}, mom[3] = {4, 5, 6};
		fv_case_print(&c, devnull);
		j = fv_case_json(&c);
		json_decref(j);
		fv_case_freestream(&c, prim);
		fv_case_force_coeffs(&c, f, mom, coef);
		/* the same on a 2D mesh (alpha in the x-y plane; beta refused) */
		if (fv_case_set_mesh_2d(&c, 1) == FV_OK) {
			fv_case_freestream(&c, prim);
			fv_case_force_coeffs(&c, f, mom, coef);
			j = fv_case_json(&c);
			json_decref(j);
		}
		fv_mesh_init(&m);
		for (int k = 0; k < 3; k++) {
			int idx;
			(void)fv_mesh_marker(&m, names[k], &idx);
		}
		int kinds[3];
		uint8_t force[3];
		if (fv_case_bc_kinds(&c, &m, kinds) == FV_OK)
			(void)fv_case_force_markers(&c, &m, force);
		fv_mesh_free(&m);
	}
	return 0;
}
