// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the CPU topology from sysfs and procfs below a sysroot.
 *
 * Each needed file is read once: the sibling, package and cache lists are
 * read for the first CPU of each core, socket and cache group and applied
 * to all its members, so the cost grows with the number of CPUs, not with
 * its square.  Offline CPUs have no topology/ directory on most kernels;
 * their node still comes from the node cpulists.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "quantity.h"
#include "topo.h"

#define CPU_DIR  "sys/devices/system/cpu"
#define NODE_DIR "sys/devices/system/node"

struct loader {
	struct topo *t;
	const struct sysroot *root;
	char *err;
	size_t errlen;
	char path[4096];
	char buf[8192];
};

static int __attribute__((format(printf, 3, 4)))
fail(struct loader *ld, int code, const char *fmt, ...)
{
	va_list ap;

	if (ld->err && ld->errlen) {
		va_start(ap, fmt);
		vsnprintf(ld->err, ld->errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

/*
 * Read a small file into ld->buf.  Returns its length, -ENOENT when it is
 * missing (not an error for optional files), other -errno.
 */
static ssize_t
read_opt(struct loader *ld, const char *path)
{
	ssize_t n = sysroot_read(ld->root, path, ld->buf, sizeof(ld->buf));

	if (n == -EFBIG) {
		/* A long list on a huge machine: fall back to a full read. */
		char *big;
		size_t len;
		int r = sysroot_read_file(ld->root, path, &big, &len);

		if (r < 0)
			return r;
		free(big);
		return -EFBIG;
	}
	if (n >= 0 && memchr(ld->buf, '\0', (size_t)n) != NULL) {
		/*
		 * Some sysfs files hold a lone NUL byte for "nothing"; text
		 * after a NUL would be lost without a word: refused.
		 */
		size_t i, k = strlen(ld->buf);

		for (i = k; i < (size_t)n; i++)
			if (ld->buf[i] != '\0' && ld->buf[i] != '\n')
				return fail(ld, -EINVAL, "malformed %s: a NUL "
					    "byte inside its text", path);
		n = (ssize_t)k;
	}
	if (n == -EFTYPE_CPM)
		return fail(ld, -EINVAL, "%s is not a regular file", path);
	return n;
}

/*
 * Read a cpulist file into s.  Missing files give -ENOENT and leave s
 * empty; unparsable ones are reported.
 */
static int
read_list(struct loader *ld, const char *path, struct cpuset *s)
{
	char perr[128];
	char *text = NULL;
	ssize_t n;
	int r;

	cpuset_zero(s);
	n = read_opt(ld, path);
	if (n == -EFBIG) {
		r = sysroot_read_file(ld->root, path, &text, NULL);
		if (r < 0)
			return fail(ld, r, "cannot read %s", path);
	} else if (n < 0) {
		return (int)n;
	}
	r = cpuset_parse_list(text ? text : ld->buf, s, perr, sizeof(perr));
	free(text);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		char msg[400];

		snprintf(msg, sizeof(msg), "malformed %s: %s", path, perr);
		return fail(ld, -EINVAL, "%s", msg);
	}
	return 0;
}

/* Read a file holding one decimal number (possibly negative). */
static int
read_int(struct loader *ld, const char *path, int *out)
{
	int64_t v;
	ssize_t n = read_opt(ld, path);

	if (n < 0)
		return (int)n;
	if (parse_i64(strstrip(ld->buf), -1, 1 << 30, &v) < 0)
		return fail(ld, -EINVAL, "malformed %s", path);
	*out = (int)v;
	return 0;
}

/*
 * CPU_DIR/cpuN/a[b] into ld->path.  Built by hand, not with snprintf: it
 * runs a few times per core, and a large machine has thousands.
 */
static const char *
cpu_path2(struct loader *ld, int cpu, const char *a, const char *b)
{
	static const char dir[] = CPU_DIR "/cpu";
	char num[12], *p = ld->path, *end = ld->path + sizeof(ld->path) - 1;
	unsigned int v = (unsigned int)cpu;
	int n = 0;

	do
		num[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	memcpy(p, dir, sizeof(dir) - 1);
	p += sizeof(dir) - 1;
	while (n > 0)
		*p++ = num[--n];
	*p++ = '/';
	while (*a && p < end)
		*p++ = *a++;
	while (b && *b && p < end)
		*p++ = *b++;
	*p = '\0';
	return ld->path;
}

static const char *
cpu_path(struct loader *ld, int cpu, const char *file)
{
	return cpu_path2(ld, cpu, file, NULL);
}

/* The numeric suffix of "prefixNNN", or -1. */
static int
dir_number(const char *name, const char *prefix)
{
	unsigned int v;
	size_t pl = strlen(prefix);

	if (strncmp(name, prefix, pl) != 0)
		return -1;
	if (parse_uint(name + pl, CPUSET_MAX_CPUS - 1, &v) < 0)
		return -1;
	return (int)v;
}

/* Collect the numbers N of directory entries "prefixN" into s. */
static int
scan_dir(struct loader *ld, const char *dir, const char *prefix,
	 struct cpuset *s)
{
	DIR *d;
	struct dirent *de;
	int fd;

	cpuset_zero(s);
	fd = openat(ld->root->fd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d)) != NULL) {
		int n = dir_number(de->d_name, prefix);

		if (n >= 0 && cpuset_set(s, (unsigned int)n) < 0) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	return 0;
}

static int
load_cpu_lists(struct loader *ld)
{
	struct topo *t = ld->t;
	struct cpuset dirs = CPUSET_INIT;
	int r, c;

	r = scan_dir(ld, CPU_DIR, "cpu", &dirs);
	if (r == -ENOENT || r == -ENOTDIR) {
		cpuset_free(&dirs);
		return fail(ld, -ENOENT, "no CPU information in %s",
			    ld->root->path);
	}
	if (r < 0)
		goto out;
	r = read_list(ld, CPU_DIR "/possible", &t->possible);
	if (r == -ENOENT)
		r = cpuset_copy(&t->possible, &dirs);
	if (r < 0)
		goto out;
	if (cpuset_empty(&t->possible)) {
		r = fail(ld, -ENOENT, "no CPU information in %s",
			 ld->root->path);
		goto out;
	}
	r = read_list(ld, CPU_DIR "/present", &t->present);
	if (r == -ENOENT)
		r = cpuset_copy(&t->present, &t->possible);
	if (r < 0)
		goto out;
	r = read_list(ld, CPU_DIR "/online", &t->online);
	if (r == -ENOENT) {
		/* Old or partial trees: cpuN/online, absent means online. */
		r = 0;
		cpuset_for_each(c, &t->present) {
			int on = 1, e = 0;

			/* Some dumps hold an empty file: treat as unknown. */
			if (read_opt(ld, cpu_path(ld, c, "online")) > 0)
				e = read_int(ld, ld->path, &on);
			if (e < 0 && e != -ENOENT) {
				r = e;
				break;
			}
			if (on && cpuset_isset(&dirs, (unsigned int)c) &&
			    cpuset_set(&t->online, (unsigned int)c) < 0) {
				r = -ENOMEM;
				break;
			}
		}
	}
	if (r < 0)
		goto out;
	r = read_list(ld, CPU_DIR "/isolated", &t->isolated);
	if (r == -ENOENT)
		r = 0;
	if (r < 0)
		goto out;
	/*
	 * A list that reaches outside "possible" names CPUs that do not
	 * exist: the tree is inconsistent, and guessing which file is right
	 * would hand out CPUs that are not there.  Refused, naming it.
	 */
	{
		static const char *const names[] = { "present", "online",
						     "isolated" };
		const struct cpuset *lists[] = { &t->present, &t->online,
						 &t->isolated };
		size_t k;

		for (k = 0; k < 3; k++) {
			struct cpuset extra = CPUSET_INIT;
			char *l;

			if (cpuset_subset(lists[k], &t->possible))
				continue;
			if (cpuset_copy(&extra, lists[k]) < 0) {
				r = -ENOMEM;
				goto out;
			}
			cpuset_andnot(&extra, &t->possible);
			l = cpuset_to_list(&extra);
			cpuset_free(&extra);
			r = fail(ld, -EINVAL, "inconsistent %s/%s: CPUs %s are "
				 "not possible", CPU_DIR, names[k], l ? l : "?");
			free(l);
			goto out;
		}
	}
	r = cpuset_copy(&t->offline, &t->possible);
	if (r < 0)
		goto out;
	cpuset_andnot(&t->offline, &t->online);
out:
	cpuset_free(&dirs);
	return r;
}

/*
 * A sibling list of a CPU: "NAME_list" on current kernels, the hex mask
 * "NAME" on old ones.  -ENOENT when neither exists.
 */
static int
read_siblings(struct loader *ld, int cpu, const char *name, struct cpuset *s)
{
	char file[64];
	char *mask;
	int r;

	snprintf(file, sizeof(file), "topology/%s", name);
	r = read_list(ld, cpu_path2(ld, cpu, file, "_list"), s);
	if (r != -ENOENT)
		return r;
	r = sysroot_read_file(ld->root, cpu_path(ld, cpu, file), &mask, NULL);
	if (r < 0)
		return r;
	r = cpuset_parse_mask(mask, s);
	free(mask);
	if (r == -EINVAL)
		return fail(ld, r, "malformed %s", ld->path);
	return r;
}

/*
 * Read "topology/NAME" of cpu (optionally NAME_list) as a group: the CPUs
 * in the list that are online and not yet in seen, plus cpu itself, go
 * into grp and seen.  A missing file gives a group of cpu alone.
 * Returns 0, 1 when the file was missing, or -errno.
 */
static int
read_group(struct loader *ld, int cpu, const char *name, struct cpuset *seen,
	   struct cpuset *grp)
{
	int r = read_siblings(ld, cpu, name, grp);

	if (r < 0 && r != -ENOENT)
		return r;
	if (r == -ENOENT)
		cpuset_zero(grp);
	cpuset_and(grp, &ld->t->online);
	cpuset_andnot(grp, seen);
	if (cpuset_set(grp, (unsigned int)cpu) < 0 || cpuset_or(seen, grp) < 0)
		return -ENOMEM;
	return r == -ENOENT;
}

/*
 * Socket, die and core of each online CPU.  Lists are read once per
 * package, die and core and ids once per group, so a machine costs about
 * one file read per core, not several per CPU.  The package CPU list
 * decides which CPUs share a socket: some firmware repeats package ids
 * (ia64) or reports -1 (s390).  Old kernels have only hex masks, no
 * die_id and no *_list files: each has a fallback.
 */
static int
load_cpu_topology(struct loader *ld)
{
	struct topo *t = ld->t;
	struct cpuset core_seen = CPUSET_INIT, pkg_seen = CPUSET_INIT,
		      die_seen = CPUSET_INIT, grp = CPUSET_INIT, ids = CPUSET_INIT;
	int c, s, r = 0, *pkg_first;
	bool clash = false;

	pkg_first = malloc(((size_t)t->ncpus + 1) * sizeof(int));
	if (pkg_first == NULL)
		return -ENOMEM;
	for (c = 0; c < t->ncpus; c++)
		pkg_first[c] = -1;
	cpuset_for_each(c, &t->online) {
		int v, prev = -1, n;

		if (!cpuset_isset(&pkg_seen, (unsigned int)c)) {
			r = read_int(ld, cpu_path(ld, c, "topology/physical_package_id"), &v);
			if (r < 0 && r != -ENOENT)
				break;
			if (r == 0) {
				r = read_group(ld, c, "package_cpus", &pkg_seen, &grp);
				if (r == 1) {
					cpuset_andnot(&pkg_seen, &grp);
					r = read_group(ld, c, "core_siblings",
						       &pkg_seen, &grp);
				}
				if (r < 0)
					break;
				cpuset_for_each(s, &grp) {
					pkg_first[s] = c;
					t->cpus[s].socket = v;
				}
			}
			r = 0;
		}
		if (t->cpus[c].socket >= 0 || pkg_first[c] >= 0) {
			if (!cpuset_isset(&die_seen, (unsigned int)c)) {
				r = read_int(ld, cpu_path(ld, c, "topology/die_id"), &v);
				if (r == -ENOENT) {
					/* Before dies: one die per package. */
					v = 0;
					cpuset_copy(&grp, &t->online);
					cpuset_andnot(&grp, &die_seen);
					r = cpuset_or(&die_seen, &grp);
					cpuset_for_each(s, &grp)
						if (pkg_first[s] != pkg_first[c])
							cpuset_clear(&die_seen, (unsigned int)s);
				} else if (r == 0) {
					r = read_group(ld, c, "die_cpus", &die_seen, &grp);
				}
				if (r < 0)
					break;
				r = 0;
				cpuset_for_each(s, &grp)
					if (pkg_first[s] == pkg_first[c])
						t->cpus[s].die = v < 0 ? 0 : v;
			}
		}
		if (cpuset_isset(&core_seen, (unsigned int)c))
			continue;
		r = read_group(ld, c, "thread_siblings", &core_seen, &grp);
		if (r == 1) {
			cpuset_andnot(&core_seen, &grp);
			r = read_group(ld, c, "core_cpus", &core_seen, &grp);
		}
		if (r < 0)
			break;
		if (r == 1 && t->cpus[c].socket < 0 && pkg_first[c] < 0) {
			/* No topology at all for this CPU. */
			r = 0;
			cpuset_clear(&core_seen, (unsigned int)c);
			continue;
		}
		r = 0;
		n = (int)cpuset_count(&grp);
		cpuset_for_each(s, &grp) {
			t->cpus[s].core = c;
			t->cpus[s].nthreads = n;
			if (prev >= 0)
				t->cpus[prev].next_thread = s;
			prev = s;
		}
		if (n > t->threads_per_core)
			t->threads_per_core = n;
	}
	/*
	 * A socket's id is the package id of its first CPU, unless two
	 * packages claim the same id (or none): then every socket is named
	 * by its lowest CPU, so that ids stay unique.
	 */
	for (c = 0; r == 0 && c < t->ncpus; c++) {
		int id;

		if (pkg_first[c] != c)
			continue;
		id = t->cpus[c].socket;
		if (id < 0 || id >= CPUSET_MAX_CPUS * 64 ||
		    cpuset_isset(&ids, (unsigned int)id))
			clash = true;
		else if (cpuset_set(&ids, (unsigned int)id) < 0)
			r = -ENOMEM;
	}
	for (c = 0; r == 0 && c < t->ncpus; c++)
		if (pkg_first[c] >= 0)
			t->cpus[c].socket = clash ? pkg_first[c] :
					    t->cpus[pkg_first[c]].socket;
	free(pkg_first);
	cpuset_free(&core_seen);
	cpuset_free(&pkg_seen);
	cpuset_free(&die_seen);
	cpuset_free(&grp);
	cpuset_free(&ids);
	return r;
}

static int
cmp_node(const void *a, const void *b)
{
	return ((const struct topo_node *)a)->id - ((const struct topo_node *)b)->id;
}

void
topo_parse_meminfo(const char *text, struct topo_node *n)
{
	const char *p = text;

	while (p && *p) {
		const char *key = strstr(p, "Mem");
		long long v;

		if (key == NULL)
			break;
		if (sscanf(key, "MemTotal: %lld", &v) == 1)
			n->mem_total_kb = v;
		else if (sscanf(key, "MemFree: %lld", &v) == 1)
			n->mem_free_kb = v;
		p = strchr(key, '\n');
	}
}

static int
load_nodes(struct loader *ld)
{
	struct topo *t = ld->t;
	struct cpuset ids = CPUSET_INIT;
	int id, i = 0, r;

	r = scan_dir(ld, NODE_DIR, "node", &ids);
	if (r == -ENOENT || r == -ENOTDIR) {
		r = 0;		/* a kernel without NUMA: nodes unknown */
		goto out;
	}
	if (r < 0)
		goto out;
	t->nnodes = (int)cpuset_count(&ids);
	t->nodes = calloc((size_t)t->nnodes + 1, sizeof(*t->nodes));
	if (t->nodes == NULL) {
		r = -ENOMEM;
		goto out;
	}
	cpuset_for_each(id, &ids) {
		struct topo_node *n = &t->nodes[i++];
		char *text;
		int c;

		n->id = id;
		n->mem_total_kb = n->mem_free_kb = -1;
		snprintf(ld->path, sizeof(ld->path), NODE_DIR "/node%d/cpulist", id);
		r = read_list(ld, ld->path, &n->cpus);
		if (r == -ENOENT) {
			char *mask;

			snprintf(ld->path, sizeof(ld->path), NODE_DIR "/node%d/cpumap", id);
			r = sysroot_read_file(ld->root, ld->path, &mask, NULL);
			if (r == 0) {
				r = cpuset_parse_mask(mask, &n->cpus);
				free(mask);
				if (r == -EINVAL)
					r = fail(ld, r, "malformed %s", ld->path);
			} else if (r == -ENOENT) {
				r = 0;
			}
		}
		if (r < 0)
			goto out;
		cpuset_and(&n->cpus, &t->possible);
		cpuset_for_each(c, &n->cpus)
			if (t->cpus[c].node < 0)	/* overlapping lists: lowest node */
				t->cpus[c].node = id;
		/*
		 * One meaning in every view and selector: a node's CPUs are
		 * its online CPUs.  Kernels differ on whether an offline CPU
		 * stays in its node's cpulist; it keeps its node (cpus[].node)
		 * and is listed as offline.
		 */
		cpuset_and(&n->cpus, &t->online);
		snprintf(ld->path, sizeof(ld->path), NODE_DIR "/node%d/meminfo", id);
		if (sysroot_read_file(ld->root, ld->path, &text, NULL) == 0) {
			topo_parse_meminfo(text, n);
			free(text);
		}
	}
	if (t->nnodes > 1)
		qsort(t->nodes, (size_t)t->nnodes, sizeof(*t->nodes), cmp_node);
	/*
	 * A distance row lists the online nodes in id order; it only maps
	 * onto our nodes when the counts agree.
	 */
	for (i = 0; i < t->nnodes; i++) {
		struct topo_node *n = &t->nodes[i];
		int k = 0, *d;
		char *p, *end;

		snprintf(ld->path, sizeof(ld->path), NODE_DIR "/node%d/distance", n->id);
		if (read_opt(ld, ld->path) < 0)
			continue;
		d = calloc((size_t)t->nnodes, sizeof(int));
		if (d == NULL) {
			r = -ENOMEM;
			goto out;
		}
		for (p = ld->buf; ; p = end) {
			long v;

			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == '\0')
				break;
			v = strtol(p, &end, 10);
			if (end == p || v < 0 || v > 100000 || k >= t->nnodes) {
				k = -1;
				break;
			}
			d[k++] = (int)v;
		}
		if (k == t->nnodes)
			n->distance = d;
		else
			free(d);
	}
out:
	cpuset_free(&ids);
	return r;
}

static int
cmp_l3(const void *a, const void *b)
{
	return cpuset_first(&((const struct topo_l3 *)a)->cpus) -
	       cpuset_first(&((const struct topo_l3 *)b)->cpus);
}

/* "32768K" -> 32768; "8M" -> 8192. */
static int64_t
parse_cache_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || v < 0)
		return -1;
	if (*end == 'K' || *end == '\0')
		return v;
	if (*end == 'M')
		return v * 1024;
	if (*end == 'G')
		return v * 1024 * 1024;
	return -1;
}

/*
 * Level-3 cache groups.  For each online CPU not yet in a group, find its
 * level-3 cache index and read that cache's CPU list, id and size once.
 */
static int
load_l3(struct loader *ld)
{
	struct topo *t = ld->t;
	struct cpuset seen = CPUSET_INIT;
	int c, r = 0, cap = 0;
	bool dup_ids = false;

	cpuset_for_each(c, &t->online) {
		struct topo_l3 *g;
		char dir[64];
		int idx, level = -1, s, m;

		if (cpuset_isset(&seen, (unsigned int)c))
			continue;
		for (idx = 0; idx < 16; idx++) {
			snprintf(dir, sizeof(dir), "cache/index%d/level", idx);
			r = read_int(ld, cpu_path(ld, c, dir), &level);
			if (r < 0 || level == 3)
				break;
		}
		if (r == -ENOENT || idx == 16 || level != 3) {
			r = 0;
			continue;
		}
		if (r < 0)
			break;
		if (t->nl3 == cap) {
			struct topo_l3 *nl;

			cap = cap ? cap * 2 : 8;
			nl = realloc(t->l3s, (size_t)cap * sizeof(*nl));
			if (nl == NULL) {
				r = -ENOMEM;
				break;
			}
			t->l3s = nl;
		}
		g = &t->l3s[t->nl3++];
		memset(g, 0, sizeof(*g));
		g->level = 3;
		g->id = -1;
		g->size_kb = -1;
		snprintf(dir, sizeof(dir), "cache/index%d/shared_cpu_list", idx);
		r = read_list(ld, cpu_path(ld, c, dir), &g->cpus);
		if (r == -ENOENT) {
			char *mask;

			snprintf(dir, sizeof(dir), "cache/index%d/shared_cpu_map", idx);
			r = sysroot_read_file(ld->root, cpu_path(ld, c, dir), &mask, NULL);
			if (r == 0) {
				r = cpuset_parse_mask(mask, &g->cpus);
				free(mask);
				if (r < 0)
					r = fail(ld, -EINVAL, "malformed %s", ld->path);
			}
		}
		if (r == -ENOENT)
			r = cpuset_set(&g->cpus, (unsigned int)c);
		if (r < 0)
			break;
		cpuset_and(&g->cpus, &t->online);
		cpuset_andnot(&g->cpus, &seen);
		if (cpuset_set(&g->cpus, (unsigned int)c) < 0 ||
		    cpuset_or(&seen, &g->cpus) < 0) {
			r = -ENOMEM;
			break;
		}
		snprintf(dir, sizeof(dir), "cache/index%d/id", idx);
		r = read_int(ld, cpu_path(ld, c, dir), &g->id);
		if (r < 0 && r != -ENOENT)
			break;
		snprintf(dir, sizeof(dir), "cache/index%d/size", idx);
		if (read_opt(ld, cpu_path(ld, c, dir)) > 0)
			g->size_kb = parse_cache_size(ld->buf);
		r = 0;
		for (m = 0; m < t->nl3 - 1; m++)
			if (t->l3s[m].id == g->id)
				dup_ids = true;
		(void)s;
	}
	cpuset_free(&seen);
	if (r < 0)
		return r;
	if (t->nl3 > 1)
		qsort(t->l3s, (size_t)t->nl3, sizeof(*t->l3s), cmp_l3);
	for (c = 0; c < t->nl3; c++) {
		struct topo_l3 *g = &t->l3s[c];
		int s;

		/* Without ids (older kernels), or with ids that repeat, name
		 * each group by its lowest CPU so ids stay unique. */
		if (g->id < 0 || dup_ids)
			g->id = cpuset_first(&g->cpus);
		cpuset_for_each(s, &g->cpus)
			t->cpus[s].l3 = c;
	}
	return 0;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Socket ids can be large and sparse (ia64): sort them, not a bitmap. */
static int
build_sockets(struct topo *t)
{
	int *ids, n = 0, c, i;

	ids = malloc(((size_t)t->ncpus + 1) * sizeof(int));
	if (ids == NULL)
		return -ENOMEM;
	for (c = 0; c < t->ncpus; c++)
		if (t->cpus[c].socket >= 0)
			ids[n++] = t->cpus[c].socket;
	if (n > 1)
		qsort(ids, (size_t)n, sizeof(int), cmp_int);
	t->sockets = calloc((size_t)n + 1, sizeof(*t->sockets));
	if (t->sockets == NULL) {
		free(ids);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (t->nsockets == 0 || t->sockets[t->nsockets - 1].id != ids[i])
			t->sockets[t->nsockets++].id = ids[i];
	free(ids);
	for (c = 0; c < t->ncpus; c++) {
		struct topo_socket *s;

		if (t->cpus[c].socket < 0)
			continue;
		s = (struct topo_socket *)topo_socket_by_id(t, t->cpus[c].socket);
		if (cpuset_set(&s->cpus, (unsigned int)c) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* ---- the calling process: allowed CPUs and cgroup CPU limit ---- */

/* Join mount dir and cgroup path into a root-relative path. */
static void
join_cg(char *out, size_t size, const char *mnt, const char *group,
	const char *file)
{
	while (*group == '/')
		group++;
	snprintf(out, size, "%.1000s%s%.1000s%s%.100s", mnt, *mnt ? "/" : "",
		 group, *group ? "/" : "", file);
}

/* Lowest CPU limit (quota/period) of the group and its ancestors. */
static double
cpu_limit_of(struct loader *ld, const char *mnt, const char *group, bool v2)
{
	char g[1024];
	double best = -1;

	snprintf(g, sizeof(g), "%s", group);
	for (;;) {
		char *slash;
		long long quota = -1, period = -1;

		if (v2) {
			int64_t q;
			uint64_t p;

			join_cg(ld->path, sizeof(ld->path), mnt, g, "cpu.max");
			if (read_opt(ld, ld->path) > 0 &&
			    cpu_max_parse(ld->buf, &q, &p) == 0 && q >= 0 &&
			    p <= INT64_MAX) {
				quota = q;
				period = (long long)p;
			}
		} else {
			join_cg(ld->path, sizeof(ld->path), mnt, g, "cpu.cfs_quota_us");
			if (read_opt(ld, ld->path) > 0)
				quota = strtoll(ld->buf, NULL, 10);
			join_cg(ld->path, sizeof(ld->path), mnt, g, "cpu.cfs_period_us");
			if (read_opt(ld, ld->path) > 0)
				period = strtoll(ld->buf, NULL, 10);
		}
		if (quota > 0 && period > 0) {
			double lim = (double)quota / (double)period;

			if (best < 0 || lim < best)
				best = lim;
		}
		slash = strrchr(g, '/');
		if (slash == NULL || g[0] == '\0' || (slash == g && g[1] == '\0'))
			break;
		if (slash == g)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (strcmp(g, "/") == 0) {
			g[0] = '\0';
		}
	}
	return best;
}

/* What partitions took from the root group of the v2 hierarchy at mnt. */
static int
load_partitions(struct loader *ld, const char *mnt)
{
	struct topo *t = ld->t;
	struct cpuset eff = CPUSET_INIT;
	int r;

	join_cg(ld->path, sizeof(ld->path), mnt, "", "cpuset.cpus.effective");
	r = read_list(ld, ld->path, &eff);
	if (r == 0 && !cpuset_empty(&eff)) {
		r = cpuset_copy(&t->part_cpus, &t->online);
		if (r == 0) {
			cpuset_andnot(&t->part_cpus, &eff);
			cpuset_andnot(&t->part_cpus, &t->isolated);
			t->part_cpus_known = true;
		}
	}
	cpuset_free(&eff);
	if (r == -ENOMEM)
		return r;
	join_cg(ld->path, sizeof(ld->path), mnt, "", "cpuset.cpus.isolated");
	r = read_list(ld, ld->path, &t->part_isolated);
	if (r == 0)
		t->part_isolated_known = true;
	return r == -ENOMEM ? r : 0;
}

static int
load_process(struct loader *ld)
{
	struct topo *t = ld->t;
	char *cg = NULL, *mounts = NULL;
	char group[1024], mnt[1024];
	bool noprefix = false;
	int r;

	r = cpuset_copy(&t->allowed, &t->online);
	if (r < 0)
		return r;
	t->allowed_known = true;
	{
		struct cpuset aff = CPUSET_INIT;

		if (proc_status_list(ld->root, 0, "Cpus_allowed_list",
				     &aff) == 0)
			cpuset_and(&t->allowed, &aff);
		cpuset_free(&aff);
	}
	sysroot_read_file(ld->root, "proc/self/cgroup", &cg, NULL);
	sysroot_read_file(ld->root, "proc/mounts", &mounts, NULL);
	if (mounts == NULL)
		goto out;
	/* The cgroup cpuset, v2 first, then v1, then the legacy file. */
	if (cg && proc_cgroup_group(cg, "", group, sizeof(group)) == 0 &&
	    proc_cgroup_mount(mounts, "", mnt, sizeof(mnt), &noprefix) == 0) {
		struct cpuset cs = CPUSET_INIT;

		join_cg(ld->path, sizeof(ld->path), mnt, group, "cpuset.cpus.effective");
		if (read_list(ld, ld->path, &cs) == 0 && !cpuset_empty(&cs))
			cpuset_and(&t->allowed, &cs);
		cpuset_free(&cs);
		t->cpu_limit = cpu_limit_of(ld, mnt, group, true);
		r = load_partitions(ld, mnt);
		if (r < 0)
			goto out;
	}
	noprefix = false;
	if (proc_cgroup_mount(mounts, "cpuset", mnt, sizeof(mnt), &noprefix) == 0) {
		struct cpuset cs = CPUSET_INIT;
		bool have = (cg && proc_cgroup_group(cg, "cpuset", group, sizeof(group)) == 0);

		if (!have && read_opt(ld, "proc/self/cpuset") > 0) {
			snprintf(group, sizeof(group), "%.1000s", ld->buf);
			have = true;
		}
		if (have) {
			join_cg(ld->path, sizeof(ld->path), mnt, group,
				noprefix ? "cpus" : "cpuset.effective_cpus");
			r = read_list(ld, ld->path, &cs);
			if (r == -ENOENT && !noprefix) {
				join_cg(ld->path, sizeof(ld->path), mnt, group,
					"cpuset.cpus");
				r = read_list(ld, ld->path, &cs);
			}
			if (r == 0 && !cpuset_empty(&cs))
				cpuset_and(&t->allowed, &cs);
		}
		cpuset_free(&cs);
	}
	noprefix = false;
	if (t->cpu_limit < 0 && cg && proc_cgroup_group(cg, "cpu", group, sizeof(group)) == 0 &&
	    proc_cgroup_mount(mounts, "cpu", mnt, sizeof(mnt), &noprefix) == 0)
		t->cpu_limit = cpu_limit_of(ld, mnt, group, false);
out:
	free(cg);
	free(mounts);
	return 0;
}

int
topo_load(struct topo *t, const struct sysroot *root, unsigned int flags,
	  char *err, size_t errlen)
{
	struct loader *ld;
	int r, c;

	memset(t, 0, sizeof(*t));
	t->cpu_limit = -1;
	if (err && errlen)
		err[0] = '\0';
	ld = calloc(1, sizeof(*ld));
	if (ld == NULL)
		return -ENOMEM;
	ld->t = t;
	ld->root = root;
	ld->err = err;
	ld->errlen = errlen;

	r = load_cpu_lists(ld);
	if (r < 0)
		goto out;
	t->ncpus = cpuset_last(&t->possible) + 1;
	t->cpus = calloc((size_t)t->ncpus, sizeof(*t->cpus));
	if (t->cpus == NULL) {
		r = -ENOMEM;
		goto out;
	}
	for (c = 0; c < t->ncpus; c++) {
		struct topo_cpu *tc = &t->cpus[c];

		tc->possible = cpuset_isset(&t->possible, (unsigned int)c);
		tc->present = cpuset_isset(&t->present, (unsigned int)c);
		tc->online = cpuset_isset(&t->online, (unsigned int)c);
		tc->isolated = cpuset_isset(&t->isolated, (unsigned int)c);
		tc->node = tc->socket = tc->die = tc->core = -1;
		tc->l3 = tc->next_thread = -1;
	}
	if (!(flags & TOPO_NO_CORES))
		r = load_cpu_topology(ld);
	if (r == 0)
		r = load_nodes(ld);
	if (r == 0 && !(flags & TOPO_NO_CORES))
		r = load_l3(ld);
	if (r == 0 && !(flags & TOPO_NO_CORES))
		r = build_sockets(t);
	if (r == 0 && (flags & TOPO_PROCESS))
		r = load_process(ld);
out:
	if (r == -ENOMEM && err && errlen)
		snprintf(err, errlen, "out of memory");
	else if (r < 0 && err && errlen && err[0] == '\0')
		snprintf(err, errlen, "cannot read the topology in %s: %s",
			 root->path, strerror(-r));
	free(ld);
	if (r < 0)
		topo_free(t);
	return r;
}

void
topo_free(struct topo *t)
{
	int i;

	for (i = 0; i < t->nnodes; i++) {
		cpuset_free(&t->nodes[i].cpus);
		free(t->nodes[i].distance);
	}
	for (i = 0; i < t->nl3; i++)
		cpuset_free(&t->l3s[i].cpus);
	for (i = 0; i < t->nsockets; i++)
		cpuset_free(&t->sockets[i].cpus);
	free(t->nodes);
	free(t->l3s);
	free(t->sockets);
	free(t->cpus);
	cpuset_free(&t->possible);
	cpuset_free(&t->present);
	cpuset_free(&t->online);
	cpuset_free(&t->offline);
	cpuset_free(&t->isolated);
	cpuset_free(&t->allowed);
	cpuset_free(&t->part_cpus);
	cpuset_free(&t->part_isolated);
	memset(t, 0, sizeof(*t));
}

int
topo_siblings(const struct topo *t, int cpu, struct cpuset *out)
{
	int c;

	cpuset_zero(out);
	if (cpu < 0 || cpu >= t->ncpus || t->cpus[cpu].core < 0)
		return 0;
	for (c = t->cpus[cpu].core; c >= 0; c = t->cpus[c].next_thread)
		if (cpuset_set(out, (unsigned int)c) < 0)
			return -ENOMEM;
	return 0;
}

const struct topo_node *
topo_node_by_id(const struct topo *t, int id)
{
	int lo = 0, hi = t->nnodes - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (t->nodes[mid].id == id)
			return &t->nodes[mid];
		if (t->nodes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

const struct topo_socket *
topo_socket_by_id(const struct topo *t, int id)
{
	int lo = 0, hi = t->nsockets - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (t->sockets[mid].id == id)
			return &t->sockets[mid];
		if (t->sockets[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

int
topo_nodes_of(const struct topo *t, const struct cpuset *cpus,
	      struct cpuset *nodes)
{
	int c;

	cpuset_zero(nodes);
	cpuset_for_each(c, cpus)
		if (c < t->ncpus && t->cpus[c].node >= 0 &&
		    cpuset_set(nodes, (unsigned int)t->cpus[c].node) < 0)
			return -ENOMEM;
	return 0;
}

int
topo_cpus_of_nodes(const struct topo *t, const struct cpuset *nodes,
		   struct cpuset *cpus)
{
	int i;

	cpuset_zero(cpus);
	for (i = 0; i < t->nnodes; i++)
		if (cpuset_isset(nodes, (unsigned int)t->nodes[i].id) &&
		    cpuset_or(cpus, &t->nodes[i].cpus) < 0)
			return -ENOMEM;
	return 0;
}

int
topo_check_possible(const struct topo *t, const struct cpuset *s, char *err,
		    size_t errlen)
{
	struct cpuset bad = CPUSET_INIT;
	char *b, *p;

	if (cpuset_subset(s, &t->possible))
		return 0;
	if (cpuset_copy(&bad, s) < 0)
		return -ENOMEM;
	cpuset_andnot(&bad, &t->possible);
	b = cpuset_to_list(&bad);
	p = cpuset_to_list(&t->possible);
	if (err && errlen)
		snprintf(err, errlen, "CPU%s %s do%s not exist (possible: %s)",
			 cpuset_count(&bad) > 1 ? "s" : "", b ? b : "?",
			 cpuset_count(&bad) > 1 ? "" : "es", p ? p : "?");
	free(b);
	free(p);
	cpuset_free(&bad);
	return -ERANGE;
}
