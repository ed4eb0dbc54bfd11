/* SPDX-License-Identifier: MIT */
/* `fvstar mesh partition MESH --ranks R [--blocks N] [--partitioner P]
 * [--seed S] [--refine K] -o DIR`: the mesh cut once into the parts of a
 * run on R ranks, one file per rank (DIR/part.R.bin) that each rank of
 * `mpirun -np R fvstar run CASE mesh.file=DIR` reads itself, so that no
 * rank of the run ever holds the whole mesh; DIR/partition.json says what
 * was cut, and how large each part is. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "fvstar/output.h"
#include "io/json.h"
#include "util/threads.h"
#include "util/timer.h"

static const char usage[] =
	"usage: fvstar mesh partition MESH --ranks R [--blocks N] [--partitioner metis|scotch|linear|hilbert|rcb]\n"
	"                 [--seed S] [--refine K] -o DIR\n"
	"Cuts MESH (as a run reads it: .su2, .msh, .cgns; --refine K uniform refinements first)\n"
	"into N blocks (default R, one per rank: one GPU's; CPU ranks work best with about two\n"
	"blocks per worker) grouped into R ranks, and writes DIR/part.0.bin .. part.R-1.bin and\n"
	"DIR/partition.json. Then: mpirun -np R fvstar run CASE.cfg mesh.file=DIR: each rank\n"
	"reads its own part; the run's partition keys are those of the cut.\n";

typedef struct part_args {
	const char *mesh, *out;
	long ranks, blocks, seed, refine;
	int partitioner;
} part_args_t;

static fv_err_t parse(int argc, char **argv, part_args_t *a, int *help)
{
	memset(a, 0, sizeof *a);
	*help = 0;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
			*help = 1;
			return FV_OK;
		}
		if (o[0] != '-') {
			FV_CHECK(!a->mesh, FV_ERR_ARG, "fvstar mesh partition: a second mesh '%s' (one MESH)", o);
			a->mesh = o;
			continue;
		}
		FV_CHECK(i + 1 < argc, FV_ERR_ARG, "fvstar mesh partition: %s needs a value", o);
		const char *v = argv[++i];
		if (strcmp(o, "--ranks") == 0)
			FV_CALL(fv_opt_long(o, v, 1, 1 << 20, &a->ranks));
		else if (strcmp(o, "--blocks") == 0)
			FV_CALL(fv_opt_long(o, v, 1, 1 << 20, &a->blocks));
		else if (strcmp(o, "--seed") == 0)
			FV_CALL(fv_opt_long(o, v, 0, 2147483647L, &a->seed));
		else if (strcmp(o, "--refine") == 0)
			FV_CALL(fv_opt_long(o, v, 0, 10, &a->refine));
		else if (strcmp(o, "--partitioner") == 0) {
			if (strcmp(v, "metis") == 0)
				a->partitioner = FV_PART_METIS;
			else if (strcmp(v, "scotch") == 0)
				a->partitioner = FV_PART_SCOTCH;
			else if (strcmp(v, "linear") == 0)
				a->partitioner = FV_PART_LINEAR;
			else if (strcmp(v, "hilbert") == 0)
				a->partitioner = FV_PART_HILBERT;
			else if (strcmp(v, "rcb") == 0)
				a->partitioner = FV_PART_RCB;
			else
				return FV_ERROR(FV_ERR_ARG,
						"fvstar mesh partition: --partitioner %s (metis, scotch, linear, hilbert or rcb)",
						v);
		} else if (strcmp(o, "-o") == 0)
			a->out = v;
		else
			return FV_ERROR(FV_ERR_ARG, "fvstar mesh partition: unknown option %s (--help lists them)", o);
	}
	FV_CHECK(a->mesh, FV_ERR_ARG, "fvstar mesh partition: missing MESH\n%s", usage);
	FV_CHECK(a->ranks > 0, FV_ERR_ARG, "fvstar mesh partition: missing --ranks R");
	FV_CHECK(a->out, FV_ERR_ARG, "fvstar mesh partition: missing -o DIR");
	if (a->blocks == 0)
		a->blocks = a->ranks;
	FV_CHECK(a->blocks >= a->ranks, FV_ERR_ARG,
		 "fvstar mesh partition: %ld blocks for %ld ranks: every rank needs a block of its own (--blocks >= %ld)",
		 a->blocks, a->ranks, a->ranks);
	return FV_OK;
}

typedef struct writer {
	const char *dir;
	json_t *ranks;          /* per rank: cells, blocks, bytes */
	double max_mib;
} writer_t;

static fv_err_t write_one(int rank, fv_part_t *p, void *arg)
{
	writer_t *w = arg;
	char path[FV_CASE_PATH_MAX + 32];
	struct stat st;
	json_t *r = json_object();
	int nb = 0;
	fv_part_path(w->dir, rank, path, sizeof path);
	FV_CALL(fv_part_write(path, p));
	for (int b = 0; b < p->n_blocks; b++)
		nb += p->rank_of[b] == rank;
	double mib = stat(path, &st) == 0 ? (double)st.st_size / (1 << 20) : 0;
	w->max_mib = mib > w->max_mib ? mib : w->max_mib;
	json_object_set_new(r, "file", json_string(strrchr(path, '/') + 1));
	json_object_set_new(r, "cells", json_integer(p->piece.n_cells));
	json_object_set_new(r, "nodes", json_integer(p->piece.n_nodes));
	json_object_set_new(r, "blocks", json_integer(nb));
	json_object_set_new(r, "mib", fv_json_real(mib));
	/* the last rank comes first */
	json_array_insert_new(w->ranks, 0, r);
	fprintf(stderr, "fvstar: %s: rank %d, %d cells in %d blocks, %.1f MiB\n", path, rank, (int)p->piece.n_cells,
		nb, mib);
	return FV_OK;
}

fv_err_t fv_cmd_partition(int argc, char **argv)
{
	part_args_t a;
	fv_case_t c;
	fv_mesh_t m;
	writer_t w = {0};
	char path[FV_CASE_PATH_MAX + 32];
	int help;
	double t0 = fv_now();
	fv_err_t err = FV_OK;
	json_t *js = NULL;
	FV_CALL(parse(argc, argv, &a, &help));
	if (help) {
		fputs(usage, stdout);
		return FV_OK;
	}
	FV_CHECK(strlen(a.mesh) < FV_CASE_PATH_MAX && strlen(a.out) < FV_CASE_PATH_MAX, FV_ERR_ARG,
		 "fvstar mesh partition: path too long");
	fv_case_default(&c);
	snprintf(c.mesh_file, sizeof c.mesh_file, "%s", a.mesh);
	c.mesh_refine = (int)a.refine;
	c.partitioner = a.partitioner;
	c.seed = (int)a.seed;
	FV_CALL(fv_output_mkdir(a.out));
	FV_CALL(fv_output_check_writable(a.out, "-o"));
	fv_mesh_init(&m);
	FV_CALL_GOTO(err, out, fv_app_read_mesh(&c, &m));
	fprintf(stderr, "fvstar: %s: %d cells, %d nodes read and prepared in %.2f s\n", a.mesh, (int)m.n_cells,
		(int)m.n_nodes, fv_now() - t0);
	js = json_object();
	w.dir = a.out;
	w.ranks = json_array();
	json_object_set_new(js, "mesh", json_string(a.mesh));
	json_object_set_new(js, "refine", json_integer(a.refine));
	json_object_set_new(js, "cells", json_integer(m.n_cells));
	json_object_set_new(js, "nodes", json_integer(m.n_nodes));
	json_object_set_new(js, "ranks", json_integer(a.ranks));
	json_object_set_new(js, "blocks", json_integer(a.blocks));
	json_object_set_new(js, "partitioner", json_string(fv_partitioner_name((fv_partitioner_t)a.partitioner)));
	json_object_set_new(js, "seed", json_integer(a.seed));
	/* the cut on as many threads as the cells are worth (fv_threads_cap) */
	int was = fv_threads_cap((size_t)m.n_cells);
	json_object_set_new(js, "threads", json_integer(fv_threads_max()));
	err = fv_app_cut_parts(&c, &m, (int)a.blocks, NULL, NULL, (int)a.ranks, write_one, &w);
	fv_threads_set(was);
	if (err != FV_OK)
		goto out;
	/* a cut for more ranks before: its extra files would only mislead */
	for (long r = a.ranks;; r++) {
		fv_part_path(a.out, (int)r, path, sizeof path);
		if (remove(path) != 0)
			break;
	}
	json_object_set_new(js, "parts", w.ranks);
	w.ranks = NULL;
	json_object_set_new(js, "peak_memory_mib", fv_json_real((double)fv_peak_rss() / (1 << 20)));
	snprintf(path, sizeof path, "%s/partition.json", a.out);
	FV_CALL_GOTO(err, out, fv_summary_write(path, js));
	fprintf(stderr,
		"fvstar: %s: %ld parts of %ld blocks in %.2f s (largest %.1f MiB; this command's peak memory %.0f MiB); "
		"run with: mpirun -np %ld fvstar run CASE.cfg mesh.file=%s\n",
		a.out, a.ranks, a.blocks, fv_now() - t0, w.max_mib, (double)fv_peak_rss() / (1 << 20), a.ranks, a.out);
out:
	json_decref(w.ranks);
	json_decref(js);
	fv_mesh_free(&m);
	return err;
}
