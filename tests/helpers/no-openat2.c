// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * no-openat2 [-e ERRNO] COMMAND [ARG...]: run COMMAND with openat2(2)
 * answering ENOSYS (or the errno given by number), as on a kernel before
 * 5.6 or under a container's seccomp profile, so that a test can compare
 * what cpm reads through its own walk with what it reads through the
 * kernel's RESOLVE_IN_ROOT.  A test helper, not a tool.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deny-openat2.h"

int
main(int argc, char **argv)
{
	unsigned int e = ENOSYS;
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "-e") == 0) {
		e = (unsigned int)atoi(argv[2]);
		i = 3;
	}
	if (i >= argc || e == 0 || e > 4095) {
		fprintf(stderr, "usage: no-openat2 [-e ERRNO] COMMAND [ARG...]\n");
		return 2;
	}
	if (deny_openat2(e) < 0) {
		perror("no-openat2: seccomp");
		return 2;
	}
	execvp(argv[i], argv + i);
	perror(argv[i]);
	return 127;
}
