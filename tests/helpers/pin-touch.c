// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pin-touch [MIB]: allocate MIB mebibytes (default 4) in one anonymous
 * mapping, write to every page so the pages exist, print "ready" and the
 * mapping's address on stdout, then wait until killed, so that
 * /proc/PID/numa_maps shows where the pages are and under which policy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 4;
	size_t len = mib << 20;
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	size_t i;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < len; i += (size_t)page)
		p[i] = 1;
	printf("ready %lx\n", (unsigned long)p);
	fflush(stdout);
	for (;;)
		pause();
}
