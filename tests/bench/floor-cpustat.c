// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor-cpustat DIR: the least work a throttling report over the cgroup
 * tree under DIR can do -- walk it with openat() and read every cpu.stat
 * once, with one read(2) into one buffer, summing nr_throttled so that
 * nothing is optimised away.  A benchmark floor, not a tool.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[4096];
static unsigned long groups, throttled;

static void
walk(int dfd)
{
	int fd = openat(dfd, "cpu.stat", O_RDONLY | O_CLOEXEC);
	DIR *d;
	struct dirent *e;

	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		char *p;

		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			groups++;
			p = strstr(buf, "nr_throttled ");
			if (p)
				throttled += strtoul(p + 13, NULL, 10);
		}
	}
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((e = readdir(d))) {
		int sub;

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sub >= 0)
			walk(sub);
	}
	closedir(d);
}

int
main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: floor-cpustat DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	walk(fd);
	printf("groups %lu nr_throttled %lu\n", groups, throttled);
	return 0;
}
