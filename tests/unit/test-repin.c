// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/pin/repin.c: when re-pinning a process's threads may stop (the rule on
 * its own, pass by pass), then this process's own threads re-pinned on
 * the live kernel, read back with sched_getaffinity() directly.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pin/pin.h"
#include "pin/repin.h"
#include "unit.h"

/* ---- the stopping rule ---- */

static enum repin_action
step(struct repin_state *st, unsigned int set, unsigned int unsure,
     bool new_threads, long *pause)
{
	struct repin_pass p = { set, unsure, new_threads };

	return repin_next(st, &p, pause);
}

static void
test_rule(void)
{
	struct repin_state st;
	enum repin_action a;
	long pause;
	int i;

	memset(&st, 0, sizeof(st));
	a = step(&st, 5, 0, true, &pause);
	CHECK("the first pass sets, then pauses 1 ms",
	      a == REPIN_AGAIN && pause == 1);
	a = step(&st, 0, 0, false, &pause);
	CHECK("a quiet pass after that pause ends a quiet process",
	      a == REPIN_DONE && st.passes == 2);

	memset(&st, 0, sizeof(st));
	step(&st, 5, 0, true, &pause);
	a = step(&st, 1, 0, false, &pause);
	CHECK("a pass that set a thread goes again at once",
	      a == REPIN_AGAIN && pause == 0);
	a = step(&st, 0, 0, false, &pause);
	CHECK("a quiet pass without a pause before it does not count",
	      a == REPIN_AGAIN && pause == 1);
	a = step(&st, 0, 0, false, &pause);
	CHECK("the next, after the pause, does", a == REPIN_DONE);

	memset(&st, 0, sizeof(st));
	step(&st, 5, 0, true, &pause);
	a = step(&st, 0, 1, false, &pause);
	CHECK("a thread gone unread and never confirmed is not quiet",
	      a == REPIN_AGAIN && st.quiet == 0);
	for (i = 0; i < REPIN_MAX_PASSES - 3 && a == REPIN_AGAIN; i++)
		a = step(&st, 0, 1, false, &pause);
	CHECK("nor after hundreds of passes", a == REPIN_AGAIN &&
	      st.passes == REPIN_MAX_PASSES - 1);
	a = step(&st, 0, 1, false, &pause);
	CHECK("at the cap it gives up and says threads may be left",
	      a == REPIN_UNSURE);

	memset(&st, 0, sizeof(st));
	for (i = 0, a = REPIN_AGAIN; i < REPIN_MAX_PASSES && a == REPIN_AGAIN;
	     i++)
		a = step(&st, 1, 0, false, &pause);
	CHECK("threads that keep changing give up at the cap",
	      a == REPIN_CHANGING && st.passes == REPIN_MAX_PASSES);

	memset(&st, 0, sizeof(st));
	step(&st, 5, 0, true, &pause);
	a = step(&st, 0, 0, true, &pause);
	CHECK("a process seen making threads needs more quiet passes",
	      a == REPIN_AGAIN && st.churn && pause == 4);
	a = step(&st, 0, 0, true, &pause);
	CHECK("after 1, 4", a == REPIN_AGAIN && pause == 16);
	a = step(&st, 0, 0, true, &pause);
	CHECK("and 16 ms", a == REPIN_DONE);
}

/* ---- this process's threads ---- */

static atomic_int stop;
static atomic_long chain_usec;

static void *
sleeper(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop))
		usleep(1000);
	return NULL;
}

/* Short-lived threads that each start the next one, until stop. */
static void *
chain(void *arg)
{
	long us = atomic_load(&chain_usec);
	pthread_attr_t a;
	pthread_t t;

	(void)arg;
	if (us > 0)
		usleep((useconds_t)us);
	else
		sched_yield();
	if (atomic_load(&stop))
		return NULL;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	while (pthread_create(&t, &a, chain, NULL) != 0)
		usleep(100);
	pthread_attr_destroy(&a);
	return NULL;
}

/* Every thread of this process has the affinity want (tid: one that has
 * not, or 0). */
static bool
all_on(const struct cpuset *want, pid_t *tid)
{
	struct cpuset got = CPUSET_INIT;
	struct dirent *de;
	bool all = true;
	DIR *d = opendir("/proc/self/task");

	*tid = 0;
	if (d == NULL)
		return false;
	while ((de = readdir(d)) != NULL && all) {
		pid_t t = (pid_t)atoi(de->d_name);

		if (t > 0 && pin_get_affinity(t, &got) == 0 &&
		    !cpuset_equal(&got, want)) {
			all = false;
			*tid = t;
		}
	}
	closedir(d);
	cpuset_free(&got);
	return all;
}

static void
test_live(void)
{
	struct cpuset old = CPUSET_INIT, one = CPUSET_INIT;
	struct pin_repin res;
	struct sysroot live;
	pthread_t sl[8], ch[4];
	char err[512];
	pid_t bad;
	int i, r, k;
	bool fine;

	if (sysroot_open(&live, "/") < 0 || pin_get_affinity(0, &old) < 0 ||
	    cpuset_count(&old) < 2) {
		printf("skip - live: needs 2 CPUs in this process's affinity\n");
		return;
	}
	cpuset_init(&res.got);
	for (i = 0; i < 8; i++)
		pthread_create(&sl[i], NULL, sleeper, NULL);
	cpuset_set(&one, (unsigned int)cpuset_last(&old));
	r = pin_repin_process(&live, getpid(), &one, &res, err, sizeof(err));
	CHECK_STR("live: nine threads re-pinned", r == 0 ? "" : err, "");
	CHECK("live: in two passes, each thread set once",
	      res.threads == 9 && res.set == 9 && res.passes == 2);
	CHECK("live: the kernel agrees for every thread", all_on(&one, &bad));
	r = pin_repin_process(&live, getpid(), &old, &res, err, sizeof(err));
	CHECK("live: and back", r == 0 && all_on(&old, &bad));

	/* Chains of threads that live 2 ms: each is read before it goes. */
	atomic_store(&chain_usec, 2000);
	for (i = 0; i < 4; i++)
		pthread_create(&ch[i], NULL, chain, NULL);
	r = pin_repin_process(&live, getpid(), &one, &res, err, sizeof(err));
	CHECK_STR("live: a process making threads is re-pinned",
		  r == 0 ? "" : err, "");
	for (k = 0, fine = true; k < 5 && fine; k++) {
		fine = all_on(&one, &bad);
		usleep(3000);
	}
	CHECK("live: and its new threads keep the new CPUs", fine);
	r = pin_repin_process(&live, getpid(), &old, &res, err, sizeof(err));
	CHECK("live: and back", r == 0);

	/*
	 * Threads that live a yield: most leave before they can be read.
	 * Done means done; otherwise the message says what may be left.
	 */
	atomic_store(&chain_usec, 0);
	for (k = 0; k < 3; k++) {
		r = pin_repin_process(&live, getpid(), k % 2 ? &old : &one,
				      &res, err, sizeof(err));
		fine = r == 0 ? all_on(k % 2 ? &old : &one, &bad) :
		       r == -EAGAIN && strstr(err, "some may still run on "
					       "other CPUs") != NULL;
		if (!fine)
			break;
	}
	CHECK_STR("live: with threads that exit unread, success is never "
		  "claimed wrongly", fine ? "" : r == 0 ? "done with a thread "
		  "left" : err, "");
	atomic_store(&stop, 1);
	for (i = 0; i < 8; i++)
		pthread_join(sl[i], NULL);
	for (i = 0; i < 4; i++)
		pthread_join(ch[i], NULL);
	usleep(20000);	/* the last links of the chains */
	pin_set_affinity(0, &old);
	cpuset_free(&res.got);
	cpuset_free(&old);
	cpuset_free(&one);
	sysroot_close(&live);
}

int
main(void)
{
	test_rule();
	test_live();
	return unit_failed;
}
