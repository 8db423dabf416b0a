// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/macros.h"
#include "base/num.h"
#include "pin/repin.h"

/* Pauses before the quiet passes that count, in milliseconds. */
static const long settle_ms[] = { 1, 4, 16 };

enum repin_action
repin_next(struct repin_state *st, const struct repin_pass *p, long *pause_ms)
{
	bool was_paused = st->paused;
	unsigned int need;

	st->passes++;
	if (st->passes > 1 && p->new_threads)
		st->churn = true;
	need = st->churn ? ARRAY_SIZE(settle_ms) : 1;
	*pause_ms = 0;
	if (p->set > 0 || p->unsure > 0) {
		st->quiet = 0;
		/* The first pass only sets: the pass that reads it all back
		 * can count as quiet when it follows a pause. */
		if (st->passes == 1)
			*pause_ms = settle_ms[0];
	} else if (!was_paused) {
		/* Quiet, but a clone(2) under way may not show yet. */
		*pause_ms = settle_ms[0];
	} else if (++st->quiet >= need) {
		return REPIN_DONE;
	} else {
		*pause_ms = settle_ms[st->quiet];
	}
	if (st->passes >= REPIN_MAX_PASSES)
		return p->set > 0 ? REPIN_CHANGING : REPIN_UNSURE;
	st->paused = *pause_ms > 0;
	return REPIN_AGAIN;
}

/* ---- one pass ---- */

/*
 * The masks of one re-pinning, in the kernel's format: the one asked for
 * and a buffer for reading back, both of bytes bytes (grown when the
 * kernel's masks are larger), so that no thread needs a conversion.
 */
struct rawmasks {
	size_t ncpus, bytes;
	cpu_set_t *want, *got;
};

static int
rawmasks_size(struct rawmasks *m, const struct cpuset *cpus, size_t ncpus)
{
	CPU_FREE(m->want);
	CPU_FREE(m->got);
	m->ncpus = ncpus;
	m->bytes = CPU_ALLOC_SIZE(ncpus);
	m->want = CPU_ALLOC(ncpus);
	m->got = CPU_ALLOC(ncpus);
	if (m->want == NULL || m->got == NULL)
		return -ENOMEM;
	return cpuset_to_mask(cpus, m->want, m->bytes);
}

static void
rawmasks_free(struct rawmasks *m)
{
	CPU_FREE(m->want);
	CPU_FREE(m->got);
}

/* Read thread tid's affinity into m->got.  0 or -errno. */
static int
raw_get(struct rawmasks *m, const struct cpuset *cpus, pid_t tid)
{
	for (;;) {
		int r;

		/* The kernel writes only its own mask's bytes. */
		memset(m->got, 0, m->bytes);
		if (sched_getaffinity(tid, m->bytes, m->got) == 0)
			return 0;
		/* EINVAL: the mask is smaller than the kernel's. */
		if (errno != EINVAL || m->ncpus >= CPUSET_MAX_CPUS)
			return -errno;
		r = rawmasks_size(m, cpus, 2 * m->ncpus);
		if (r < 0)
			return r;
	}
}

static int
raw_set(const struct rawmasks *m, pid_t tid)
{
	return sched_setaffinity(tid, m->bytes, m->want) == 0 ? 0 : -errno;
}

static bool
raw_equal(const struct rawmasks *m)
{
	return memcmp(m->want, m->got, m->bytes) == 0;
}

/* What one re-pinning keeps between passes. */
struct repin_run {
	pid_t pid;
	const struct cpuset *cpus;
	DIR *dir;		/* /proc/PID/task, rewound for each pass */
	pid_t *tids;
	size_t ntids, cap;
	struct cpuset seen;	/* every tid listed so far */
	struct cpuset confirmed;/* tids read back on the new CPUs */
	struct rawmasks masks;
	struct pin_repin *res;
	char *err;
	size_t errlen;
};

/* List the threads (one readdir of the open directory).  0 or -errno. */
static int
list_tids(struct repin_run *rr)
{
	struct dirent *de;

	rewinddir(rr->dir);
	rr->ntids = 0;
	errno = 0;
	while ((de = readdir(rr->dir)) != NULL) {
		unsigned int tid;

		if (parse_uint(de->d_name, 0x7fffffff, &tid) < 0 || tid == 0)
			continue;
		if (rr->ntids == rr->cap) {
			size_t cap = rr->cap ? 2 * rr->cap : 256;
			pid_t *v = realloc(rr->tids, cap * sizeof(*v));

			if (v == NULL)
				return -ENOMEM;
			rr->tids = v;
			rr->cap = cap;
		}
		rr->tids[rr->ntids++] = (pid_t)tid;
	}
	return errno == 0 || errno == ENOENT ? 0 : -errno;
}

static int
fail(struct repin_run *rr, int r, const char *what, pid_t tid)
{
	snprintf(rr->err, rr->errlen, "cannot %s thread %d: %s", what,
		 (int)tid, strerror(-r));
	return r;
}

/* The thread read back something else than asked: -EDOM. */
static int
misfit(struct repin_run *rr, pid_t tid)
{
	char *want = cpuset_to_list(rr->cpus), *got;

	rr->res->bad_tid = tid;
	if (cpuset_from_mask(&rr->res->got, rr->masks.got,
			     rr->masks.bytes) < 0) {
		free(want);
		return -ENOMEM;
	}
	got = cpuset_to_list(&rr->res->got);
	snprintf(rr->err, rr->errlen, "thread %d of process %d has CPUs %s, "
		 "not %s as asked", (int)tid, (int)rr->pid, got ? got : "?",
		 want ? want : "?");
	free(want);
	free(got);
	return -EDOM;
}

/*
 * Visit one thread: the first pass sets it; later passes read it, and
 * set and read back a thread on other CPUs.
 */
static int
visit(struct repin_run *rr, pid_t tid, bool first, struct repin_pass *p)
{
	int r;

	if (!first) {
		r = raw_get(&rr->masks, rr->cpus, tid);
		if (r == -ESRCH)
			goto gone;
		if (r < 0)
			return fail(rr, r, "read the affinity of", tid);
		if (raw_equal(&rr->masks))
			return cpuset_set(&rr->confirmed, (unsigned int)tid);
		/* On other CPUs: no longer what an earlier pass saw. */
		cpuset_clear(&rr->confirmed, (unsigned int)tid);
	}
	r = raw_set(&rr->masks, tid);
	if (r == -ESRCH)
		goto gone;
	if (r < 0)
		return fail(rr, r, "set the affinity of", tid);
	rr->res->set++;
	p->set++;
	if (first)
		return 0;	/* the next pass reads it back */
	r = raw_get(&rr->masks, rr->cpus, tid);
	if (r == -ESRCH)
		goto gone;
	if (r < 0)
		return fail(rr, r, "read back the affinity of", tid);
	if (!raw_equal(&rr->masks))
		return misfit(rr, tid);
	return cpuset_set(&rr->confirmed, (unsigned int)tid);
gone:
	/* Exited: harmless once it was seen on the new CPUs. */
	if (!cpuset_isset(&rr->confirmed, (unsigned int)tid))
		p->unsure++;
	return 0;
}

static int
repin_pass(struct repin_run *rr, bool first, struct repin_pass *p)
{
	size_t i;
	int r;

	memset(p, 0, sizeof(*p));
	r = list_tids(rr);
	if (r == 0 && rr->ntids == 0)
		r = -ESRCH;
	if (r == -ESRCH) {
		snprintf(rr->err, rr->errlen, "process %d has exited",
			 (int)rr->pid);
		return r;
	}
	if (r < 0) {
		snprintf(rr->err, rr->errlen, "cannot list the threads of "
			 "process %d: %s", (int)rr->pid, strerror(-r));
		return r;
	}
	for (i = 0; i < rr->ntids; i++) {
		unsigned int tid = (unsigned int)rr->tids[i];

		if (!cpuset_isset(&rr->seen, tid)) {
			if (cpuset_set(&rr->seen, tid) < 0)
				return -ENOMEM;
			rr->res->threads++;
			p->new_threads = true;
		}
		r = visit(rr, rr->tids[i], first, p);
		if (r < 0)
			return r;
	}
	return 0;
}

static int
open_tasks(struct repin_run *rr, const struct sysroot *r)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "proc/%d/task", (int)rr->pid);
	fd = sysroot_open_dir(r, path);
	if (fd < 0) {
		int e = fd == -ENOENT ? -ESRCH : fd;

		snprintf(rr->err, rr->errlen, e == -ESRCH ?
			 "process %d has exited" : "cannot list the threads of "
			 "process %d: %s", (int)rr->pid, strerror(-e));
		return e;
	}
	rr->dir = fdopendir(fd);
	if (rr->dir == NULL) {
		int e = -errno;

		close(fd);
		return e;
	}
	return 0;
}

int
pin_repin_process(const struct sysroot *r, pid_t pid,
		  const struct cpuset *cpus, struct pin_repin *res, char *err,
		  size_t errlen)
{
	struct repin_run rr = {
		.pid = pid, .cpus = cpus, .seen = CPUSET_INIT,
		.confirmed = CPUSET_INIT, .res = res, .err = err,
		.errlen = errlen,
	};
	struct repin_state st;
	struct repin_pass p;
	long pause_ms;
	int last = cpuset_last(cpus), ret;

	res->threads = res->set = res->passes = 0;
	res->bad_tid = 0;
	memset(&st, 0, sizeof(st));
	ret = rawmasks_size(&rr.masks, cpus, last < 1024 ? 1024 :
			    (size_t)last + 1);
	if (ret == 0)
		ret = open_tasks(&rr, r);
	while (ret == 0) {
		ret = repin_pass(&rr, st.passes == 0, &p);
		if (ret < 0)
			break;
		res->passes++;
		switch (repin_next(&st, &p, &pause_ms)) {
		case REPIN_DONE:
			goto out;
		case REPIN_AGAIN:
			if (pause_ms > 0) {
				struct timespec ts = { 0, pause_ms * 1000000L };

				nanosleep(&ts, NULL);
			}
			break;
		case REPIN_CHANGING:
			snprintf(err, errlen, "the threads of process %d keep "
				 "changing their affinity", (int)pid);
			ret = -EAGAIN;
			break;
		case REPIN_UNSURE:
			snprintf(err, errlen, "process %d keeps starting threads "
				 "that exit before they can be read: some may "
				 "still run on other CPUs", (int)pid);
			ret = -EAGAIN;
			break;
		}
	}
out:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rr.dir)
		closedir(rr.dir);
	free(rr.tids);
	rawmasks_free(&rr.masks);
	cpuset_free(&rr.seen);
	cpuset_free(&rr.confirmed);
	return ret;
}
