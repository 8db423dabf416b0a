// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor-topo ROOT: the least work cpm-topo's summary can do on the sysfs
 * tree under ROOT.  It reads each file the summary needs exactly once --
 * the CPU lists; one package, die and thread-siblings list per group, not
 * per CPU; each L3's id, CPU list and size; each node's CPU list, meminfo
 * and distances -- with one read(2) into one buffer, and prints a few
 * counts so that nothing is optimised away.  A benchmark floor, not a tool.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#define MAXCPU 8192

static char buf[65536];
static int rootfd;
static unsigned char seen_core[MAXCPU], seen_pkg[MAXCPU], seen_die[MAXCPU],
	seen_l3[MAXCPU], online[MAXCPU];
static unsigned long bytes, files;

static int
slurp(const char *path)
{
	int fd = openat(rootfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	bytes += n;
	files++;
	return 0;
}

/* Parse buf as a cpulist and mark every CPU in it in map. */
static int
mark(unsigned char *map)
{
	char *p = buf;
	int count = 0;

	while (*p >= '0' && *p <= '9') {
		long a = strtol(p, &p, 10), b = a;

		if (*p == '-')
			b = strtol(p + 1, &p, 10);
		for (; a <= b && a < MAXCPU; a++, count++)
			map[a] = 1;
		if (*p == ',')
			p++;
	}
	return count;
}

int
main(int argc, char **argv)
{
	static const char *lists[] = { "possible", "present", "offline", "isolated" };
	char path[512];
	int cores = 0, pkgs = 0, dies = 0, l3s = 0, nodes = 0, cpu, i;
	DIR *d;
	struct dirent *e;

	if (argc != 2) {
		fprintf(stderr, "usage: floor-topo ROOT\n");
		return 2;
	}
	rootfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "sys/devices/system/cpu/%s", lists[i]);
		slurp(path);
	}
	if (slurp("sys/devices/system/cpu/online") == 0)
		mark(online);
	for (cpu = 0; cpu < MAXCPU; cpu++) {
		if (!online[cpu])
			continue;
		if (!seen_core[cpu]) {
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
			if (slurp(path) == 0 && mark(seen_core))
				cores++;
		}
		if (!seen_pkg[cpu]) {
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
			slurp(path);
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/topology/package_cpus_list", cpu);
			if (slurp(path) == 0 && mark(seen_pkg))
				pkgs++;
		}
		if (!seen_die[cpu]) {
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/topology/die_cpus_list", cpu);
			if (slurp(path) == 0 && mark(seen_die))
				dies++;
			else
				seen_die[cpu] = 1;
		}
		if (!seen_l3[cpu]) {
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", cpu);
			if (slurp(path) == 0 && mark(seen_l3)) {
				l3s++;
				snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cache/index3/id", cpu);
				slurp(path);
				snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cache/index3/size", cpu);
				slurp(path);
			} else {
				seen_l3[cpu] = 1;
			}
		}
	}
	d = fdopendir(openat(rootfd, "sys/devices/system/node", O_RDONLY | O_DIRECTORY));
	while (d && (e = readdir(d))) {
		static const char *nf[] = { "cpulist", "meminfo", "distance" };

		if (strncmp(e->d_name, "node", 4) || e->d_name[4] < '0' || e->d_name[4] > '9')
			continue;
		nodes++;
		for (i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "sys/devices/system/node/%s/%s", e->d_name, nf[i]);
			slurp(path);
		}
	}
	if (d)
		closedir(d);
	slurp("proc/self/status");
	slurp("proc/self/cgroup");
	printf("files %lu bytes %lu cores %d packages %d dies %d l3 %d nodes %d\n",
	       files, bytes, cores, pkgs, dies, l3s, nodes);
	return 0;
}
