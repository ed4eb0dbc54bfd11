/* SPDX-License-Identifier: MIT */
/* The watchdog of several ranks: a rank stopped, lost or stuck stops every rank, named. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "fvstar/runtime.h"
#include "runtime/ranks.h"

/*
 * Heartbeats between the ranks on a thread of their own, so that a rank
 * stopped (SIGSTOP), killed without its launcher noticing, or cut off stops
 * every rank with a message naming it, instead of leaving the others
 * waiting for its halos forever.
 *
 * Rank 0 is the hub: every rank sends it a heartbeat each period (its
 * iteration count and how long its driver has waited for the ranks' data),
 * and it sends one to every rank. Rank 0 names the ranks it has not heard
 * from for the watchdog time (silent), or, all alive, those behind when a
 * driver has waited that long (late); any other rank names rank 0 when the
 * hub falls silent. A heartbeat thread keeps beating while its process
 * lives, so a long set-up phase or a slow output write is no silence; only
 * a stopped or lost process is. The time is runtime.watchdog, or 20 times
 * the running iteration time when that is longer. */

#ifdef FV_HAVE_MPI
#include <mpi.h>

#define WD_TAG 7702
#define WD_ITER_FACTOR 20.0 /* the watchdog time is at least this many iterations */

typedef struct peer {
	double seen;      /* time of its last heartbeat */
	double progress;  /* its iterations ended */
	double waiting;   /* seconds its driver waits for the ranks' data (0: not waiting) */
	int gone;         /* said goodbye (fv_ranks_watchdog_stop) */
	MPI_Request req;  /* our last heartbeat to it */
	double out[3];    /* its buffer: progress, waiting, goodbye */
} peer_t;

static struct {
	int on, stop;
	double limit, period, started;
	MPI_Comm comm;
	int me, n;
	peer_t *peer;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* this rank's driver (fv_ranks_watch_wait/_done), under lock */
	long long progress;
	double wait_since;   /* 0: not waiting */
	double last_done, iter_time;
} wd = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Heartbeats come in; a rank that sends none for the limit is silent. */
static void receive(double t)
{
	int flag = 1;
	while (flag) {
		MPI_Status st;
		double in[3];
		if (MPI_Iprobe(MPI_ANY_SOURCE, WD_TAG, wd.comm, &flag, &st) != MPI_SUCCESS || !flag)
			return;
		if (MPI_Recv(in, 3, MPI_DOUBLE, st.MPI_SOURCE, WD_TAG, wd.comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return;
		peer_t *p = &wd.peer[st.MPI_SOURCE];
		p->seen = t;
		p->progress = in[0];
		p->waiting = in[1];
		p->gone = in[2] != 0;
	}
}

/* To rank 0 from the others, from rank 0 to all; a heartbeat still in
 * flight to a rank (one that does not receive) is not doubled. */
static void send_all(double t, int bye)
{
	/* a goodbye goes out after the last heartbeats' requests were freed,
	 * whose buffers MPI may still read: its own buffer */
	static double bye_out[3];
	double out[3];
	pthread_mutex_lock(&wd.lock);
	out[0] = (double)wd.progress;
	out[1] = wd.wait_since > 0 ? t - wd.wait_since : 0;
	pthread_mutex_unlock(&wd.lock);
	out[2] = bye;
	for (int r = 0; r < wd.n; r++) {
		peer_t *p = &wd.peer[r];
		int done = 1;
		if (r == wd.me || (wd.me != 0 && r != 0) || p->gone)
			continue;
		if (p->req != MPI_REQUEST_NULL && MPI_Test(&p->req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			continue;
		if (!done)
			continue;
		if (bye) {
			memcpy(bye_out, out, sizeof out);
			MPI_Isend(bye_out, 3, MPI_DOUBLE, r, WD_TAG, wd.comm, &p->req);
			continue;
		}
		memcpy(p->out, out, sizeof out);
		MPI_Isend(p->out, 3, MPI_DOUBLE, r, WD_TAG, wd.comm, &p->req);
	}
}

/* "1, 3" of the ranks with flag set, into buf. */
static void rank_list(const int *flag, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int r = 0; r < wd.n && k < n; r++)
		if (flag[r])
			k += (size_t)snprintf(buf + k, n - k, "%s%d", k ? ", " : "", r);
}

/* The message that stops every rank: which ranks, since when, and what
 * this rank was doing. */
static void stop_all(const char *what, double limit)
{
	char msg[1536], mine[256];
	double t = now(), waited;
	long long it;
	pthread_mutex_lock(&wd.lock);
	waited = wd.wait_since > 0 ? t - wd.wait_since : 0;
	it = wd.progress;
	pthread_mutex_unlock(&wd.lock);
	if (waited > 0)
		snprintf(mine, sizeof mine, "this rank has waited %.1f s for the ranks' data after %lld iterations", waited,
			 it);
	else
		snprintf(mine, sizeof mine, "this rank has ended %lld iterations", it);
	snprintf(msg, sizeof msg,
		 "watchdog: %s; %s (the watchdog's %.1f s: runtime.watchdog = %g s, or %g iterations of %.3g s when "
		 "longer; 0 turns it off): stopping every rank",
		 what, mine, limit, wd.limit, WD_ITER_FACTOR, wd.iter_time);
	fv_runtime_fail(msg);
	/* fv_runtime_fail returns only without MPI */
	exit(1);
}

static void check(double t)
{
	int *silent = calloc((size_t)wd.n, sizeof *silent), *late = calloc((size_t)wd.n, sizeof *late);
	int n_silent = 0, n_late = 0, waiter = -1, stale = 0;
	double limit = wd.limit, longest = 0, most = -1, least = -1;
	char list[1024], what[1280];
	if (!silent || !late)
		goto out;
	pthread_mutex_lock(&wd.lock);
	if (wd.iter_time * WD_ITER_FACTOR > limit)
		limit = wd.iter_time * WD_ITER_FACTOR;
	wd.peer[wd.me].progress = (double)wd.progress;
	wd.peer[wd.me].waiting = wd.wait_since > 0 ? t - wd.wait_since : 0;
	wd.peer[wd.me].seen = t;
	pthread_mutex_unlock(&wd.lock);
	for (int r = 0; r < wd.n; r++) {
		peer_t *p = &wd.peer[r];
		int watched = r == wd.me || wd.me == 0 || r == 0;
		if (!watched || p->gone)
			continue;
		if (t - p->seen > limit) {
			silent[r] = 1;
			n_silent++;
			continue;
		}
		/* two beats missed: maybe stopped, not yet silent for the limit */
		stale |= r != wd.me && t - p->seen > 2 * wd.period;
		if (p->waiting > longest) {
			longest = p->waiting;
			waiter = r;
		}
		most = p->progress > most ? p->progress : most;
		least = least < 0 || p->progress < least ? p->progress : least;
	}
	if (n_silent) {
		rank_list(silent, list, sizeof list);
		int first = -1;
		for (int r = 0; r < wd.n && first < 0; r++)
			if (silent[r])
				first = r;
		snprintf(what, sizeof what,
			 "rank%s %s silent for %.1f s (no heartbeat: stopped, killed, or its node lost; %s last said %.0f "
			 "iterations ended)",
			 n_silent > 1 ? "s" : "", list, t - wd.peer[first].seen, n_silent > 1 ? "the first" : "it",
			 wd.peer[first].progress);
		stop_all(what, limit);
	}
	/* every rank alive, but a driver waits past the limit: the ranks
	 * behind are those whose data did not come (rank 0 sees them all).
	 * Not while a rank has missed beats: a rank stopped just after its
	 * last heartbeat is silent for the limit a little after rank 0 has
	 * waited that long for its data, and is then named as what it is
	 * (the silence check, within another limit), not as a deadlock
	 * between live ranks (seen once in CI, 2 cores under load). */
	if (wd.me == 0 && waiter >= 0 && longest > limit && !stale) {
		for (int r = 0; r < wd.n; r++)
			if (!wd.peer[r].gone && wd.peer[r].progress < most) {
				late[r] = 1;
				n_late++;
			}
		if (n_late) {
			rank_list(late, list, sizeof list);
			snprintf(what, sizeof what,
				 "rank %d has waited %.1f s for data that did not come; rank%s %s behind, at %.0f "
				 "iterations ended against %.0f",
				 waiter, longest, n_late > 1 ? "s" : "", list, least, most);
		} else {
			snprintf(what, sizeof what,
				 "rank %d has waited %.1f s for data that did not come; every rank is alive and has "
				 "ended %.0f iterations (a deadlock between the ranks)",
				 waiter, longest, most);
		}
		stop_all(what, limit);
	}
out:
	free(silent);
	free(late);
}

static void *watch(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&wd.lock);
	while (!wd.stop) {
		struct timespec ts;
		double until;
		clock_gettime(CLOCK_REALTIME, &ts);
		until = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + wd.period;
		ts.tv_sec = (time_t)until;
		ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&wd.cond, &wd.lock, &ts);
		if (wd.stop)
			break;
		pthread_mutex_unlock(&wd.lock);
		double t = now();
		receive(t);
		send_all(t, 0);
		check(t);
		pthread_mutex_lock(&wd.lock);
	}
	pthread_mutex_unlock(&wd.lock);
	return NULL;
}
#endif

fv_err_t fv_ranks_watchdog_start(double seconds)
{
#ifdef FV_SMPI
	/* simulated ranks (fvstar-smpi): a thread of our own is outside the
	 * simulation, and SimGrid itself reports ranks that wait forever */
	(void)seconds;
	return FV_OK;
#endif
#ifdef FV_HAVE_MPI
	int ret;
	if (wd.on || seconds <= 0 || !fv_ranks_up() || fv_runtime_nranks() < 2)
		return FV_OK;
	ret = fv_ranks_dup_comm(&wd.comm);
	FV_CHECK(ret == MPI_SUCCESS, FV_ERR_RUNTIME, "starting the watchdog: MPI_Comm_dup failed (%d)", ret);
	MPI_Comm_rank(wd.comm, &wd.me);
	MPI_Comm_size(wd.comm, &wd.n);
	FV_CALL(fv_calloc(&wd.peer, (size_t)wd.n, sizeof *wd.peer, "watchdog peers"));
	wd.limit = seconds;
	wd.period = seconds / 4 < 1 ? seconds / 4 : 1;
	wd.started = now();
	for (int r = 0; r < wd.n; r++) {
		wd.peer[r].seen = wd.started;
		wd.peer[r].req = MPI_REQUEST_NULL;
	}
	wd.stop = 0;
	wd.progress = 0;
	wd.wait_since = 0;
	wd.last_done = 0;
	wd.iter_time = 0;
	ret = pthread_create(&wd.thread, NULL, watch, NULL);
	FV_CHECK(ret == 0, FV_ERR_RUNTIME, "rank %d: starting the watchdog thread failed (%s)", wd.me, strerror(ret));
	wd.on = 1;
#else
	(void)seconds;
#endif
	return FV_OK;
}

void fv_ranks_watchdog_stop(void)
{
#ifdef FV_HAVE_MPI
	if (!wd.on)
		return;
	pthread_mutex_lock(&wd.lock);
	wd.stop = 1;
	pthread_cond_broadcast(&wd.cond);
	pthread_mutex_unlock(&wd.lock);
	pthread_join(wd.thread, NULL);
	/* a goodbye, so that the others stop watching this rank while it
	 * shuts down; the heartbeats still in flight are left to MPI */
	double t = now();
	receive(t);
	for (int r = 0; r < wd.n; r++)
		if (wd.peer[r].req != MPI_REQUEST_NULL) {
			int done = 0;
			MPI_Test(&wd.peer[r].req, &done, MPI_STATUS_IGNORE);
			if (!done)
				MPI_Request_free(&wd.peer[r].req);
		}
	send_all(t, 1);
	for (int r = 0; r < wd.n; r++)
		if (wd.peer[r].req != MPI_REQUEST_NULL)
			MPI_Request_free(&wd.peer[r].req);
	MPI_Comm_free(&wd.comm);
	/* the buffers of freed requests may still be read: kept */
	wd.on = 0;
#endif
}

void fv_ranks_watch_wait(void)
{
#ifdef FV_HAVE_MPI
	if (!wd.on)
		return;
	pthread_mutex_lock(&wd.lock);
	wd.wait_since = now();
	pthread_mutex_unlock(&wd.lock);
#endif
}

void fv_ranks_watch_done(void)
{
#ifdef FV_HAVE_MPI
	if (!wd.on)
		return;
	double t = now();
	pthread_mutex_lock(&wd.lock);
	wd.wait_since = 0;
	wd.progress++;
	if (wd.last_done > 0)
		wd.iter_time = wd.iter_time > 0 ? 0.8 * wd.iter_time + 0.2 * (t - wd.last_done) : t - wd.last_done;
	wd.last_done = t;
	pthread_mutex_unlock(&wd.lock);
#endif
}
