/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Re-pinning every thread of a running process, and knowing when it is
 * done.
 *
 * Terminology:
 *   pass         one listing of /proc/PID/task and a visit to every
 *                thread listed.
 *   confirmed    a thread read back on the new CPUs.  The kernel changes
 *                a thread's affinity only when asked, so from then on
 *                every thread it creates inherits the new CPUs.
 *   unsure       a thread listed but gone before it could be read, and
 *                never confirmed: it may have handed the old CPUs to a
 *                thread not listed yet.
 *   quiet        a pass that set nothing and found no unsure thread.
 *
 * Why a quiet pass is enough: a thread on the old CPUs can only be made
 * by a thread on the old CPUs.  In a quiet pass every listed thread was
 * confirmed, so none of the threads alive when the listing was made was
 * on the old CPUs (nobody else changed them back), and none can ever be
 * made again.  The one gap is a clone(2) under way while the listing was
 * made, whose thread shows in /proc only when it completes: so a quiet
 * pass counts only after a pause (1 ms), and for a process seen creating
 * threads three must follow each other, after 1, 4 and 16 ms.
 */
#ifndef CPM_REPIN_H
#define CPM_REPIN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "machine/sysroot.h"

/* Passes before giving up on a process that does not settle. */
#define REPIN_MAX_PASSES 1000

/* The result of re-pinning a process's threads. */
struct pin_repin {
	unsigned int threads;	/* distinct threads seen */
	unsigned int set;	/* affinities set (a thread may count twice) */
	unsigned int passes;	/* passes over /proc/PID/task */
	pid_t bad_tid;		/* on -EDOM: the thread */
	struct cpuset got;	/* on -EDOM: what it has instead */
};

/*
 * Give every thread of process pid the affinity cpus, passing over
 * /proc/PID/task until a pass is quiet (see above).  The first pass only
 * sets; later passes read each thread, and set and read back the ones
 * that differ.  res->got must be initialised.  Returns 0, -ESRCH (the
 * process is gone), -EDOM (a thread read back a different affinity:
 * res->bad_tid, res->got), -EAGAIN (after REPIN_MAX_PASSES passes the
 * threads still change, or threads keep exiting before they can be read,
 * so that some may still be on the old CPUs) or another -errno from the
 * kernel; err explains.
 */
int pin_repin_process(const struct sysroot *r, pid_t pid,
		      const struct cpuset *cpus, struct pin_repin *res,
		      char *err, size_t errlen);

/* ---- the rule that decides when to stop, on its own for tests ---- */

/* What one pass found. */
struct repin_pass {
	unsigned int set;	/* affinities set */
	unsigned int unsure;	/* threads gone unread, never confirmed */
	bool new_threads;	/* threads no earlier pass listed */
};

/* Where re-pinning stands; zero it before the first pass. */
struct repin_state {
	unsigned int passes;	/* passes done */
	unsigned int quiet;	/* quiet passes in a row, each after a pause */
	bool paused;		/* a pause came before the pass just done */
	bool churn;		/* the process was seen creating threads */
};

enum repin_action {
	REPIN_DONE,		/* every thread is on the new CPUs */
	REPIN_AGAIN,		/* pass again, after *pause_ms (0: at once) */
	REPIN_CHANGING,		/* give up: the threads keep changing */
	REPIN_UNSURE,		/* give up: threads keep exiting unread */
};

/*
 * After a pass with result p, counted in st: what to do next, and the
 * pause in milliseconds before the next pass.
 */
enum repin_action repin_next(struct repin_state *st,
			     const struct repin_pass *p, long *pause_ms);

#endif
