/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memtouch [-w] MB: map MB mebibytes of anonymous memory, touch every page
 * and print where the kernel put them: the line of /proc/self/numa_maps
 * for the mapping, reduced to its policy and "N<node>=<pages>" fields,
 * e.g. "bind:1 N1=4096".  With -w it then waits: each SIGUSR1 prints the
 * line again (after a page migration, say), SIGTERM ends it.  Used by the
 * tests that run inside the VM to see the memory policy cpm-pin set.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t again, done;

static void
on_usr1(int sig)
{
	again = 1;
}

static void
on_term(int sig)
{
	done = 1;
}

/* Print the numa_maps fields of the mapping that starts at addr. */
static int
report(void *addr)
{
	char key[32], line[4096], *tok, *save;
	FILE *f;
	int found = 0;

	snprintf(key, sizeof(key), "%lx ", (unsigned long)addr);
	if ((f = fopen("/proc/self/numa_maps", "r")) == NULL) {
		perror("memtouch: /proc/self/numa_maps");
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, strlen(key)) != 0)
			continue;
		found = 1;
		line[strcspn(line, "\n")] = '\0';
		tok = strtok_r(line + strlen(key), " ", &save);
		printf("%s", tok != NULL ? tok : "?");
		while ((tok = strtok_r(NULL, " ", &save)) != NULL)
			if (tok[0] == 'N' && tok[1] >= '0' && tok[1] <= '9')
				printf(" %s", tok);
		printf("\n");
	}
	fclose(f);
	fflush(stdout);
	if (!found)
		fprintf(stderr, "memtouch: mapping %p not in numa_maps\n", addr);
	return found ? 0 : -1;
}

int
main(int argc, char **argv)
{
	int wait = 0;
	size_t len, off, page = (size_t)sysconf(_SC_PAGESIZE);
	sigset_t set, old;
	char *p;

	if (argc > 1 && strcmp(argv[1], "-w") == 0) {
		wait = 1;
		argc--, argv++;
	}
	if (argc != 2 || atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: memtouch [-w] MB\n");
		return 2;
	}
	len = (size_t)atoi(argv[1]) << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("memtouch: mmap");
		return 1;
	}
	/* Count base pages, whatever transparent huge pages would do. */
	madvise(p, len, MADV_NOHUGEPAGE);
	for (off = 0; off < len; off += page)
		p[off] = 1;
	/* Block the signals outside sigsuspend() so none is missed. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	signal(SIGUSR1, on_usr1);
	signal(SIGTERM, on_term);
	if (report(p) != 0)
		return 1;
	while (wait && !done) {
		sigsuspend(&old);
		if (again) {
			again = 0;
			report(p);
		}
	}
	return 0;
}
