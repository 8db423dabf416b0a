// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kill-after MAX_US COMMAND [ARG...]: run COMMAND and send it SIGKILL
 * after a random delay of 0 to MAX_US microseconds, to test what a crash
 * at an arbitrary instant leaves behind.  Exit status: 0 when the
 * command was killed, 1 when it finished first (its output is discarded),
 * 2 on a usage or system error.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

int
main(int argc, char **argv)
{
	struct timespec ts;
	long max, delay;
	pid_t pid;
	int status;

	if (argc < 3 || (max = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: kill-after MAX_US COMMAND [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	srandom((unsigned int)(ts.tv_nsec ^ getpid()));
	delay = random() % (max + 1);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	ts.tv_sec = delay / 1000000;
	ts.tv_nsec = (delay % 1000000) * 1000;
	nanosleep(&ts, NULL);
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) < 0)
		return 2;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? 0 : 1;
}
