// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pin-spawner [CHAINS [LONG [USEC]]]: a process that never stops making
 * threads.
 *
 * CHAINS threads (default 4) each live USEC microseconds (default 0: just
 * a yield), start their successor and exit, so the set of thread ids
 * changes all the time and every new thread is created by a thread that
 * may not yet have been re-pinned.  LONG further threads (default 3) just sleep.  Prints
 * "ready" on stdout once everything runs, then runs until killed.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void *chain(void *arg);
static long usec;

static void
start(void *(*fn)(void *))
{
	pthread_attr_t a;
	pthread_t t;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	while (pthread_create(&t, &a, fn, NULL) != 0)
		usleep(100);
	pthread_attr_destroy(&a);
}

static void *
chain(void *arg)
{
	struct timespec ts = { usec / 1000000, usec % 1000000 * 1000 };

	(void)arg;
	if (usec > 0)
		nanosleep(&ts, NULL);
	else
		sched_yield();
	start(chain);
	return NULL;
}

static void *
sleeper(void *arg)
{
	(void)arg;
	/* Named, so tests can find the long-lived threads. */
	pthread_setname_np(pthread_self(), "pin-sleeper");
	for (;;)
		pause();
	return NULL;
}

int
main(int argc, char **argv)
{
	int chains = argc > 1 ? atoi(argv[1]) : 4;
	int longs = argc > 2 ? atoi(argv[2]) : 3;
	int i;

	usec = argc > 3 ? atol(argv[3]) : 0;
	for (i = 0; i < longs; i++)
		start(sleeper);
	for (i = 0; i < chains; i++)
		start(chain);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
