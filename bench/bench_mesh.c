/* SPDX-License-Identifier: MIT */
/* Mesh pipeline benchmark: read -> connectivity -> geometry -> checks, one
 * process per mesh so that the peak resident size is the pipeline's own.
 *   bench_mesh gen N OUT.su2    tet box of 6 N^3 cells, written as SU2
 *   bench_mesh load MESH        times each stage, prints one CSV line
 *   bench_mesh setup MESH NB [P] the set-up of `fvstar run` up to the solver
 *                               (read, faces, node cells, geometry, checks,
 *                               partitioner P (default metis) into NB
 *                               blocks, renumbering, blocks,
 *                               rank 0's part), one CSV line, on the threads
 *                               OMP_NUM_THREADS allows
 *   bench_mesh cut MESH NB P... each partitioner P (metis, scotch, linear,
 *                               hilbert, rcb) into NB blocks: its wall and CPU
 *                               seconds, the edge cut, the imbalance and
 *                               the halo (ghost cells of all blocks, the
 *                               largest block's, neighbour pairs)
 *   bench_mesh order MESH [R]   one block's cell ordering (FVSTAR_ORDER:
 *                               rcm, chunks, hilbert) R times (default 5)
 *                               on the prepared mesh: the best and median
 *                               seconds of the step "renumber: order", and
 *                               the locality the loops see: the mean index
 *                               jump across interior faces, the share of
 *                               faces jumping over 2^12 and 2^16 cells,
 *                               and what a GPU's loads see: the 32-byte
 *                               sectors of one cell array that a warp of
 *                               32 consecutive interior faces (owner and
 *                               neighbour) or cells (their face
 *                               neighbours) touches, and the misses of
 *                               the face loop's stream in a 16-way LRU
 *                               cache of 2^14 and 2^16 sectors (one
 *                               array's share of an H100's L2 when a
 *                               kernel reads 25 or 6 arrays)
 *   bench_mesh read MESH [R]    the reader alone, R times (default 5): the
 *                               best and median time, us per cell, and a
 *                               copy of as many bytes into fresh memory as
 *                               the memory-bandwidth reference */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fvstar/mesh.h"
#include "fvstar/partition.h"
#include "util/heap.h"
#include "util/threads.h"
#include "util/timer.h"

static int die(void)
{
	fprintf(stderr, "bench_mesh: %s\n", fv_errmsg());
	return 1;
}

/* The phases of `fvstar run`'s set-up before StarPU's solver, each timed
 * (the order of fv_app_load_mesh, fv_app_cut_parts with one rank). */
static int setup(const char *path, int nb, fv_partitioner_t method)
{
	enum { READ, FACES, NODES, GEOM, CHECK, PART, RENUM, BLOCKS, PIECE, N };
	static const char *const name[N] = {"read", "faces", "node_cells", "geometry", "checks",
					    "partition", "renumber", "blocks", "part"};
	double t[N], t0, total = 0;
	fv_mesh_t m;
	fv_partition_stats_t ps;
	fv_order_stats_t os;
	fv_block_t *blocks = NULL;
	fv_part_t p;
	int32_t *part;
	fv_idx_t *off;
	int rank0 = 0;
	if (nb < 1)
		return fprintf(stderr, "bench_mesh setup: %d blocks\n", nb), 2;
	fv_heap_keep(); /* as `fvstar` does */
#define PHASE(k, call)                                                                                                 \
	do {                                                                                                           \
		t0 = fv_now();                                                                                         \
		if ((call) != FV_OK)                                                                                   \
			return die();                                                                                  \
		t[k] = fv_now() - t0;                                                                                  \
	} while (0)
	PHASE(READ, fv_mesh_read(&m, path));
	PHASE(FACES, fv_mesh_build_faces(&m));
	PHASE(NODES, fv_mesh_build_node_cells(&m));
	PHASE(GEOM, fv_mesh_compute_geometry(&m));
	PHASE(CHECK, fv_mesh_check(&m, 0, NULL));
	part = malloc(((size_t)m.n_cells + 1) * sizeof *part);
	off = malloc(((size_t)nb + 1) * sizeof *off);
	if (!part || !off)
		return fprintf(stderr, "bench_mesh: out of memory\n"), 1;
	PHASE(PART, fv_partition_cells_weighted(&m, nb, method, 0, NULL, NULL, part, &ps));
	PHASE(RENUM, fv_mesh_renumber(&m, part, nb, off, 0, &os));
	free(part);
	PHASE(BLOCKS, fv_blocks_build(&m, off, nb, &blocks));
	PHASE(PIECE, fv_part_build(&m, blocks, off, nb, &rank0, 1, 0, &ps, &os, &p, 1));
#undef PHASE
	printf("threads,cells");
	for (int k = 0; k < N; k++)
		printf(",%s_s", name[k]);
	printf(",total_s,us_per_cell,peak_rss_B_per_cell\n%d,%d", fv_threads_max(), (int)m.n_cells);
	for (int k = 0; k < N; k++) {
		printf(",%.3f", t[k]);
		total += t[k];
	}
	printf(",%.3f,%.3f,%.0f\n", total, 1e6 * total / (double)m.n_cells, (double)fv_peak_rss() / (double)m.n_cells);
	fv_part_free(&p);
	fv_blocks_free(blocks, nb);
	free(off);
	fv_mesh_free(&m);
	return 0;
}

static const char *const known[] = {"metis", "scotch", "linear", "hilbert", "rcb"};
static const fv_partitioner_t ids[] = {FV_PART_METIS, FV_PART_SCOTCH, FV_PART_LINEAR, FV_PART_HILBERT, FV_PART_RCB};

/* The partitioner called name, or -1. */
static int partitioner(const char *name)
{
	for (int k = 0; k < 5; k++)
		if (strcmp(name, known[k]) == 0)
			return k;
	fprintf(stderr, "bench_mesh: unknown partitioner %s (metis, scotch, linear, hilbert, rcb)\n", name);
	return -1;
}

/* The partitioners compared on one mesh (read again for each: the
 * renumbering moves its cells). CPU seconds beside wall seconds: on a
 * shared machine the former still compares them. */
static int cut_bench(const char *path, int nb, int np, char **names)
{
	printf("partitioner,cells,blocks,partition_s,partition_cpu_s,edge_cut,imbalance,ghost_cells,"
	       "max_block_ghosts,neighbour_pairs\n");
	for (int i = 0; i < np; i++) {
		int k = partitioner(names[i]);
		if (k < 0)
			return 2;
		fv_mesh_t m;
		fv_partition_stats_t ps;
		fv_order_stats_t os;
		fv_block_t *blocks = NULL;
		int32_t *part;
		fv_idx_t *off;
		long long ghosts = 0, gmax = 0, pairs = 0;
		if (fv_mesh_read(&m, path) != FV_OK || fv_mesh_prepare(&m) != FV_OK)
			return die();
		part = malloc(((size_t)m.n_cells + 1) * sizeof *part);
		off = malloc(((size_t)nb + 1) * sizeof *off);
		if (!part || !off)
			return fprintf(stderr, "bench_mesh: out of memory\n"), 1;
		double t0 = fv_now();
		clock_t c0 = clock();
		if (fv_partition_cells(&m, nb, ids[k], 0, part, &ps) != FV_OK)
			return die();
		double wall = fv_now() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
		if (fv_mesh_renumber(&m, part, nb, off, 0, &os) != FV_OK || fv_blocks_build(&m, off, nb, &blocks) != FV_OK)
			return die();
		for (int b = 0; b < nb; b++) {
			ghosts += blocks[b].n_ghost;
			gmax = blocks[b].n_ghost > gmax ? blocks[b].n_ghost : gmax;
			pairs += blocks[b].n_nbr;
		}
		printf("%s,%d,%d,%.3f,%.3f,%lld,%.3f,%lld,%lld,%lld\n", known[k], (int)m.n_cells, nb, wall, cpu,
		       (long long)ps.edge_cut, ps.imbalance, ghosts, gmax, pairs / 2);
		fflush(stdout);
		fv_blocks_free(blocks, nb);
		free(part);
		free(off);
		fv_mesh_free(&m);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Each read into a new mesh, freed before the next, so every read pays
 * for its fresh pages as a real run does. */
static int read_bench(const char *path, int reps)
{
	double t[64], copy_s = 1e30;
	struct stat st;
	fv_mesh_t m;
	int nc = 0;
	if (reps < 1 || reps > 64 || stat(path, &st) != 0)
		return 2;
	for (int r = 0; r < reps; r++) {
		double t0 = fv_now();
		if (fv_mesh_read(&m, path) != FV_OK)
			return die();
		t[r] = fv_now() - t0;
		nc = (int)m.n_cells;
		fv_mesh_free(&m);
	}
	for (int r = 0; r < 3; r++) {
		char *src = malloc((size_t)st.st_size), *dst;
		if (!src)
			return 2;
		memset(src, r, (size_t)st.st_size);
		double t0 = fv_now();
		dst = malloc((size_t)st.st_size);
		if (!dst)
			return 2;
		memcpy(dst, src, (size_t)st.st_size);
		double dt = fv_now() - t0;
		copy_s = dt < copy_s ? dt : copy_s;
		if (dst[st.st_size / 2] != (char)r)
			return 2;
		free(dst);
		free(src);
	}
	qsort(t, (size_t)reps, sizeof *t, cmp_double);
	printf("file,bytes,cells,best_s,median_s,us_per_cell,GB_per_s,copy_fresh_s\n");
	printf("%s,%lld,%d,%.4f,%.4f,%.3f,%.2f,%.4f\n", path, (long long)st.st_size, nc, t[0], t[reps / 2],
	       1e6 * t[0] / nc, (double)st.st_size / t[0] / 1e9, copy_s);
	return 0;
}

/* The seconds of the set-up step name so far (laps add up by name), and
 * its note (what the ordering chose) to stderr. */
static double lap_seconds(const char *name)
{
	const fv_lap_t *laps;
	int n = fv_laps(&laps);
	for (int i = 0; i < n; i++)
		if (strcmp(laps[i].name, name) == 0) {
			if (laps[i].note[0])
				fprintf(stderr, "bench_mesh: %s: %s\n", name, laps[i].note);
			return laps[i].seconds;
		}
	return 0;
}

/* A 16-way LRU cache of sets * 16 sectors: 1 for a miss. */
typedef struct lru {
	int64_t *tag;
	size_t sets;
	double miss, acc;
} lru_t;

static int lru_touch(lru_t *c, int64_t sector)
{
	int64_t *w = c->tag + 16 * ((size_t)sector % c->sets);
	int i = 0;
	while (i < 15 && w[i] != sector)
		i++;
	int hit = w[i] == sector;
	memmove(w + 1, w, (size_t)i * sizeof *w);
	w[0] = sector;
	c->acc++;
	c->miss += !hit;
	return !hit;
}

/* Distinct entries of a[0..n) (n <= 128), a sorted in place. */
static int distinct(int64_t *a, int n)
{
	int d = 0;
	for (int i = 1; i < n; i++) {
		int64_t x = a[i];
		int j = i - 1;
		while (j >= 0 && a[j] > x) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = x;
	}
	for (int i = 0; i < n; i++)
		d += i == 0 || a[i] != a[i - 1];
	return d;
}

/* The GPU's view of the order (see the usage above): sectors per warp of
 * faces and of cells, and the face stream's misses at two cache sizes. */
static void gpu_locality(const fv_mesh_t *m, double out[4])
{
	enum { WARP = 32, PER = 4 }; /* 4 doubles a 32-byte sector */
	int64_t sec[4 * WARP * 2];
	double fw = 0, nfw = 0, cw = 0, ncw = 0;
	fv_idx_t nc = m->n_cells;
	fv_idx_t *deg = calloc((size_t)nc + 1, sizeof *deg), *nb = NULL;
	lru_t c14 = {calloc((size_t)1 << 14, 8), ((size_t)1 << 14) / 16, 0, 0};
	lru_t c16 = {calloc((size_t)1 << 16, 8), ((size_t)1 << 16) / 16, 0, 0};
	memset(out, 0, 4 * sizeof *out);
	if (!deg || !c14.tag || !c16.tag)
		goto done;
	for (size_t i = 0; i < ((size_t)1 << 14); i++)
		c14.tag[i] = -1;
	for (size_t i = 0; i < ((size_t)1 << 16); i++)
		c16.tag[i] = -1;
	for (fv_idx_t f = m->n_bfaces; f < m->n_faces; f += WARP) {
		int k = 0;
		for (fv_idx_t g = f; g < f + WARP && g < m->n_faces; g++)
			for (int s = 0; s < 2; s++) {
				int64_t x = m->face_cell[2 * (size_t)g + s] / PER;
				sec[k++] = x;
				lru_touch(&c14, x);
				lru_touch(&c16, x);
			}
		fw += distinct(sec, k);
		nfw++;
	}
	/* cells' face neighbours, CSR */
	for (fv_idx_t f = m->n_bfaces; f < m->n_faces; f++) {
		deg[m->face_cell[2 * (size_t)f] + 1]++;
		deg[m->face_cell[2 * (size_t)f + 1] + 1]++;
	}
	for (fv_idx_t c = 0; c < nc; c++)
		deg[c + 1] += deg[c];
	nb = malloc(((size_t)deg[nc] + 1) * sizeof *nb);
	if (!nb)
		goto done;
	for (fv_idx_t f = m->n_bfaces; f < m->n_faces; f++) {
		fv_idx_t a = m->face_cell[2 * (size_t)f], b = m->face_cell[2 * (size_t)f + 1];
		nb[deg[a]++] = b;
		nb[deg[b]++] = a;
	}
	for (fv_idx_t c = nc; c > 0; c--)
		deg[c] = deg[c - 1];
	deg[0] = 0;
	for (fv_idx_t c = 0; c < nc; c += WARP) {
		int k = 0;
		for (fv_idx_t d = c; d < c + WARP && d < nc; d++)
			for (fv_idx_t j = deg[d]; j < deg[d + 1] && k < 4 * WARP * 2; j++)
				sec[k++] = nb[j] / PER;
		cw += distinct(sec, k);
		ncw++;
	}
	out[0] = fw / (nfw > 0 ? nfw : 1);
	out[1] = cw / (ncw > 0 ? ncw : 1);
	out[2] = c14.miss / (c14.acc > 0 ? c14.acc : 1);
	out[3] = c16.miss / (c16.acc > 0 ? c16.acc : 1);
done:
	free(deg);
	free(nb);
	free(c14.tag);
	free(c16.tag);
}

/* One block: the mesh read, prepared and renumbered reps times (each
 * from the file's order: a BFS over a mesh in RCM order runs in cache). */
static int order_bench(const char *path, int reps)
{
	double t[64];
	fv_mesh_t m;
	int32_t *part;
	fv_idx_t off[2];
	if (reps < 1 || reps > 64)
		return 2;
	for (int r = 0; r < reps; r++) {
		double before = lap_seconds("renumber: order");
		if (fv_mesh_read(&m, path) != FV_OK || fv_mesh_prepare(&m) != FV_OK)
			return die();
		part = calloc((size_t)m.n_cells + 1, sizeof *part);
		if (!part)
			return 2;
		if (fv_mesh_renumber(&m, part, 1, off, 0, NULL) != FV_OK)
			return die();
		t[r] = lap_seconds("renumber: order") - before;
		free(part);
		if (r < reps - 1)
			fv_mesh_free(&m);
	}
	double sum = 0, far12 = 0, far16 = 0, nf = 0;
	for (fv_idx_t f = m.n_bfaces; f < m.n_faces; f++) {
		double j = (double)(m.face_cell[2 * (size_t)f + 1] - m.face_cell[2 * (size_t)f]);
		j = j < 0 ? -j : j;
		sum += j;
		far12 += j > 4096;
		far16 += j > 65536;
		nf++;
	}
	double g[4];
	gpu_locality(&m, g);
	qsort(t, (size_t)reps, sizeof *t, cmp_double);
	printf("file,cells,order,threads,best_s,median_s,us_per_cell,mean_jump,share_over_2^12,share_over_2^16,"
	       "face_warp_sectors,cell_warp_sectors,miss_2^14,miss_2^16\n");
	printf("%s,%d,%s,%d,%.4f,%.4f,%.4f,%.0f,%.4f,%.4f,%.2f,%.2f,%.4f,%.4f\n", path, (int)m.n_cells,
	       getenv("FVSTAR_ORDER") ? getenv("FVSTAR_ORDER") : "auto", fv_threads_max(), t[0], t[reps / 2],
	       1e6 * t[0] / (double)m.n_cells, sum / nf, far12 / nf, far16 / nf, g[0], g[1], g[2], g[3]);
	fv_mesh_free(&m);
	return 0;
}

int main(int argc, char **argv)
{
	fv_mesh_t m;
	if (argc == 4 && strcmp(argv[1], "gen") == 0) {
		fv_gen_opts_t o;
		fv_gen_opts_default(&o);
		o.cells = FV_GEN_TET;
		o.nx = o.ny = o.nz = atoi(argv[2]);
		o.perturb = 0.1;
		if (fv_mesh_gen_box(&m, &o) != FV_OK || fv_mesh_write_su2(&m, argv[3]) != FV_OK)
			return die();
		fv_mesh_free(&m);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "load") == 0) {
		double t0 = fv_now(), t_read, t_faces, t_nodes, t_geom, t_check;
		size_t rss_read;
		fv_mesh_stats_t s;
		if (fv_mesh_read(&m, argv[2]) != FV_OK)
			return die();
		t_read = fv_now() - t0;
		rss_read = fv_current_rss();
		t0 = fv_now();
		if (fv_mesh_build_faces(&m) != FV_OK)
			return die();
		t_faces = fv_now() - t0;
		t0 = fv_now();
		if (fv_mesh_build_node_cells(&m) != FV_OK)
			return die();
		t_nodes = fv_now() - t0;
		t0 = fv_now();
		if (fv_mesh_compute_geometry(&m) != FV_OK)
			return die();
		t_geom = fv_now() - t0;
		t0 = fv_now();
		if (fv_mesh_check(&m, 0, &s) != FV_OK)
			return die();
		t_check = fv_now() - t0;
		double n = (double)m.n_cells;
		printf("cells,faces,nodes,read_s,faces_s,node_cells_s,geometry_s,checks_s,"
		       "conn_geom_us_per_cell,rss_after_read_B_per_cell,rss_final_B_per_cell,peak_rss_B_per_cell\n");
		printf("%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%.0f,%.0f\n", (int)m.n_cells, (int)m.n_faces,
		       (int)m.n_nodes, t_read, t_faces, t_nodes, t_geom, t_check,
		       1e6 * (t_faces + t_nodes + t_geom) / n, (double)rss_read / n, (double)fv_current_rss() / n,
		       (double)fv_peak_rss() / n);
		fv_mesh_free(&m);
		return 0;
	}
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "setup") == 0) {
		int k = argc == 5 ? partitioner(argv[4]) : 0;
		return k < 0 ? 2 : setup(argv[2], atoi(argv[3]), ids[k]);
	}
	if (argc >= 5 && strcmp(argv[1], "cut") == 0)
		return cut_bench(argv[2], atoi(argv[3]), argc - 4, argv + 4);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "order") == 0)
		return order_bench(argv[2], argc == 4 ? atoi(argv[3]) : 5);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "read") == 0)
		return read_bench(argv[2], argc == 4 ? atoi(argv[3]) : 5);
	fprintf(stderr, "usage: bench_mesh gen N OUT.su2 | bench_mesh load MESH | bench_mesh read MESH [R] | bench_mesh order MESH [R] | "
			"bench_mesh setup MESH BLOCKS [PARTITIONER] | bench_mesh cut MESH BLOCKS PARTITIONER...\n");
	return 2;
}
