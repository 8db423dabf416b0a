// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "view/dumpstd.h"

#define CPU_DIR "sys/devices/system/cpu"
#define NODE_DIR "sys/devices/system/node"

/* Files read as they are, where the kernel has them. */
static const char *const fixed[] = {
	CPU_DIR "/kernel_max", CPU_DIR "/possible", CPU_DIR "/present",
	CPU_DIR "/online", CPU_DIR "/offline", CPU_DIR "/isolated",
	CPU_DIR "/nohz_full", CPU_DIR "/smt/active", CPU_DIR "/smt/control",
	NODE_DIR "/possible", NODE_DIR "/online", NODE_DIR "/has_cpu",
	NODE_DIR "/has_memory", NODE_DIR "/has_normal_memory",
	"proc/cpuinfo", "proc/meminfo", "proc/stat",
};

/* Per CPU, below cpuN/. */
static const char *const per_cpu[] = {
	"online", "cpu_capacity", "cpufreq/cpuinfo_max_freq",
	"cpufreq/cpuinfo_min_freq", "cpufreq/base_frequency",
};

/* Per node, below nodeN/. */
static const char *const per_node[] = {
	"cpumap", "cpulist", "meminfo", "distance",
};

static void
add(struct strbuf *paths, const struct sysroot *root, const char *path)
{
	struct stat st;

	if (sysroot_stat(root, path, &st) == 0 && S_ISREG(st.st_mode)) {
		strbuf_puts(paths, path);
		strbuf_add(paths, "\n", 1);
	}
}

/* Every regular file (not a link) of the directory dir; with sub, the
 * regular files of its subdirectories whose names start with sub. */
static void
add_dir(struct strbuf *paths, const struct sysroot *root, const char *dir,
	const char *sub)
{
	int fd = sysroot_open_dir(root, dir);
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		char path[512];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(path))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (sub && S_ISDIR(st.st_mode) &&
		    strncmp(de->d_name, sub, strlen(sub)) == 0)
			add_dir(paths, root, path, NULL);
		else if (!sub && S_ISREG(st.st_mode))
			add(paths, root, path);
	}
	closedir(d);
}

int
dumpstd_paths(const struct sysroot *root, const struct topo *t,
	      struct strbuf *paths)
{
	char path[256];
	size_t i;
	int cpu, k;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add(paths, root, fixed[i]);
	cpuset_for_each(cpu, &t->possible) {
		for (i = 0; i < sizeof(per_cpu) / sizeof(per_cpu[0]); i++) {
			snprintf(path, sizeof(path), CPU_DIR "/cpu%d/%s", cpu,
				 per_cpu[i]);
			add(paths, root, path);
		}
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/topology", cpu);
		add_dir(paths, root, path, NULL);
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cache", cpu);
		add_dir(paths, root, path, "index");
	}
	for (k = 0; k < t->nnodes; k++)
		for (i = 0; i < sizeof(per_node) / sizeof(per_node[0]); i++) {
			snprintf(path, sizeof(path), NODE_DIR "/node%d/%s",
				 t->nodes[k].id, per_node[i]);
			add(paths, root, path);
		}
	return paths->oom ? -ENOMEM : 0;
}
