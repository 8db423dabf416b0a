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
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/num.h"
#include "base/strutils.h"
#include "machine/cgfiles.h"
#include "machine/proc.h"
#include "machine/topo.h"

#define CPU_DIR  "sys/devices/system/cpu"
#define NODE_DIR "sys/devices/system/node"

struct loader {
	struct topo *t;
	const struct sysroot *root;
	char *err;
	size_t errlen;
	int *members;		/* [ncpus] the group read_group() read */
	int nmembers;
	/*
	 * What this kernel's tree holds, learnt from the first CPU that
	 * tells: old kernels have the hex masks and no *_list files, and
	 * core_siblings instead of package_cpus.  A kernel writes the same
	 * files for every CPU, so the rest are asked for those first and
	 * the other name is only the fallback.
	 */
	bool sib_masks;		/* "NAME" answered where "NAME_list" did not */
	int pkg_pref, core_pref;	/* index into the name pairs below */
	int l3_index;		/* cache/indexN that was level 3, -1 none */
	int path_cpu;		/* the CPU whose directory path holds */
	size_t path_dir;	/* length of "CPU_DIR/cpuN/" in cpath */
	char cpath[512];	/* cpu_path3()'s, kept apart from path */
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
 * missing (not an error for optional files), other -errno.  A file too
 * long for ld->buf (a long list on a huge machine) is read whole: into
 * *big when big is not NULL (the caller frees it; *big stays NULL
 * otherwise), else it is checked and -EFBIG returned.
 */
static ssize_t
read_opt_big(struct loader *ld, const char *path, char **big)
{
	ssize_t n = sysroot_read(ld->root, path, ld->buf, sizeof(ld->buf));

	if (big)
		*big = NULL;
	if (n == -EFBIG) {
		char *text;
		size_t len;
		int r = sysroot_read_file(ld->root, path, &text, &len);

		if (r < 0)
			return r;
		if (big == NULL) {
			free(text);
			return -EFBIG;
		}
		*big = text;
		return (ssize_t)len;
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
	if (n == -EMLINK)
		return fail(ld, -EINVAL, "%s is a file hard-linked from "
			    "elsewhere", path);
	return n;
}

static ssize_t
read_opt(struct loader *ld, const char *path)
{
	return read_opt_big(ld, path, NULL);
}

/*
 * Read a cpulist file into s.  Missing files give -ENOENT and leave s
 * empty; unparsable ones are reported.
 */
static int
read_list(struct loader *ld, const char *path, struct cpuset *s)
{
	char perr[128];
	char *text;
	ssize_t n;
	int r;

	cpuset_zero(s);
	n = read_opt_big(ld, path, &text);
	if (n < 0)
		return (int)n;
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
 * CPU_DIR/cpuN/abc into ld->cpath (b and c may be NULL).  Built by hand,
 * not with snprintf, and the directory part only when the CPU changes:
 * it runs a few times per core, and a large machine has thousands.
 */
static const char *
cpu_path3(struct loader *ld, int cpu, const char *a, const char *b,
	  const char *c)
{
	static const char dir[] = CPU_DIR "/cpu";
	const char *parts[3] = { a, b, c };
	char *p, *end = ld->cpath + sizeof(ld->cpath) - 1;
	int i;

	if (cpu != ld->path_cpu) {
		char num[12];
		unsigned int v = (unsigned int)cpu;
		int n = 0;

		do
			num[n++] = (char)('0' + v % 10);
		while ((v /= 10) != 0);
		p = ld->cpath;
		memcpy(p, dir, sizeof(dir) - 1);
		p += sizeof(dir) - 1;
		while (n > 0)
			*p++ = num[--n];
		*p++ = '/';
		ld->path_dir = (size_t)(p - ld->cpath);
		ld->path_cpu = cpu;
	}
	p = ld->cpath + ld->path_dir;
	for (i = 0; i < 3; i++) {
		size_t len = parts[i] ? strlen(parts[i]) : 0;

		if (len > (size_t)(end - p))
			len = (size_t)(end - p);
		memcpy(p, parts[i] ? parts[i] : "", len);
		p += len;
	}
	*p = '\0';
	return ld->cpath;
}

static const char *
cpu_path(struct loader *ld, int cpu, const char *file)
{
	return cpu_path3(ld, cpu, file, NULL, NULL);
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

int
topo_scan_numbered(const struct sysroot *root, const char *dir,
		   const char *prefix, struct cpuset *s)
{
	DIR *d;
	struct dirent *de;
	int fd;

	cpuset_zero(s);
	fd = sysroot_open_dir(root, dir);
	if (fd < 0)
		return fd;
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

/* Collect the numbers N of directory entries "prefixN" into s. */
static int
scan_dir(struct loader *ld, const char *dir, const char *prefix,
	 struct cpuset *s)
{
	return topo_scan_numbered(ld->root, dir, prefix, s);
}

/* The cpuN directories into dirs, once; "no CPU information" without. */
static int
scan_cpu_dirs(struct loader *ld, struct cpuset *dirs, bool *scanned)
{
	int r;

	if (*scanned)
		return 0;
	r = scan_dir(ld, CPU_DIR, "cpu", dirs);
	if (r == -ENOENT || r == -ENOTDIR)
		return fail(ld, -ENOENT, "no CPU information in %s",
			    ld->root->path);
	*scanned = r == 0;
	return r;
}

static int
load_cpu_lists(struct loader *ld)
{
	struct topo *t = ld->t;
	struct cpuset dirs = CPUSET_INIT;
	bool scanned = false;
	int r, c;

	/*
	 * The cpuN directories are listed only when a list file is missing
	 * (old or partial trees): on a large machine that listing costs
	 * more than the rest of the CPU lists.
	 */
	r = read_list(ld, CPU_DIR "/possible", &t->possible);
	if (r == -ENOENT || r == -ENOTDIR) {
		r = scan_cpu_dirs(ld, &dirs, &scanned);
		if (r == 0)
			r = cpuset_copy(&t->possible, &dirs);
	}
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
	if (r == -ENOENT && (r = scan_cpu_dirs(ld, &dirs, &scanned)) == 0) {
		/* Old or partial trees: cpuN/online, absent means online. */
		cpuset_for_each(c, &t->present) {
			int on = 1, e = 0;

			/* Some dumps hold an empty file: treat as unknown. */
			if (read_opt(ld, cpu_path(ld, c, "online")) > 0)
				e = read_int(ld, ld->cpath, &on);
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

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * A group being read: its CPUs go to ld->members, each online CPU not
 * yet in seen[] (one byte per CPU) once.  Walking the list costs what
 * the list holds; set algebra over the whole machine for every core
 * cost the machine's width times its cores.
 */
struct group_walk {
	struct loader *ld;
	unsigned char *seen;
	bool sorted;
	unsigned int bad;	/* with -EDOM: a CPU that is not possible */
};

static void
group_take(struct group_walk *g, int cpu)
{
	struct loader *ld = g->ld;

	g->seen[cpu] = 1;
	if (ld->nmembers > 0 && ld->members[ld->nmembers - 1] > cpu)
		g->sorted = false;
	ld->members[ld->nmembers++] = cpu;
}

static int
group_add(void *arg, unsigned int first, unsigned int last)
{
	struct group_walk *g = arg;
	const struct topo *t = g->ld->t;
	unsigned int c;

	/*
	 * The kernel's sibling masks hold possible CPUs only: one beyond
	 * them is a CPU that does not exist, and the list cannot be
	 * trusted.  An offline sibling is ignored (some kernels keep it).
	 */
	if (first >= (unsigned int)t->ncpus) {
		g->bad = first;
		return -EDOM;
	}
	for (c = first; c <= last; c++) {
		if (c >= (unsigned int)t->ncpus || !t->cpus[c].possible) {
			g->bad = c;
			return -EDOM;
		}
		if (t->cpus[c].online && !g->seen[c])
			group_take(g, (int)c);
	}
	return 0;
}

static int
not_possible(struct loader *ld, const char *path, const struct group_walk *g)
{
	return fail(ld, -EINVAL, "inconsistent %.300s: CPU %u is not possible",
		    path, g->bad);
}

/* "topology/NAME_list" of cpu, walked into g; -ENOENT when missing. */
static int
walk_sibling_list(struct loader *ld, int cpu, const char *name,
		  struct group_walk *g)
{
	const char *path = cpu_path3(ld, cpu, "topology/", name, "_list");
	char perr[128], *text;
	ssize_t n;
	int r;

	n = read_opt_big(ld, path, &text);
	if (n < 0)
		return (int)n;
	r = cpuset_walk_list(text ? text : ld->buf, group_add, g, perr,
			     sizeof(perr));
	free(text);
	if (r == -EDOM)
		return not_possible(ld, path, g);
	if (r < 0 && r != -ENOMEM)
		return fail(ld, -EINVAL, "malformed %.300s: %s", path, perr);
	return r;
}

/* The hex mask "topology/NAME" of old kernels; -ENOENT when missing. */
static int
walk_sibling_mask(struct loader *ld, int cpu, const char *name,
		  struct group_walk *g)
{
	const char *path = cpu_path3(ld, cpu, "topology/", name, NULL);
	char *mask;
	int r;

	r = sysroot_read_file(ld->root, path, &mask, NULL);
	if (r < 0)
		return r;
	r = cpuset_walk_mask(mask, group_add, g);
	free(mask);
	if (r == -EDOM)
		return not_possible(ld, path, g);
	if (r == -EINVAL)
		return fail(ld, r, "malformed %s", path);
	return r;
}

/*
 * Read the sibling list "topology/NAME" of cpu (or, on old kernels, the
 * hex mask of that name) as a group: the CPUs in it that are online and
 * not yet in seen, plus cpu itself, go into ld->members (ascending) and
 * seen.  A missing file gives a group of cpu alone.  Returns 0, 1 when
 * the file was missing, or -errno.
 */
static int
read_group(struct loader *ld, int cpu, const char *name, unsigned char *seen)
{
	struct group_walk g = { ld, seen, true, 0 };
	int r;

	ld->nmembers = 0;
	if (ld->sib_masks) {
		r = walk_sibling_mask(ld, cpu, name, &g);
		if (r == -ENOENT)
			r = walk_sibling_list(ld, cpu, name, &g);
	} else {
		r = walk_sibling_list(ld, cpu, name, &g);
		if (r == -ENOENT) {
			r = walk_sibling_mask(ld, cpu, name, &g);
			if (r == 0)
				ld->sib_masks = true;
		}
	}
	if (r < 0 && r != -ENOENT)
		return r;
	if (!seen[cpu])
		group_take(&g, cpu);
	if (!g.sorted)
		qsort(ld->members, (size_t)ld->nmembers, sizeof(int), cmp_int);
	return r == -ENOENT;
}

/*
 * read_group() of the first of two names that cpu has, the one this
 * tree answered last time tried first (*pref).  Returns as read_group.
 */
static int
read_group2(struct loader *ld, int cpu, const char *const names[2],
	    int *pref, unsigned char *seen)
{
	int r = read_group(ld, cpu, names[*pref], seen), i;

	if (r != 1)
		return r;
	for (i = 0; i < ld->nmembers; i++)
		seen[ld->members[i]] = 0;
	r = read_group(ld, cpu, names[!*pref], seen);
	if (r == 0)
		*pref = !*pref;
	return r;
}

/*
 * Socket, die and core of each online CPU.  Lists are read once per
 * package, die and core and ids once per group, so a machine costs about
 * one file read per core, not several per CPU, and the work per group
 * grows with the group, not with the machine.  The package CPU list
 * decides which CPUs share a socket: some firmware repeats package ids
 * (ia64) or reports -1 (s390).  Old kernels have only hex masks, no
 * die_id and no *_list files: each has a fallback.
 */
static int
load_cpu_topology(struct loader *ld)
{
	static const char *const pkg_names[2] = { "package_cpus", "core_siblings" };
	static const char *const core_names[2] = { "thread_siblings", "core_cpus" };
	struct topo *t = ld->t;
	size_t n = (size_t)t->ncpus;
	struct cpuset ids = CPUSET_INIT;
	unsigned char *pkg_seen, *die_seen, *core_seen, *pkg_nodie;
	int c, r = 0, *pkg_first;
	bool clash = false;

	pkg_first = malloc((n + 1) * sizeof(int));
	pkg_seen = calloc(4 * n + 1, 1);
	ld->members = malloc((n + 1) * sizeof(int));
	if (pkg_first == NULL || pkg_seen == NULL || ld->members == NULL) {
		r = -ENOMEM;
		goto out;
	}
	die_seen = pkg_seen + n;
	core_seen = pkg_seen + 2 * n;
	pkg_nodie = pkg_seen + 3 * n;	/* by the package's first CPU */
	for (c = 0; c < t->ncpus; c++)
		pkg_first[c] = -1;
	cpuset_for_each(c, &t->online) {
		int v, prev = -1, i, k;

		if (!pkg_seen[c]) {
			r = read_int(ld, cpu_path(ld, c, "topology/physical_package_id"), &v);
			if (r < 0 && r != -ENOENT)
				break;
			if (r == 0) {
				r = read_group2(ld, c, pkg_names, &ld->pkg_pref,
						pkg_seen);
				if (r < 0)
					break;
				for (i = 0; i < ld->nmembers; i++) {
					pkg_first[ld->members[i]] = c;
					t->cpus[ld->members[i]].socket = v;
				}
			}
			r = 0;
		}
		if ((t->cpus[c].socket >= 0 || pkg_first[c] >= 0) && !die_seen[c]) {
			if (pkg_nodie[pkg_first[c]]) {
				/* Before dies: one die per package. */
				die_seen[c] = 1;
				t->cpus[c].die = 0;
			} else {
				r = read_int(ld, cpu_path(ld, c, "topology/die_id"), &v);
				/*
				 * No die_id (before Linux 5.2), or -1: the
				 * architecture has no dies (arm64, where
				 * die_cpus_list names the CPU alone): one die
				 * per package, and no die file read again.
				 */
				if (r == -ENOENT || (r == 0 && v < 0)) {
					pkg_nodie[pkg_first[c]] = 1;
					die_seen[c] = 1;
					t->cpus[c].die = 0;
					r = 0;
				} else if (r == 0) {
					r = read_group(ld, c, "die_cpus", die_seen);
					if (r < 0)
						break;
					for (i = 0; i < ld->nmembers; i++) {
						k = ld->members[i];
						if (pkg_first[k] == pkg_first[c])
							t->cpus[k].die = v;
					}
				}
				if (r < 0)
					break;
				r = 0;
			}
		}
		if (core_seen[c])
			continue;
		r = read_group2(ld, c, core_names, &ld->core_pref, core_seen);
		if (r < 0)
			break;
		if (r == 1 && t->cpus[c].socket < 0 && pkg_first[c] < 0) {
			/* No topology at all for this CPU. */
			r = 0;
			core_seen[c] = 0;
			continue;
		}
		r = 0;
		for (i = 0; i < ld->nmembers; i++) {
			k = ld->members[i];
			t->cpus[k].core = c;
			t->cpus[k].nthreads = ld->nmembers;
			if (prev >= 0)
				t->cpus[prev].next_thread = k;
			prev = k;
		}
		if (ld->nmembers > t->threads_per_core)
			t->threads_per_core = ld->nmembers;
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
out:
	free(pkg_first);
	free(pkg_seen);
	free(ld->members);
	ld->members = NULL;
	cpuset_free(&ids);
	return r;
}

/*
 * The kernel makes cpuN for every present CPU before it can come online:
 * an online CPU that has no directory, and that no sibling list of
 * another CPU names, is not there, and handing it out would place work
 * on nothing.  Refused, naming it.  (A CPU that a sibling list names may
 * lack its directory: cpm's own dumps hold only the files read.  A
 * possible CPU that is not present has no directory on real machines,
 * room for hotplug: no fault either.)  Only CPUs without any topology
 * are looked at, so a sound tree costs no look at all.
 */
static int
check_online_cpus(struct loader *ld)
{
	struct topo *t = ld->t;
	int c;

	/* The array, not the online set: one test a CPU. */
	for (c = 0; c < t->ncpus; c++) {
		if (!t->cpus[c].online || t->cpus[c].core >= 0)
			continue;
		snprintf(ld->path, sizeof(ld->path), CPU_DIR "/cpu%d", c);
		if (!sysroot_exists(ld->root, ld->path))
			return fail(ld, -EINVAL, "inconsistent %s/online: CPU "
				    "%d is online but there is no %s", CPU_DIR,
				    c, ld->path);
	}
	return 0;
}

/*
 * The same without the cores read (TOPO_NO_CORES): on a tree that is not
 * the kernel's, one listing of the cpuN directories; only when an online
 * CPU has none are the cores read, to see whether a sibling list names
 * it.
 */
static int
check_online_dirs(struct loader *ld)
{
	struct cpuset dirs = CPUSET_INIT;
	bool scanned = false;
	int r;

	if (ld->root->sysfs)
		return 0;
	r = scan_cpu_dirs(ld, &dirs, &scanned);
	if (r == 0 && !cpuset_subset(&ld->t->online, &dirs)) {
		r = load_cpu_topology(ld);
		if (r == 0)
			r = check_online_cpus(ld);
	}
	cpuset_free(&dirs);
	return r;
}

static int
cmp_node(const void *a, const void *b)
{
	return ((const struct topo_node *)a)->id - ((const struct topo_node *)b)->id;
}

int
topo_load_meminfo(struct topo *t, const struct sysroot *root)
{
	char path[96], *text;
	int i, r;

	for (i = 0; i < t->nnodes; i++) {
		struct topo_node *n = &t->nodes[i];

		snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", n->id);
		r = sysroot_read_file(root, path, &text, NULL);
		if (r == -ENOMEM)
			return r;
		if (r == 0) {
			topo_parse_meminfo(text, n);
			free(text);
		}
		r = topo_load_hugepages(n, root);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A count file of one huge page size of a node into *out. */
static bool
huge_count(const struct sysroot *root, int node, unsigned int kb,
	   const char *file, uint64_t *out)
{
	char path[128], buf[32];
	ssize_t len;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/hugepages/"
		 "hugepages-%ukB/%s", node, kb, file);
	len = sysroot_read(root, path, buf, sizeof(buf) - 1);
	if (len < 0)
		return false;
	buf[len] = '\0';
	return parse_u64(strstrip(buf), UINT64_MAX, out) == 0;
}

int
topo_load_hugepages(struct topo_node *n, const struct sysroot *root)
{
	char path[96];
	struct dirent *de;
	DIR *d;
	int fd, i;

	n->nhuge = 0;
	snprintf(path, sizeof(path), NODE_DIR "/node%d/hugepages", n->id);
	fd = sysroot_open_dir(root, path);
	if (fd < 0)
		return fd == -ENOMEM ? fd : 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return errno == ENOMEM ? -ENOMEM : 0;
	}
	while ((de = readdir(d)) != NULL && n->nhuge < TOPO_HUGE_MAX) {
		struct topo_huge h = { 0, 0, 0 };
		const char *s = de->d_name;
		char num[16];
		size_t len;

		if (strncmp(s, "hugepages-", 10) != 0)
			continue;
		s += 10;
		len = strlen(s);
		if (len < 3 || len - 2 >= sizeof(num) ||
		    strcmp(s + len - 2, "kB") != 0)
			continue;
		memcpy(num, s, len - 2);
		num[len - 2] = '\0';
		if (parse_uint(num, UINT_MAX, &h.kb) < 0 || !h.kb ||
		    !huge_count(root, n->id, h.kb, "nr_hugepages", &h.nr))
			continue;
		if (!huge_count(root, n->id, h.kb, "free_hugepages", &h.free))
			h.free = h.nr;
		/* By size: a few entries, an insertion. */
		for (i = n->nhuge; i > 0 && n->huge[i - 1].kb > h.kb; i--)
			n->huge[i] = n->huge[i - 1];
		n->huge[i] = h;
		n->nhuge++;
	}
	closedir(d);
	return 0;
}

const struct topo_huge *
topo_node_huge(const struct topo_node *n, unsigned int kb)
{
	int i;

	for (i = 0; i < n->nhuge; i++)
		if (n->huge[i].kb == kb)
			return &n->huge[i];
	return NULL;
}

void
topo_parse_meminfo(const char *text, struct topo_node *n)
{
	const char *p = text;

	/*
	 * "Node N MemTotal:   X kB" and "Node N MemFree: ..." among some
	 * forty lines: the keys are told apart by their bytes, and only the
	 * two numbers wanted are converted (as "%lld" would: blanks, a
	 * sign, saturation).
	 */
	while (p && *p) {
		const char *key = strstr(p, "Mem"), *v = NULL;
		int64_t *to = NULL;
		char *end;

		if (key == NULL)
			break;
		if (strncmp(key + 3, "Total:", 6) == 0) {
			v = key + 9;
			to = &n->mem_total_kb;
		} else if (strncmp(key + 3, "Free:", 5) == 0) {
			v = key + 8;
			to = &n->mem_free_kb;
		}
		if (to) {
			long long x = strtoll(v, &end, 10);

			if (end != v)	/* a digit was read */
				*to = x;
		}
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
		if (cpuset_copy(&n->cpulist, &n->cpus) < 0) {
			r = -ENOMEM;
			goto out;
		}
		/*
		 * The kernel maps each CPU to one node, but firmware with
		 * a broken SRAT makes node lists that overlap, on real
		 * machines: such a CPU keeps its lowest node, as before,
		 * and the first one is warned of.
		 */
		cpuset_for_each(c, &n->cpus) {
			if (t->cpus[c].node < 0)
				t->cpus[c].node = id;
			else if (t->warning[0] == '\0')
				snprintf(t->warning, sizeof(t->warning),
					 "inconsistent %.150s: CPU %d is in node %d "
					 "too; taken as node %d's", ld->path, c,
					 t->cpus[c].node, t->cpus[c].node);
		}
		/*
		 * One meaning in every view and selector: a node's CPUs are
		 * its online CPUs.  Kernels differ on whether an offline CPU
		 * stays in its node's cpulist; it keeps its node (cpus[].node)
		 * and is listed as offline.
		 */
		cpuset_and(&n->cpus, &t->online);
	}
	if (t->nnodes > 1)
		qsort(t->nodes, (size_t)t->nnodes, sizeof(*t->nodes), cmp_node);
	r = topo_load_meminfo(t, ld->root);
	if (r < 0)
		goto out;
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
			if (*p >= '0' && *p <= '9') {
				/* The common case without strtol: a machine
				 * of 64 nodes has 4,096 distances. */
				for (v = 0, end = p; *end >= '0' && *end <= '9'; end++)
					if (v <= 100000)
						v = v * 10 + (*end - '0');
			} else {
				v = strtol(p, &end, 10);
			}
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

/* "cache/indexN/" into dir (at least 24 bytes). */
static const char *
cache_dir(char *dir, int idx)
{
	static const char pre[] = "cache/index";
	char *p = dir + sizeof(pre) - 1;

	memcpy(dir, pre, sizeof(pre) - 1);
	if (idx >= 10)
		*p++ = (char)('0' + idx / 10);
	*p++ = (char)('0' + idx % 10);
	*p++ = '/';
	*p = '\0';
	return dir;
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
		char dir[24];
		int idx, level = -1, m;

		if (cpuset_isset(&seen, (unsigned int)c))
			continue;
		/* The index that was level 3 for the last group first: the
		 * same on every CPU of a machine, so one read, not four. */
		idx = ld->l3_index;
		if (idx >= 0) {
			r = read_int(ld, cpu_path3(ld, c, cache_dir(dir, idx),
						   "level", NULL), &level);
			if (r < 0 && r != -ENOENT)
				break;
		}
		if (idx < 0 || r < 0 || level != 3) {
			for (idx = 0; idx < 16; idx++) {
				r = read_int(ld, cpu_path3(ld, c, cache_dir(dir, idx),
							   "level", NULL), &level);
				if (r < 0 || level == 3)
					break;
			}
		}
		if (r == -ENOENT || idx == 16 || level != 3) {
			r = 0;
			continue;
		}
		if (r < 0)
			break;
		ld->l3_index = idx;
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
		cache_dir(dir, idx);
		r = read_list(ld, cpu_path3(ld, c, dir, "shared_cpu_list", NULL),
			      &g->cpus);
		if (r == -ENOENT) {
			char *mask;
			const char *path = cpu_path3(ld, c, dir, "shared_cpu_map",
						     NULL);

			r = sysroot_read_file(ld->root, path, &mask, NULL);
			if (r == 0) {
				r = cpuset_parse_mask(mask, &g->cpus);
				free(mask);
				if (r < 0)
					r = fail(ld, -EINVAL, "malformed %s", path);
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
		r = read_int(ld, cpu_path3(ld, c, dir, "id", NULL), &g->id);
		if (r < 0 && r != -ENOENT)
			break;
		if (read_opt(ld, cpu_path3(ld, c, dir, "size", NULL)) > 0)
			g->size_kb = parse_cache_size(ld->buf);
		r = 0;
		for (m = 0; m < t->nl3 - 1; m++)
			if (t->l3s[m].id == g->id)
				dup_ids = true;
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

/* Socket ids can be large and sparse (ia64): sort them, not a bitmap. */
static int
build_sockets(struct topo *t)
{
	int *ids, n = 0, c, i;

	ids = malloc(((size_t)t->ncpus + 1) * sizeof(int));
	if (ids == NULL)
		return -ENOMEM;
	/* Neighbours mostly share a socket: runs give one id each. */
	for (c = 0; c < t->ncpus; c++)
		if (t->cpus[c].socket >= 0 &&
		    (n == 0 || ids[n - 1] != t->cpus[c].socket))
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
		int first = c;

		if (t->cpus[c].socket < 0)
			continue;
		s = (struct topo_socket *)topo_socket_by_id(t, t->cpus[c].socket);
		while (c + 1 < t->ncpus && t->cpus[c + 1].socket == s->id)
			c++;
		if (cpuset_set_range(&s->cpus, (unsigned int)first,
				     (unsigned int)c) < 0)
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
	struct cgcpuset_files f;
	int r;

	cgcpuset_files(2, &f);
	join_cg(ld->path, sizeof(ld->path), mnt, "", f.eff_cpus);
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
	struct cgcpuset_files f;
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

		cgcpuset_files(2, &f);
		join_cg(ld->path, sizeof(ld->path), mnt, group, f.eff_cpus);
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
			/* A noprefix mount names the files without "cpuset.". */
			cgcpuset_files(1, &f);
			join_cg(ld->path, sizeof(ld->path), mnt, group,
				noprefix ? f.cpus + strlen("cpuset.") :
				f.eff_cpus);
			r = read_list(ld, ld->path, &cs);
			if (r == -ENOENT && !noprefix) {
				join_cg(ld->path, sizeof(ld->path), mnt, group,
					f.cpus);
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
	ld->path_cpu = -1;
	ld->l3_index = -1;

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

		tc->node = tc->socket = tc->die = tc->core = -1;
		tc->l3 = tc->next_thread = -1;
	}
	cpuset_for_each(c, &t->possible)
		t->cpus[c].possible = true;
	cpuset_for_each(c, &t->present)
		if (c < t->ncpus)
			t->cpus[c].present = true;
	cpuset_for_each(c, &t->online)
		if (c < t->ncpus)
			t->cpus[c].online = true;
	cpuset_for_each(c, &t->isolated)
		if (c < t->ncpus)
			t->cpus[c].isolated = true;
	if (!(flags & TOPO_NO_CORES)) {
		r = load_cpu_topology(ld);
		if (r == 0)
			r = check_online_cpus(ld);
	} else {
		r = check_online_dirs(ld);
	}
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
		cpuset_free(&t->nodes[i].cpulist);
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
	if (!t->cpus) {
		/* Without the per-CPU array, the nodes' (online) CPUs. */
		for (c = 0; c < t->nnodes; c++)
			if (cpuset_intersects(&t->nodes[c].cpus, cpus) &&
			    cpuset_set(nodes, (unsigned int)t->nodes[c].id) < 0)
				return -ENOMEM;
		return 0;
	}
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
