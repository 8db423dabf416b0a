// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor-cpustat [--limit] DIR: the least work a throttling report over
 * the cgroup tree under DIR can do -- walk it with openat() and read every
 * cpu.stat once, with one read(2) into one buffer, summing nr_throttled so
 * that nothing is optimised away.
 *
 * With --limit, the least work a report with a limit column can do: also
 * the files that tell a group's CPU limit (v2 cpu.max; v1
 * cpu.cfs_quota_us and, where the quota is not -1, cpu.cfs_period_us),
 * and, since that makes a group's files cost more than its directory, a
 * group without subgroups (its link count 2) is read from its parent as
 * "NAME/FILE" after one fstatat(), its directory neither opened nor
 * listed.  A benchmark floor, not a tool.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static char buf[4096];
static unsigned long groups, throttled, limited;
static int limit, v2;

/* One read(2) of dfd's file pre + name: its length, or -1. */
static ssize_t
slurp(int dfd, const char *pre, const char *name)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s%s", pre, name);
	fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The group whose files are dfd's pre + FILE. */
static void
group(int dfd, const char *pre)
{
	char *p;

	if (slurp(dfd, pre, "cpu.stat") <= 0)
		return;
	groups++;
	p = strstr(buf, "nr_throttled ");
	if (p)
		throttled += strtoul(p + 13, NULL, 10);
	if (!limit)
		return;
	if (v2)
		limited += slurp(dfd, pre, "cpu.max") > 0 &&
			   strncmp(buf, "max", 3) != 0;
	else if (slurp(dfd, pre, "cpu.cfs_quota_us") > 0 && buf[0] != '-' &&
		 slurp(dfd, pre, "cpu.cfs_period_us") > 0)
		limited++;
}

static void
walk(int dfd)
{
	DIR *d;
	struct dirent *e;

	group(dfd, "");
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((e = readdir(d))) {
		int sub;

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if (limit) {
			struct stat st;
			char pre[300];

			if (fstatat(dirfd(d), e->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			if (st.st_nlink == 2) {
				snprintf(pre, sizeof(pre), "%s/", e->d_name);
				group(dirfd(d), pre);
				continue;
			}
		}
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

	limit = argc == 3 && strcmp(argv[1], "--limit") == 0;
	if (argc != 2 + limit) {
		fprintf(stderr, "usage: floor-cpustat [--limit] DIR\n");
		return 2;
	}
	fd = open(argv[1 + limit], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1 + limit]);
		return 1;
	}
	/* every group of a v2 tree has it */
	v2 = faccessat(fd, "cgroup.controllers", F_OK, 0) == 0;
	walk(fd);
	printf("groups %lu nr_throttled %lu limited %lu\n", groups, throttled,
	       limited);
	return 0;
}
