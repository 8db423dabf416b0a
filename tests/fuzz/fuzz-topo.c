// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the topology loader over a whole sysroot tree.
 * A fixed two-node, four-CPU machine is written to a temporary directory
 * (as tests/gen-sysfs lays it out) and the input replaces some of its
 * files: it is cut at 0xff bytes, and each piece begins with one byte
 * that picks the file it becomes.  The loader must load or refuse with a
 * message, never crash; a loaded topology must be self-consistent.
 * Build and run: make fuzz && tests/fuzz/fuzz-topo -max_total_time=60
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/filewrite.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CPU "sys/devices/system/cpu/"
#define NODE "sys/devices/system/node/"

static const struct { const char *path, *text; } base[] = {
	{ CPU "possible", "0-3\n" }, { CPU "present", "0-3\n" },
	{ CPU "online", "0-3\n" }, { CPU "isolated", "\n" },
	{ CPU "kernel_max", "8191\n" },
	{ NODE "possible", "0-1\n" }, { NODE "online", "0-1\n" },
	{ NODE "has_memory", "0-1\n" }, { NODE "has_cpu", "0-1\n" },
	{ NODE "node0/cpulist", "0-1\n" }, { NODE "node1/cpulist", "2-3\n" },
	{ NODE "node0/distance", "10 20\n" }, { NODE "node1/distance", "20 10\n" },
	{ NODE "node0/meminfo", "Node 0 MemTotal:       16777216 kB\nNode 0 MemFree:        8388608 kB\n" },
	{ NODE "node1/meminfo", "Node 1 MemTotal:       16777216 kB\nNode 1 MemFree:        8388608 kB\n" },
	{ CPU "cpu0/topology/core_id", "0\n" }, { CPU "cpu1/topology/core_id", "1\n" },
	{ CPU "cpu2/topology/core_id", "0\n" }, { CPU "cpu3/topology/core_id", "1\n" },
	{ CPU "cpu0/topology/physical_package_id", "0\n" },
	{ CPU "cpu1/topology/physical_package_id", "0\n" },
	{ CPU "cpu2/topology/physical_package_id", "1\n" },
	{ CPU "cpu3/topology/physical_package_id", "1\n" },
	{ CPU "cpu0/topology/thread_siblings_list", "0\n" },
	{ CPU "cpu1/topology/thread_siblings_list", "1\n" },
	{ CPU "cpu2/topology/thread_siblings_list", "2\n" },
	{ CPU "cpu3/topology/thread_siblings_list", "3\n" },
	{ CPU "cpu0/topology/core_cpus_list", "0\n" },
	{ CPU "cpu1/topology/core_cpus_list", "1\n" },
	{ CPU "cpu2/topology/core_cpus_list", "2\n" },
	{ CPU "cpu3/topology/core_cpus_list", "3\n" },
	{ CPU "cpu0/cache/index3/shared_cpu_list", "0-1\n" },
	{ CPU "cpu1/cache/index3/shared_cpu_list", "0-1\n" },
	{ CPU "cpu2/cache/index3/shared_cpu_list", "2-3\n" },
	{ CPU "cpu3/cache/index3/shared_cpu_list", "2-3\n" },
	{ CPU "cpu0/cache/index3/level", "3\n" },
	{ CPU "cpu0/cache/index3/size", "32768K\n" },
	{ CPU "cpu0/cache/index3/id", "0\n" },
	{ CPU "cpu2/cache/index3/id", "1\n" },
	{ CPU "cpu1/online", "1\n" }, { CPU "cpu2/online", "1\n" },
	{ CPU "cpu3/online", "1\n" },
	{ "proc/meminfo", "MemTotal:       33554432 kB\nMemFree:        16777216 kB\n" },
	{ "proc/self/status", "Cpus_allowed_list:\t0-3\nMems_allowed_list:\t0-1\n" },
};

static char dir[64];

static void
put(const char *path, const void *text, size_t len)
{
	char full[512], *slash;
	int fd;

	snprintf(full, sizeof(full), "%s/%s", dir, path);
	for (slash = strchr(full + strlen(dir) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		abort();
	if (write_all(fd, text, len) < 0)
		abort();
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sysroot root;
	struct topo t;
	char err[512];
	size_t i, start;

	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "/tmp/cpm-fuzz-topo.XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
	}
	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++)
		put(base[i].path, base[i].text, strlen(base[i].text));
	for (start = 0; start < size; ) {
		size_t end = start;

		while (end < size && data[end] != 0xff)
			end++;
		if (end > start)
			put(base[data[start] % (sizeof(base) / sizeof(base[0]))].path,
			    data + start + 1, end - start - 1);
		start = end + 1;
	}
	if (sysroot_open(&root, dir) < 0)
		abort();
	err[0] = '\0';
	if (topo_load(&t, &root, TOPO_PROCESS, err, sizeof(err)) == 0)
		topo_free(&t);
	else if (err[0] == '\0')
		abort();
	sysroot_close(&root);
	return 0;
}
