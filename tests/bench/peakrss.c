// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * peakrss COMMAND [ARG...]: run COMMAND with its output discarded and
 * print its peak resident set size in KiB (getrusage's ru_maxrss of the
 * child), its user and system CPU time in microseconds and its page
 * faults (minor and major: each a first touch of a page).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: peakrss COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 1;
	}
	printf("%ld %ld %ld %ld\n", ru.ru_maxrss,
	       ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec,
	       ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec,
	       ru.ru_minflt + ru.ru_majflt);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
