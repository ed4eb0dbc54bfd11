/* SPDX-License-Identifier: MIT */
/* Ranks: StarPU-MPI's start and stop when the process was started by
 * mpirun, which rank owns which block, the few collectives outside the task
 * graph (a global array assembled from the ranks' pieces, reduction rows),
 * and the stop of every rank when one fails. Without mpirun there is one
 * rank and no MPI call at all: the run is the plain StarPU one.
 *
 * Why fvstar initialises MPI itself (MPI_THREAD_MULTIPLE) instead of
 * letting starpu_mpi_init_conf do it (MPI_THREAD_SERIALIZED): the driver
 * thread calls MPI collectives (the residual rows of an iteration, a state
 * assembled for output) while StarPU-MPI's progress thread moves halo
 * buffers, and only MPI_THREAD_MULTIPLE allows two threads in MPI at once.
 * The collectives use a duplicate of MPI_COMM_WORLD, so they never meet
 * StarPU-MPI's own messages.
 *
 * fvstar-smpi (-DFV_SMPI, simulated ranks under SimGrid's SMPI) is the
 * exception: there a rank's MPI process is StarPU-MPI's progress actor,
 * which initialised MPI before fvstar's main ran in an actor of its own;
 * SMPI does not count that actor as the rank (its MPI messages never
 * arrive: SimGrid issue 139), so fvstar's own messages go through
 * StarPU-MPI instead (handles over the bytes, starpu_mpi_isend/irecv), and
 * StarPU starts before the first of them (src/app/plan.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fvstar/runtime.h"
#include "runtime/ranks.h"
#include "util/env.h"

#ifdef FV_HAVE_MPI
#include <mpi.h>
#include <starpu_mpi.h>
#include <time.h>
static MPI_Comm comm = MPI_COMM_NULL;
#ifndef FV_SMPI

/* Waits for req without spinning: the rank's CPU workers and StarPU-MPI's
 * progress thread need the cores while the driver waits for the others
 * (a blocking collective polls at full speed, which on a machine with no
 * core to spare made a 2-rank run ten times slower). */
static int wait_politely(MPI_Request *req)
{
	int done = 0, ret;
	struct timespec ts = {0, 5000};
	/* the pause doubles up to 0.25 ms: a quick answer comes quickly, a long
	 * wait (the other ranks still computing) costs next to no CPU time */
	while ((ret = MPI_Test(req, &done, MPI_STATUS_IGNORE)) == MPI_SUCCESS && !done) {
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 250000)
			ts.tv_nsec *= 2;
	}
	return ret;
}

/* Waits for a message's bytes once both sides are at it (its size has
 * come): Open MPI moves a large message through shared memory in
 * fragments only inside MPI calls, so wait_politely's pauses throttled a
 * mesh part to a few fragments per pause (blocks: parts sent, 2 ranks,
 * 10.37M cells: 8.7 s, session 18 call 2). */
static int wait_moving(MPI_Request *req)
{
	return MPI_Wait(req, MPI_STATUS_IGNORE);
}
#endif
#endif

#define MSG_CHUNK ((size_t)1 << 30)
static int mpi_up, starpu_mpi_up, n_ranks = 1, my_rank;

#ifdef FV_SMPI
/* fvstar's own messages under SMPI, through StarPU-MPI (see the top). A
 * pair of ranks numbers its messages in the order both sides issue them
 * (the same program on each), so the tag (above the data handles') makes
 * every message of a pair unique. */
#define SMPI_TAG_BASE ((starpu_mpi_tag_t)1 << 40)
#define SMPI_SETTLE 1e-3 /* simulated seconds: see smpi_reduce */
static long long *smpi_sent, *smpi_recvd; /* [n_ranks] messages so far */

static fv_err_t smpi_start(void)
{
	n_ranks = starpu_mpi_world_size();
	my_rank = starpu_mpi_world_rank();
	FV_CALL(fv_calloc(&smpi_sent, (size_t)n_ranks, sizeof *smpi_sent, "the ranks' message counts"));
	FV_CALL(fv_calloc(&smpi_recvd, (size_t)n_ranks, sizeof *smpi_recvd, "the ranks' message counts"));
	mpi_up = 1;
	return FV_OK;
}

/* One message of at most MSG_CHUNK bytes to (send) or from (receive)
 * rank peer, posted; smpi_wait completes it. */
typedef struct smpi_msg {
	starpu_data_handle_t h;
	starpu_mpi_req req;
} smpi_msg_t;

static fv_err_t smpi_post(smpi_msg_t *m, void *buf, size_t bytes, int peer, int send, const char *what)
{
	FV_CHECK(starpu_mpi_up, FV_ERR_RUNTIME, "rank %d: %s %s rank %d before StarPU-MPI started (fvstar-smpi)",
		 my_rank, send ? "sending" : "receiving", what, peer);
	/* a tag unique per sender, receiver and message, the handle known
	 * to StarPU-MPI under it as fvstar's data handles are (data.c) */
	long long seq = send ? smpi_sent[peer]++ : smpi_recvd[peer]++;
	int src = send ? my_rank : peer, dst = send ? peer : my_rank;
	starpu_mpi_tag_t tag = SMPI_TAG_BASE + (starpu_mpi_tag_t)((seq * n_ranks + src) * n_ranks + dst);
	starpu_vector_data_register(&m->h, STARPU_MAIN_RAM, (uintptr_t)buf, (uint32_t)bytes, 1);
	starpu_mpi_data_register(m->h, tag, src);
	int ret = send ? starpu_mpi_isend(m->h, &m->req, peer, tag, MPI_COMM_WORLD)
		       : starpu_mpi_irecv(m->h, &m->req, peer, tag, MPI_COMM_WORLD);
	if (ret != 0)
		starpu_data_unregister(m->h);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "rank %d: %s %s rank %d failed (%d)", my_rank,
		 send ? "sending" : "receiving", what, peer, ret);
	return FV_OK;
}

static void smpi_wait(smpi_msg_t *m)
{
	MPI_Status st;
	/* its return is MPI's, or -1 where StarPU-MPI took data that came
	 * before the receive (no MPI call of its own); an MPI failure stops
	 * StarPU-MPI itself */
	starpu_mpi_wait(&m->req, &st);
	starpu_data_unregister(m->h);
}

/* bytes to (send) or from (receive) rank peer, in 1 GiB pieces (a
 * vector's length is 32-bit) */
static fv_err_t smpi_move(void *buf, size_t bytes, int peer, int send, const char *what)
{
	for (size_t off = 0; off < bytes; off += MSG_CHUNK) {
		smpi_msg_t m;
		if (send && off > 0)
			starpu_sleep(SMPI_SETTLE); /* the next piece's receive posted first */
		FV_CALL(smpi_post(&m, (char *)buf + off, bytes - off < MSG_CHUNK ? bytes - off : MSG_CHUNK, peer, send,
				  what));
		smpi_wait(&m);
	}
	return FV_OK;
}

/* mem (bytes) combined over the ranks by op (into its first argument),
 * on rank 0, and the result sent back to every rank. StarPU-MPI 1.3.10
 * under SMPI hangs when one of these messages comes before its receive is
 * posted (4 simulated ranks stopped in the set-up: rank 0 still sending
 * mesh parts when the others' counts came), so every receive is posted
 * first: all ranks meet (StarPU-MPI's barrier, its MPI process's), rank 0
 * posts at once, the others wait SMPI_SETTLE of simulated time before
 * they send. The set-up's simulated time is not measured. */
static fv_err_t smpi_reduce(void *mem, size_t bytes, void (*op)(void *, const void *, size_t), const char *what)
{
	uint8_t *tmp = NULL;
	smpi_msg_t *m = NULL;
	fv_err_t err = FV_OK;
	if (bytes > MSG_CHUNK) {
		/* in pieces, each reduced in turn */
		for (size_t off = 0; off < bytes; off += MSG_CHUNK)
			FV_CALL(smpi_reduce((char *)mem + off, bytes - off < MSG_CHUNK ? bytes - off : MSG_CHUNK, op,
					    what));
		return FV_OK;
	}
	FV_CHECK(starpu_mpi_barrier(MPI_COMM_WORLD) == 0, FV_ERR_RUNTIME, "rank %d: the ranks' barrier failed (%s)",
		 my_rank, what);
	if (my_rank != 0) {
		smpi_msg_t r, w;
		FV_CALL(fv_malloc(&tmp, bytes ? bytes : 1, 1, what));
		err = smpi_post(&r, tmp, bytes, 0, 0, what);
		if (err == FV_OK) {
			starpu_sleep(SMPI_SETTLE);
			err = smpi_post(&w, mem, bytes, 0, 1, what);
			if (err == FV_OK) {
				smpi_wait(&w);
				smpi_wait(&r);
				memcpy(mem, tmp, bytes);
			}
		}
		free(tmp);
		return err;
	}
	FV_CALL(fv_malloc(&tmp, (size_t)n_ranks * (bytes ? bytes : 1), 1, what));
	FV_CALL_GOTO(err, out, fv_calloc(&m, (size_t)n_ranks, sizeof *m, what));
	for (int r = 1; r < n_ranks && err == FV_OK; r++)
		err = smpi_post(&m[r], tmp + (size_t)r * bytes, bytes, r, 0, what);
	for (int r = 1; r < n_ranks && err == FV_OK; r++) {
		smpi_wait(&m[r]);
		op(mem, tmp + (size_t)r * bytes, bytes);
	}
	/* one rank after the other: one handle over mem at a time */
	for (int r = 1; r < n_ranks && err == FV_OK; r++)
		if ((err = smpi_post(&m[r], mem, bytes, r, 1, what)) == FV_OK)
			smpi_wait(&m[r]);
out:
	free(m);
	free(tmp);
	return err;
}

static void op_or(void *a, const void *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((uint8_t *)a)[i] |= ((const uint8_t *)b)[i];
}

static void op_max2(void *a, const void *b, size_t n)
{
	(void)n;
	for (int i = 0; i < 2; i++)
		if (((const long long *)b)[i] > ((long long *)a)[i])
			((long long *)a)[i] = ((const long long *)b)[i];
}
#endif

/* Started by an MPI launcher (Open MPI, or a PMI/PMIx one)? */
static const char *launcher_rank(void)
{
	const char *v = getenv("OMPI_COMM_WORLD_RANK");
	if (!v)
		v = getenv("PMIX_RANK");
	if (!v)
		v = getenv("PMI_RANK");
	return v;
}

int fv_ranks_wanted(void)
{
#ifdef FV_SMPI
	return 1; /* smpirun started StarPU-MPI (and MPI) before main */
#endif
	int force;
	/* 0 or 1, checked before the command started (fv_env_check) */
	if (fv_env_switch("FVSTAR_MPI", -1, &force) == FV_OK && force >= 0)
		return force;
	return launcher_rank() != NULL;
}

int fv_runtime_rank(void)
{
	if (mpi_up)
		return my_rank;
#ifdef FV_SMPI
	return starpu_mpi_world_rank();
#endif
	/* before start-up (the effective case, printed by rank 0 only) */
	const char *v = fv_ranks_wanted() ? launcher_rank() : NULL;
	return v ? atoi(v) : 0;
}

int fv_runtime_nranks(void)
{
	if (mpi_up)
		return n_ranks;
#ifdef FV_SMPI
	return starpu_mpi_world_size();
#endif
	/* before start-up (StarPU and MPI start once the mesh is read, and an
	 * error before that names the launcher's rank and size) */
	if (!fv_ranks_wanted())
		return n_ranks;
	const char *v = getenv("OMPI_COMM_WORLD_SIZE");
	if (!v)
		v = getenv("PMI_SIZE");
	return v && atoi(v) > 1 ? atoi(v) : n_ranks;
}

fv_err_t fv_runtime_mpi_start(void)
{
	if (mpi_up || !fv_ranks_wanted())
		return FV_OK;
	fv_runtime_place_early();
#ifdef FV_SMPI
	return smpi_start();
#elif defined(FV_HAVE_MPI)
	int provided = 0, inited = 0, ret;
	MPI_Initialized(&inited);
	/* StarPU-MPI's progress thread polls MPI without pause while messages
	 * are under way; Open MPI then yields the core when nothing came, so
	 * that the rank's workers run (2 ranks on 2 cores: 5 times faster).
	 * OMPI_MCA_mpi_yield_when_idle=0 in the environment keeps polling. */
	setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
	if (!inited) {
		ret = MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided);
		FV_CHECK(ret == MPI_SUCCESS, FV_ERR_RUNTIME, "MPI_Init_thread failed (%d)", ret);
	} else {
		MPI_Query_thread(&provided);
	}
	FV_CHECK(provided >= MPI_THREAD_MULTIPLE, FV_ERR_RUNTIME,
		 "the MPI library gives thread level %d, fvstar needs MPI_THREAD_MULTIPLE (%d): the driver thread "
		 "reads residuals while StarPU-MPI's thread moves halos",
		 provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
	MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	mpi_up = 1;
	return FV_OK;
#else
	/* several copies of one run would write the same files */
	const char *size = getenv("OMPI_COMM_WORLD_SIZE");
	FV_CHECK(getenv("FVSTAR_MPI") || !size || atoi(size) <= 1, FV_ERR_RUNTIME,
		 "started by mpirun on %s ranks, but this fvstar was built without StarPU-MPI (configure found no "
		 "MPI or no MPI in StarPU); FVSTAR_MPI=0 runs independent copies",
		 size);
	FV_CHECK(!getenv("FVSTAR_MPI"), FV_ERR_RUNTIME, "FVSTAR_MPI=1: this fvstar was built without StarPU-MPI");
	return FV_OK;
#endif
}

void fv_runtime_mpi_stop(void)
{
#ifdef FV_HAVE_MPI
	if (!mpi_up || starpu_mpi_up)
		return;
	/* every rank's FxT file is complete before rank 0 merges them */
#ifdef FV_SMPI
	/* StarPU-MPI's shutdown waited for the other ranks, and its actor
	 * finalises MPI */
	FV_FREE(smpi_sent);
	FV_FREE(smpi_recvd);
#else
	MPI_Barrier(comm);
	MPI_Comm_free(&comm);
	MPI_Finalize();
#endif
	mpi_up = 0;
#endif
}

fv_err_t fv_ranks_start(struct starpu_conf *conf)
{
	FV_CALL(fv_runtime_mpi_start());
#ifdef FV_HAVE_MPI
	if (!mpi_up)
		return FV_OK;
	int ret = starpu_mpi_init_conf(NULL, NULL, 0, MPI_COMM_WORLD, conf);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "rank %d: starpu_mpi_init_conf failed (%d)", my_rank, ret);
	/* No cache of received data: a rank submits only the tasks that touch
	 * its own data (tasks.c), so it does not see every write of a buffer
	 * it holds a copy of, and a cached copy could be stale. Halo buffers
	 * are read once per write anyway. */
	starpu_mpi_cache_set(0);
	starpu_mpi_up = 1;
#else
	(void)conf;
#endif
	return FV_OK;
}

int fv_ranks_up(void)
{
	return starpu_mpi_up;
}

void fv_ranks_stop(void)
{
#ifdef FV_HAVE_MPI
	if (!starpu_mpi_up)
		return;
	starpu_mpi_shutdown();
	starpu_mpi_up = 0;
	fv_runtime_mpi_stop();
#endif
}

/* Messages of rank 0's mesh parts: a size, then chunks of at most 1 GiB
 * (MSG_CHUNK, at the top). */
#define PART_TAG 7701

fv_err_t fv_runtime_send_bytes(const void *buf, size_t bytes, int to, const char *what)
{
#ifdef FV_SMPI
	uint64_t n = bytes;
	FV_CHECK(mpi_up && to >= 0 && to < n_ranks, FV_ERR_ARG, "sending %s to rank %d of %d", what, to, n_ranks);
	FV_CALL(smpi_move(&n, sizeof n, to, 1, what));
	starpu_sleep(SMPI_SETTLE); /* its receive posted first: see smpi_reduce */
	return smpi_move((void *)buf, bytes, to, 1, what);
#elif defined(FV_HAVE_MPI)
	uint64_t n = bytes;
	FV_CHECK(mpi_up && to >= 0 && to < n_ranks, FV_ERR_ARG, "sending %s to rank %d of %d", what, to, n_ranks);
	{
		MPI_Request req;
		int ret = MPI_Isend(&n, 8, MPI_BYTE, to, PART_TAG, comm, &req);
		if (ret == MPI_SUCCESS)
			ret = wait_politely(&req);
		FV_CHECK(ret == MPI_SUCCESS, FV_ERR_RUNTIME, "rank %d: sending %s to rank %d failed (%d)", my_rank,
			 what, to, ret);
	}
	for (size_t off = 0; off < bytes; off += MSG_CHUNK) {
		size_t k = bytes - off < MSG_CHUNK ? bytes - off : MSG_CHUNK;
		MPI_Request req;
		int ret = MPI_Isend((const char *)buf + off, (int)k, MPI_BYTE, to, PART_TAG, comm, &req);
		if (ret == MPI_SUCCESS)
			ret = wait_moving(&req);
		FV_CHECK(ret == MPI_SUCCESS, FV_ERR_RUNTIME, "rank %d: sending %s to rank %d failed (%d)", my_rank,
			 what, to, ret);
	}
	return FV_OK;
#else
	(void)buf;
	(void)bytes;
	return FV_ERROR(FV_ERR_RUNTIME, "sending %s to rank %d: this fvstar has no MPI", what, to);
#endif
}

fv_err_t fv_runtime_recv_bytes(uint8_t **buf, size_t *bytes, int from, const char *what)
{
#ifdef FV_SMPI
	uint64_t n = 0;
	*buf = NULL;
	*bytes = 0;
	FV_CHECK(mpi_up && from >= 0 && from < n_ranks, FV_ERR_ARG, "receiving %s from rank %d of %d", what, from,
		 n_ranks);
	FV_CALL(smpi_move(&n, sizeof n, from, 0, what));
	FV_CALL(fv_malloc(buf, (size_t)n + 1, 1, what));
	fv_err_t err = smpi_move(*buf, (size_t)n, from, 0, what);
	if (err != FV_OK) {
		FV_FREE(*buf);
		return err;
	}
	*bytes = (size_t)n;
	return FV_OK;
#elif defined(FV_HAVE_MPI)
	uint64_t n = 0;
	MPI_Request req;
	int ret;
	*buf = NULL;
	*bytes = 0;
	FV_CHECK(mpi_up && from >= 0 && from < n_ranks, FV_ERR_ARG, "receiving %s from rank %d of %d", what, from,
		 n_ranks);
	ret = MPI_Irecv(&n, 8, MPI_BYTE, from, PART_TAG, comm, &req);
	if (ret == MPI_SUCCESS)
		ret = wait_politely(&req);
	FV_CHECK(ret == MPI_SUCCESS, FV_ERR_RUNTIME, "rank %d: receiving %s from rank %d failed (%d)", my_rank, what,
		 from, ret);
	FV_CALL(fv_malloc(buf, (size_t)n + 1, 1, what));
	for (size_t off = 0; off < n; off += MSG_CHUNK) {
		size_t k = n - off < MSG_CHUNK ? n - off : MSG_CHUNK;
		ret = MPI_Irecv(*buf + off, (int)k, MPI_BYTE, from, PART_TAG, comm, &req);
		if (ret == MPI_SUCCESS)
			ret = wait_moving(&req);
		if (ret != MPI_SUCCESS) {
			FV_FREE(*buf);
			return FV_ERROR(FV_ERR_RUNTIME, "rank %d: receiving %s from rank %d failed (%d)", my_rank, what,
					from, ret);
		}
	}
	*bytes = (size_t)n;
	return FV_OK;
#else
	(void)buf;
	(void)bytes;
	return FV_ERROR(FV_ERR_RUNTIME, "receiving %s from rank %d: this fvstar has no MPI", what, from);
#endif
}

#ifdef FV_HAVE_MPI
/* From the communicator of the driver's collectives, not MPI_COMM_WORLD,
 * which StarPU-MPI's thread uses meanwhile (two threads may not run
 * collectives on one communicator at once). */
int fv_ranks_dup_comm(void *out)
{
	return MPI_Comm_dup(comm, (MPI_Comm *)out);
}
#endif

void fv_ranks_wait_all(void)
{
#ifdef FV_HAVE_MPI
	starpu_mpi_wait_for_all(MPI_COMM_WORLD);
#endif
}

fv_err_t fv_runtime_check_block_ranks(const int *rank_of, int n_blocks)
{
	for (int b = 0; b < n_blocks; b++)
		FV_CHECK(rank_of[b] >= 0 && rank_of[b] < n_ranks, FV_ERR_ARG, "block %d: rank %d of %d", b, rank_of[b],
			 n_ranks);
	return FV_OK;
}

/* Without a map: contiguous ranges of block ids, as equal in count as they
 * go (rank r owns blocks r nb / R .. (r + 1) nb / R - 1). */
int fv_runtime_block_rank(int block, int n_blocks, const int *rank_of)
{
	if (rank_of)
		return rank_of[block];
	for (int r = 0; r < n_ranks - 1; r++)
		if (block < (int)(((long long)(r + 1) * n_blocks) / n_ranks))
			return r;
	return n_ranks - 1;
}

fv_err_t fv_runtime_combine(void *mem, size_t bytes, const char *what)
{
#ifdef FV_SMPI
	if (!mpi_up || n_ranks == 1)
		return FV_OK;
	return smpi_reduce(mem, bytes, op_or, what);
#elif defined(FV_HAVE_MPI)
	if (!mpi_up || n_ranks == 1)
		return FV_OK;
	/* bitwise OR of the pieces (each zero where another rank holds the
	 * values): exact, whatever the values' signs and NaNs */
	for (size_t off = 0; off < bytes;) {
		size_t n = bytes - off > (1u << 30) ? (1u << 30) : bytes - off;
		MPI_Request req;
		int ret = MPI_Iallreduce(MPI_IN_PLACE, (char *)mem + off, (int)n, MPI_BYTE, MPI_BOR, comm, &req);
		if (ret == MPI_SUCCESS)
			ret = wait_politely(&req);
		FV_CHECK(ret == MPI_SUCCESS, FV_ERR_RUNTIME, "rank %d: assembling %s from the ranks failed (%d)", my_rank,
			 what, ret);
		off += n;
	}
	return FV_OK;
#else
	(void)mem;
	(void)bytes;
	(void)what;
	return FV_OK;
#endif
}

fv_err_t fv_runtime_agree(long long value, const char *what)
{
#ifdef FV_HAVE_MPI
	if (!mpi_up || n_ranks == 1)
		return FV_OK;
	long long v[2] = {value, -value}, r[2];
#ifdef FV_SMPI
	memcpy(r, v, sizeof r);
	FV_CALL(smpi_reduce(r, sizeof r, op_max2, what));
#else
	MPI_Request req;
	int ret = MPI_Iallreduce(v, r, 2, MPI_LONG_LONG, MPI_MAX, comm, &req);
	if (ret == MPI_SUCCESS)
		ret = wait_politely(&req);
	FV_CHECK(ret == MPI_SUCCESS, FV_ERR_RUNTIME, "rank %d: comparing %s across ranks failed (%d)", my_rank, what, ret);
#endif
	FV_CHECK(r[0] == value && -r[1] == value, FV_ERR_ARG,
		 "rank %d: %s is %lld here, but ranges over %lld .. %lld across the ranks (every rank must read the "
		 "same case and mesh)",
		 my_rank, what, value, -r[1], r[0]);
#else
	(void)value;
	(void)what;
#endif
	return FV_OK;
}

void fv_runtime_fail(const char *msg)
{
	/* before start-up (the mesh is read before StarPU and MPI start) the
	 * command's error report names the rank, and the launcher stops the
	 * other ranks when this one exits with an error */
	if (!mpi_up)
		return;
	fprintf(stderr, "fvstar: error (rank %d of %d): %s\n", fv_runtime_rank(), n_ranks, msg);
	fflush(stderr);
#ifdef FV_HAVE_MPI
	/* the other ranks may wait for this one in a collective or for its
	 * halo buffers: stop them all (no hang), with a non-zero status */
	if (mpi_up && n_ranks > 1) {
#ifdef FV_SMPI
		exit(1); /* the simulation: MPI_Abort is the progress actor's */
#else
		MPI_Abort(MPI_COMM_WORLD, 1);
#endif
	}
#endif
}
