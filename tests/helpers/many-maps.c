// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * many-maps FILE COUNT: map the first page of FILE COUNT times, each a
 * mapping of its own (read-only and writable in turn, so that no two
 * neighbours merge), and read each page, so that /proc/self/numa_maps
 * holds COUNT lines naming FILE; then say "ready" and wait.  With a
 * long FILE path a few thousand mappings make numa_maps tens of MiB.
 * Exits by itself after 120 seconds so that a killed test leaves
 * nothing behind.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	volatile unsigned long sum = 0;
	long page = sysconf(_SC_PAGESIZE), i, count;
	int fd;

	if (argc != 3 || (count = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: many-maps FILE COUNT\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY)) < 0) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < count; i++) {
		int prot = i % 2 ? PROT_READ | PROT_WRITE : PROT_READ;
		unsigned char *p = mmap(NULL, (size_t)page, prot, MAP_PRIVATE,
					fd, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		sum += p[0];
	}
	printf("ready %ld\n", count);
	fflush(stdout);
	alarm(120);
	for (;;)
		pause();
}
