// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * costs: what two things every command pays for cost on this machine,
 * printed as "FAULT_US SYSCALL_US": the first write to a fresh page of
 * memory (a page fault; the median over rounds of 256 pages, each round
 * in a new mapping) and one system call (getppid, the median over rounds
 * of 20,000).  A short-lived tool's time beyond its floor is mostly
 * these two, counted: RESULTS.md puts the faults of each command beside
 * its peak memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 9
#define PAGES 256
#define CALLS 20000

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(void)
{
	double fault[ROUNDS], call[ROUNDS];
	long page = sysconf(_SC_PAGESIZE);

	for (int r = 0; r < ROUNDS; r++) {
		size_t size = (size_t)page * PAGES;
		volatile char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		double t0, t1;

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		t0 = now_us();
		for (size_t i = 0; i < PAGES; i++)
			p[i * (size_t)page] = 1;
		t1 = now_us();
		fault[r] = (t1 - t0) / PAGES;
		munmap((void *)p, size);
		t0 = now_us();
		for (int i = 0; i < CALLS; i++)
			syscall(SYS_getppid);
		t1 = now_us();
		call[r] = (t1 - t0) / CALLS;
	}
	qsort(fault, ROUNDS, sizeof(double), cmp_double);
	qsort(call, ROUNDS, sizeof(double), cmp_double);
	printf("%.2f %.2f\n", fault[ROUNDS / 2], call[ROUNDS / 2]);
	return 0;
}
