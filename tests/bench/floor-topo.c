// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor-topo ROOT: the least work cpm-topo's summary can do on the sysfs
 * tree under ROOT.  It reads each file the summary needs exactly once --
 * the CPU lists; one package, die and thread-siblings list per group, not
 * per CPU; each L3's id, CPU list and size; each node's CPU list, meminfo
 * and distances; what tells core types apart (the PMU CPU lists,
 * /proc/cpuinfo's first record, or all of it on ARM, cpu_capacity or
 * cpufreq) -- with one read(2) into one buffer, and prints a few counts
 * so that nothing is optimised away.
 * Where a tree lacks a file (old kernels: no online list, hex masks
 * instead of *_list files, core_siblings instead of package_cpus), it
 * reads what stands in for it, as the summary must, and remembers which
 * name answered.  A benchmark floor, not a tool.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#define MAXCPU 8192

static char buf[1 << 20];
static int rootfd;
static unsigned char seen_core[MAXCPU], seen_pkg[MAXCPU], seen_die[MAXCPU],
	seen_l3[MAXCPU], online[MAXCPU];
static unsigned long bytes, files;

/* Read path into buf: its first size-1 bytes at most in one read(2),
 * or (all) the rest too, as procfs hands over a page at a time
 * (/proc/cpuinfo). */
static int
rd(const char *path, size_t size, int all)
{
	int fd = openat(rootfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	if (all && n > 4096) {
		ssize_t m;

		while (n < (ssize_t)size - 1 &&
		       (m = read(fd, buf + n, size - 1 - (size_t)n)) > 0)
			n += m;
	}
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	bytes += n;
	files++;
	return 0;
}

static int
slurp(const char *path)
{
	return rd(path, sizeof(buf), 1);
}

/* The first size-1 bytes of path at most, in one read(2). */
static int
head(const char *path, size_t size)
{
	return rd(path, size, 0);
}

static int
hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	       c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Parse buf as a hex cpumask and mark every CPU in it in map. */
static int
mark_mask(unsigned char *map)
{
	size_t len = strlen(buf);
	int bit = 0, count = 0, v, k;

	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	while (len > 0) {
		/* Masks are NR_CPUS wide: zero words pass at once. */
		if (len >= 9 && memcmp(buf + len - 9, ",00000000", 9) == 0) {
			len -= 9;
			bit += 32;
			continue;
		}
		len--;
		if (buf[len] == ',')
			continue;
		v = hex(buf[len]);
		for (k = 0; v > 0 && k < 4; k++)
			if (v >> k & 1 && bit + k < MAXCPU) {
				map[bit + k] = 1;
				count++;
			}
		bit += 4;
	}
	return count;
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

/*
 * Read the first of names[] (cpulists, or hex masks where the name has
 * no "list") in cpu's directory that exists, the one that answered last
 * time first, and mark its CPUs in map.  Returns the count, or 0.
 */
static int
group(int cpu, const char *const *names, int n, int *pref, unsigned char *map)
{
	char path[512];
	int i;

	for (i = 0; i < n; i++) {
		int k = (*pref + i) % n;

		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/%s",
			 cpu, names[k]);
		if (slurp(path) == 0) {
			*pref = k;
			return strstr(names[k], "list") ? mark(map) : mark_mask(map);
		}
	}
	return 0;
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
	if (slurp("sys/devices/system/cpu/online") == 0) {
		mark(online);
	} else {
		/* Old trees: each cpuN that has no "online" file or a 1. */
		d = fdopendir(openat(rootfd, "sys/devices/system/cpu", O_RDONLY | O_DIRECTORY));
		while (d && (e = readdir(d))) {
			if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' || e->d_name[3] > '9')
				continue;
			cpu = atoi(e->d_name + 3);
			snprintf(path, sizeof(path), "sys/devices/system/cpu/%s/online", e->d_name);
			if (cpu < MAXCPU && (slurp(path) < 0 || buf[0] != '0'))
				online[cpu] = 1;
		}
		if (d)
			closedir(d);
	}
	for (cpu = 0; cpu < MAXCPU; cpu++) {
		static const char *const core_names[] = {
			"topology/thread_siblings_list", "topology/thread_siblings" };
		static const char *const pkg_names[] = {
			"topology/package_cpus_list", "topology/core_siblings_list",
			"topology/package_cpus", "topology/core_siblings" };
		static const char *const die_names[] = {
			"topology/die_cpus_list", "topology/die_cpus" };
		static const char *const l3_names[] = {
			"cache/index3/shared_cpu_list", "cache/index3/shared_cpu_map" };
		static int core_pref, pkg_pref, die_pref, l3_pref;

		if (!online[cpu])
			continue;
		if (!seen_core[cpu] && group(cpu, core_names, 2, &core_pref, seen_core))
			cores++;
		if (!seen_pkg[cpu]) {
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
			slurp(path);
			if (group(cpu, pkg_names, 4, &pkg_pref, seen_pkg))
				pkgs++;
		}
		if (!seen_die[cpu]) {
			if (group(cpu, die_names, 2, &die_pref, seen_die))
				dies++;
			else
				seen_die[cpu] = 1;
		}
		if (!seen_l3[cpu]) {
			if (group(cpu, l3_names, 2, &l3_pref, seen_l3)) {
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
			if (slurp(path) < 0 && i == 0) {
				snprintf(path, sizeof(path), "sys/devices/system/node/%s/cpumap", e->d_name);
				slurp(path);
			}
		}
	}
	if (d)
		closedir(d);
	/*
	 * Core types: the PMU lists (Intel), the MIDR parts of cpuinfo
	 * (ARM), else each CPU's capacity, else its frequencies; a file the
	 * first CPU lacks is not looked for on the others.
	 */
	for (i = 0; i < 3; i++) {
		static const char *pmu[] = { "cpu_core", "cpu_atom", "cpu_lowpower" };

		snprintf(path, sizeof(path), "sys/devices/%s/cpus", pmu[i]);
		slurp(path);
	}
	/* cpuinfo's first record tells ARM ("CPU part") from the rest;
	 * only an ARM machine's is read whole. */
	if (head("proc/cpuinfo", 4096) == 0) {
		char *end = strstr(buf, "\n\n");

		if (end)
			*end = '\0';
		if (strstr(buf, "CPU part"))
			slurp("proc/cpuinfo");
	}
	for (i = 0; i < 3; i++) {
		static const char *per_cpu[] = { "cpu_capacity",
			"cpufreq/cpuinfo_max_freq", "cpufreq/base_frequency" };

		for (cpu = 0; cpu < MAXCPU; cpu++) {
			if (!online[cpu])
				continue;
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/%s", cpu, per_cpu[i]);
			if (slurp(path) < 0)
				break;
		}
		if (i == 0 && cpu == MAXCPU)
			break;	/* capacities known: no frequencies needed */
	}
	slurp("proc/self/status");
	slurp("proc/self/cgroup");
	printf("files %lu bytes %lu cores %d packages %d dies %d l3 %d nodes %d\n",
	       files, bytes, cores, pkgs, dies, l3s, nodes);
	return 0;
}
