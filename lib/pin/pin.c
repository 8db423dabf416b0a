// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <numaif.h>

#include "base/macros.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "machine/proc.h"
#include "pin/mempolicy.h"
#include "pin/numaload.h"
#include "pin/pin.h"

/* Mode flags the kernel ORs into the mode get_mempolicy() returns. */
#define PIN_MPOL_F_STATIC_NODES		(1 << 15)
#define PIN_MPOL_F_RELATIVE_NODES	(1 << 14)
#define PIN_MPOL_F_NUMA_BALANCING	(1 << 13)
#define PIN_MPOL_MODE_FLAGS \
	(PIN_MPOL_F_STATIC_NODES | PIN_MPOL_F_RELATIVE_NODES | \
	 PIN_MPOL_F_NUMA_BALANCING)
#ifndef MPOL_LOCAL
#define MPOL_LOCAL 4
#endif
#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY 5
#endif
#define PIN_MPOL_WEIGHTED_INTERLEAVE 6

#define BITS_PER_LONG (8 * sizeof(unsigned long))

/*
 * libnuma reports failures of its void setters through these two weak
 * hooks, whose defaults print to stderr.  cpm records them instead.  The
 * library is opened at run time (lib/pin/numaload.c): the Makefile exports
 * both from the program so that the library's calls find them.
 */
static int numa_failed_errno;
static char numa_failed_where[128];

void
numa_error(char *where)
{
	numa_failed_errno = errno ? errno : EINVAL;
	snprintf(numa_failed_where, sizeof(numa_failed_where), "%s",
		 where ? where : "libnuma");
}

void numa_warn(int num, char *fmt, ...) __attribute__((format(printf, 2, 3)));

void
numa_warn(int num, char *fmt, ...)
{
	va_list ap;

	(void)num;
	if (numa_failed_errno)
		return;
	va_start(ap, fmt);
	vsnprintf(numa_failed_where, sizeof(numa_failed_where), fmt, ap);
	va_end(ap);
	/* A warning is kept as text only; it does not fail a call. */
}

void
pin_policy_init(struct pin_policy *p)
{
	memset(p, 0, sizeof(*p));
	cpuset_init(&p->nodes);
}

void
pin_policy_free(struct pin_policy *p)
{
	cpuset_free(&p->nodes);
}

static const char *const mem_names[] = {
	[PIN_MEM_KEEP] = "keep",
	[PIN_MEM_DEFAULT] = "default",
	[PIN_MEM_LOCAL] = "local",
	[PIN_MEM_BIND] = "bind",
	[PIN_MEM_INTERLEAVE] = "interleave",
	[PIN_MEM_PREFERRED] = "preferred",
	[PIN_MEM_WEIGHTED] = "weighted-interleave",
	[PIN_MEM_UNKNOWN] = "unknown",
	[PIN_MEM_PREFERRED_MANY] = "preferred-many",
};

int
pin_mem_parse(const char *s, enum pin_mem *out)
{
	static const enum pin_mem settable[] = {
		PIN_MEM_LOCAL, PIN_MEM_BIND, PIN_MEM_INTERLEAVE,
		PIN_MEM_PREFERRED, PIN_MEM_PREFERRED_MANY, PIN_MEM_WEIGHTED,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settable); i++)
		if (strcmp(s, mem_names[settable[i]]) == 0) {
			*out = settable[i];
			return 0;
		}
	return -EINVAL;
}

const char *
pin_mem_name(enum pin_mem m)
{
	if ((unsigned int)m >= ARRAY_SIZE(mem_names))
		return "unknown";
	return mem_names[m];
}

void
pin_policy_format(const struct pin_policy *p, struct strbuf *sb)
{
	strbuf_puts(sb, pin_mem_name(p->mode));
	if (p->mode == PIN_MEM_PREFERRED && p->many)
		strbuf_puts(sb, "-many");
	if (p->flags[0])
		strbuf_printf(sb, "=%s", p->flags);
	if (!cpuset_empty(&p->nodes)) {
		strbuf_add(sb, " ", 1);
		cpuset_format(&p->nodes, sb);
	}
}

/* ---- messages ---- */

/* "CPU 3" / "CPUs 3-4" (noun "CPU" or "node"), with the verb agreeing. */
static void
name_members(char *buf, size_t size, const char *noun,
	     const struct cpuset *s, const char *verb_one,
	     const char *verb_many)
{
	char *l = cpuset_to_list(s);
	bool many = cpuset_count(s) > 1;

	snprintf(buf, size, "%s%s %s %s", noun, many ? "s" : "",
		 l ? l : "?", many ? verb_many : verb_one);
	free(l);
}

/*
 * err = "<noun(s) of bad> <verb> <tail> (<label>: <ref>)".  bad = s - ok.
 */
static int
report_outside(const struct cpuset *s, const struct cpuset *ok,
	       const char *noun, const char *verb_one, const char *verb_many,
	       const char *tail, const char *label, char *err, size_t errlen)
{
	struct cpuset bad = CPUSET_INIT;
	char head[256];
	char *ref;

	if (cpuset_copy(&bad, s) < 0)
		return -ENOMEM;
	cpuset_andnot(&bad, ok);
	name_members(head, sizeof(head), noun, &bad, verb_one, verb_many);
	ref = cpuset_to_list(ok);
	if (err && errlen)
		snprintf(err, errlen, "%s%s (%s: %s)", head, tail, label,
			 ref ? (*ref ? ref : "none") : "?");
	free(ref);
	cpuset_free(&bad);
	return 0;
}

int
pin_check_cpus(const struct topo *t, const struct cpuset *cpus,
	       const struct cpuset *allowed, const char *whose, char *err,
	       size_t errlen)
{
	char tail[160];
	int r;

	if (cpuset_empty(cpus)) {
		snprintf(err, errlen, "the cpulist is empty");
		return -EINVAL;
	}
	r = topo_check_possible(t, cpus, err, errlen);
	if (r < 0)
		return r;
	if (!cpuset_subset(cpus, &t->online)) {
		r = report_outside(cpus, &t->online, "CPU", "is", "are",
				   " offline", "online", err, errlen);
		return r < 0 ? r : -ENXIO;
	}
	if (allowed && !cpuset_subset(cpus, allowed)) {
		snprintf(tail, sizeof(tail), " not allowed in the cpuset of %s",
			 whose);
		r = report_outside(cpus, allowed, "CPU", "is", "are", tail,
				   "allowed", err, errlen);
		return r < 0 ? r : -EPERM;
	}
	return 0;
}

int
pin_check_nodes(const struct topo *t, const struct cpuset *nodes,
		const struct cpuset *allowed, const char *whose, char *err,
		size_t errlen)
{
	struct cpuset exist = CPUSET_INIT, mem = CPUSET_INIT;
	char tail[160];
	int i, r = 0;

	if (cpuset_empty(nodes)) {
		snprintf(err, errlen, "the node list is empty");
		return -EINVAL;
	}
	for (i = 0; i < t->nnodes; i++) {
		if (cpuset_set(&exist, (unsigned int)t->nodes[i].id) < 0)
			goto nomem;
		/* An unknown size (-1) is given the benefit of the doubt;
		 * the read-back after setting the policy still checks. */
		if (t->nodes[i].mem_total_kb != 0 &&
		    cpuset_set(&mem, (unsigned int)t->nodes[i].id) < 0)
			goto nomem;
	}
	if (t->nnodes == 0 && cpuset_set(&exist, 0) == 0)
		cpuset_set(&mem, 0);	/* no node directory: one node, 0 */
	if (!cpuset_subset(nodes, &exist)) {
		r = report_outside(nodes, &exist, "node", "does", "do",
				   " not exist", "nodes", err, errlen);
		r = r < 0 ? r : -ERANGE;
	} else if (!cpuset_subset(nodes, &mem)) {
		r = report_outside(nodes, &mem, "node", "has", "have",
				   " no memory", "nodes with memory", err,
				   errlen);
		r = r < 0 ? r : -ENOSPC;
	} else if (allowed && !cpuset_subset(nodes, allowed)) {
		snprintf(tail, sizeof(tail), " not allowed in the cpuset of %s",
			 whose);
		r = report_outside(nodes, allowed, "node", "is", "are", tail,
				   "mems allowed", err, errlen);
		r = r < 0 ? r : -EPERM;
	}
	cpuset_free(&exist);
	cpuset_free(&mem);
	return r;
nomem:
	cpuset_free(&exist);
	cpuset_free(&mem);
	return -ENOMEM;
}

int
pin_mem_nodes_of(const struct topo *t, const struct cpuset *cpus,
		 struct cpuset *nodes, char *err, size_t errlen)
{
	struct cpuset all = CPUSET_INIT;
	int i, r;

	r = topo_nodes_of(t, cpus, &all);
	if (r < 0)
		goto out;
	if (t->nnodes == 0 && !cpuset_empty(cpus))
		r = cpuset_set(&all, 0);
	if (r < 0)
		goto out;
	r = cpuset_copy(nodes, &all);
	if (r < 0)
		goto out;
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].mem_total_kb == 0)
			cpuset_clear(nodes, (unsigned int)t->nodes[i].id);
	if (cpuset_empty(nodes)) {
		char *l = cpuset_to_list(&all);

		snprintf(err, errlen, "the CPUs' node%s %s ha%s no memory; "
			 "name memory nodes with --nodes",
			 cpuset_count(&all) > 1 ? "s" : "", l ? l : "?",
			 cpuset_count(&all) > 1 ? "ve" : "s");
		free(l);
		r = -ENOSPC;
	}
out:
	cpuset_free(&all);
	return r;
}

/* ---- affinity ---- */

/*
 * CPUs in the masks given to the kernel: enough for most machines, and
 * doubled (and kept, for the next call) when the kernel's is larger.
 * Asking sysconf() instead read /sys/devices/system/cpu/possible on
 * every call, three system calls per thread of a process being re-pinned.
 */
static size_t mask_cpus = 1024;

int
pin_get_affinity(pid_t tid, struct cpuset *out)
{
	size_t n = mask_cpus;

	for (;;) {
		size_t bytes = CPU_ALLOC_SIZE(n);
		cpu_set_t *m = CPU_ALLOC(n);
		int r;

		if (m == NULL)
			return -ENOMEM;
		CPU_ZERO_S(bytes, m);
		if (sched_getaffinity(tid, bytes, m) == 0) {
			r = cpuset_from_mask(out, m, bytes);
			CPU_FREE(m);
			return r;
		}
		r = -errno;
		CPU_FREE(m);
		/* EINVAL: the mask is smaller than the kernel's. */
		if (r != -EINVAL || n >= CPUSET_MAX_CPUS)
			return r;
		n *= 2;
		mask_cpus = n;
	}
}

int
pin_set_affinity(pid_t tid, const struct cpuset *cpus)
{
	int last = cpuset_last(cpus), r;
	size_t n = last < 0 ? 1 : (size_t)last + 1;
	size_t bytes = CPU_ALLOC_SIZE(n);
	cpu_set_t *m = CPU_ALLOC(n);

	if (m == NULL)
		return -ENOMEM;
	r = cpuset_to_mask(cpus, m, bytes);
	if (r == 0 && sched_setaffinity(tid, bytes, m) < 0)
		r = -errno;
	CPU_FREE(m);
	return r;
}

int
pin_self_allowed_cpus(struct cpuset *out)
{
	struct cpuset old = CPUSET_INIT;
	size_t bytes = CPU_ALLOC_SIZE(CPUSET_MAX_CPUS);
	cpu_set_t *all;
	int r;

	r = pin_get_affinity(0, &old);
	if (r < 0)
		return r;
	/* Ask for every CPU cpm can name: the kernel keeps what the
	 * cpuset allows and is online. */
	all = CPU_ALLOC(CPUSET_MAX_CPUS);
	if (all == NULL) {
		cpuset_free(&old);
		return -ENOMEM;
	}
	memset(all, 0xff, bytes);
	r = sched_setaffinity(0, bytes, all) < 0 ? -errno : 0;
	CPU_FREE(all);
	if (r == 0)
		r = pin_get_affinity(0, out);
	if (pin_set_affinity(0, &old) < 0 && r == 0)
		r = -EIO;
	cpuset_free(&old);
	return r;
}

int
pin_within_affinity(pid_t tid, const struct cpuset *cpus)
{
	struct cpuset cur = CPUSET_INIT;
	int r;

	r = pin_get_affinity(tid, &cur);
	if (r == 0)
		r = !cpuset_empty(cpus) && cpuset_subset(cpus, &cur);
	cpuset_free(&cur);
	return r;
}

bool
pin_pid_exists(const struct sysroot *r, pid_t pid)
{
	char path[64];

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "proc/%d", (int)pid);
	return sysroot_exists(r, path);
}

int
pin_pid_allowed_cpus(const struct sysroot *r, pid_t pid, struct cpuset *out)
{
	char mine[4096], theirs[4096];
	ssize_t a, b;

	b = proc_cpuset(r, pid, theirs, sizeof(theirs));
	if (b == -ENOENT && !pin_pid_exists(r, pid))
		return -ESRCH;
	a = proc_cpuset(r, 0, mine, sizeof(mine));
	if (a < 0 || b < 0)
		return -ENODATA;	/* no cpuset support: cannot tell */
	if (strcmp(mine, theirs) != 0)
		return -ENODATA;
	return pin_self_allowed_cpus(out);
}

/* ---- threads ---- */

static int
cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int
pin_list_threads(const struct sysroot *r, pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *de;
	pid_t *v = NULL;
	size_t n = 0, cap = 0;
	DIR *d;
	int fd;

	snprintf(path, sizeof(path), "proc/%d/task", (int)pid);
	fd = sysroot_open_dir(r, path);
	if (fd < 0)
		return fd == -ENOENT ? -ESRCH : fd;
	d = fdopendir(fd);
	if (d == NULL) {
		int e = -errno;

		close(fd);
		return e;
	}
	while ((de = readdir(d)) != NULL) {
		unsigned int tid;

		if (parse_uint(de->d_name, 0x7fffffff, &tid) < 0 || tid == 0)
			continue;
		if (n == cap) {
			pid_t *nv;

			cap = cap ? 2 * cap : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (nv == NULL) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = (pid_t)tid;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_pid);
	*tids = v;
	return (int)n;
}

/* ---- memory policy ---- */

/*
 * libnuma, opened on first use, into *nl.  Its constructor probes
 * MPOL_PREFERRED_MANY on this thread and puts the policy it read back: a
 * failure there is reported by the call that opens it.  Returns 0, -ENOSYS (no library, no
 * NUMA support) or the -errno libnuma saw; err explains.
 */
static int
numa_ready(const struct numaload **nl, char *err, size_t errlen)
{
	bool opening = !numaload_loaded();
	char why[256];
	int r;

	*nl = numaload(err, errlen);
	if (*nl == NULL)
		return -ENOSYS;
	r = opening ? pin_numa_status(why, sizeof(why)) : 0;
	if (r < 0) {
		snprintf(err, errlen, "the memory policy may have been changed "
			 "when libnuma started: %s", why);
		return r;
	}
	if ((*nl)->available() < 0) {
		snprintf(err, errlen, "this kernel has no NUMA memory policy "
			 "support");
		return -ENOSYS;
	}
	return 0;
}

/* A libnuma node mask holding nodes; -ERANGE names a node too high. */
static int
to_nodemask(const struct numaload *nl, const struct cpuset *nodes,
	    struct bitmask **out, char *err, size_t errlen)
{
	struct bitmask *bm = nl->allocate_nodemask();
	int n;

	if (bm == NULL)
		return -ENOMEM;
	cpuset_for_each(n, nodes) {
		/* numa_bitmask_setbit() silently ignores bits past the
		 * mask; refuse them instead. */
		if ((unsigned long)n >= bm->size) {
			snprintf(err, errlen, "node %d is beyond the %lu nodes "
				 "libnuma supports", n, bm->size);
			nl->bitmask_free(bm);
			return -ERANGE;
		}
		nl->bitmask_setbit(bm, (unsigned int)n);
	}
	*out = bm;
	return 0;
}

int
pin_set_mempolicy(enum pin_mem mode, const struct cpuset *nodes, char *err,
		  size_t errlen)
{
	const struct numaload *nl;
	struct bitmask *bm = NULL;
	const char *what = pin_mem_name(mode);
	int r;

	/* Modes libnuma may lack: no libnuma needed. */
	if (mode == PIN_MEM_PREFERRED_MANY)
		return mempolicy_set(MEMPOLICY_PREFERRED_MANY, nodes, err,
				     errlen);
	if (mode == PIN_MEM_WEIGHTED)
		return mempolicy_set(MEMPOLICY_WEIGHTED_INTERLEAVE, nodes, err,
				     errlen);
	r = numa_ready(&nl, err, errlen);
	if (r < 0)
		return r;
	if (mode != PIN_MEM_LOCAL) {
		r = to_nodemask(nl, nodes, &bm, err, errlen);
		if (r < 0)
			return r;
	}
	numa_failed_errno = 0;
	numa_failed_where[0] = '\0';
	errno = 0;
	switch (mode) {
	case PIN_MEM_LOCAL:
		nl->set_localalloc();
		break;
	case PIN_MEM_BIND:
		nl->set_membind(bm);
		break;
	case PIN_MEM_INTERLEAVE:
		nl->set_interleave_mask(bm);
		break;
	case PIN_MEM_PREFERRED:
		if (cpuset_count(nodes) == 1) {
			nl->set_preferred(cpuset_first(nodes));
		} else if (nl->has_preferred_many() > 0) {
			what = "preferred-many";
			nl->set_preferred_many(bm);
		} else {
			snprintf(err, errlen, "this kernel cannot prefer several "
				 "nodes (no MPOL_PREFERRED_MANY); name one node");
			nl->bitmask_free(bm);
			return -EOPNOTSUPP;
		}
		break;
	default:
		if (bm)
			nl->bitmask_free(bm);
		snprintf(err, errlen, "memory policy '%s' cannot be set", what);
		return -EINVAL;
	}
	if (bm)
		nl->bitmask_free(bm);
	if (numa_failed_errno) {
		r = -numa_failed_errno;
		snprintf(err, errlen, "cannot set memory policy %s: %s: %s",
			 what, numa_failed_where, strerror(numa_failed_errno));
		return r;
	}
	return 0;
}

int
pin_numa_status(char *err, size_t errlen)
{
	if (numa_failed_errno == 0)
		return 0;
	snprintf(err, errlen, "libnuma failed in %s: %s", numa_failed_where,
		 strerror(numa_failed_errno));
	return -numa_failed_errno;
}

/* get_mempolicy() with a node mask big enough for the kernel's. */
static int
get_policy_raw(int *mode, struct cpuset *nodes, unsigned long flags)
{
	unsigned long nbits = 1024;

	for (;;) {
		size_t words = nbits / BITS_PER_LONG;
		unsigned long *mask = calloc(words, sizeof(unsigned long));
		int r = 0;

		if (mask == NULL)
			return -ENOMEM;
		if (syscall(SYS_get_mempolicy, mode, mask, nbits, NULL,
			    flags) < 0) {
			r = -errno;
			free(mask);
			if (r == -EINVAL && nbits < CPUSET_MAX_CPUS) {
				nbits *= 2;
				continue;
			}
			return r;
		}
		r = cpuset_from_mask(nodes, mask, words * sizeof(*mask));
		free(mask);
		return r;
	}
}

int
pin_get_mempolicy(struct pin_policy *p)
{
	int mode = 0, r;

	r = get_policy_raw(&mode, &p->nodes, 0);
	if (r < 0)
		return r;
	p->flags[0] = '\0';
	p->many = false;
	if (mode & PIN_MPOL_F_STATIC_NODES)
		snprintf(p->flags, sizeof(p->flags), "static");
	else if (mode & PIN_MPOL_F_RELATIVE_NODES)
		snprintf(p->flags, sizeof(p->flags), "relative");
	if (mode & PIN_MPOL_F_NUMA_BALANCING)
		snprintf(p->flags + strlen(p->flags),
			 sizeof(p->flags) - strlen(p->flags), "%sbalancing",
			 p->flags[0] ? "|" : "");
	switch (mode & ~PIN_MPOL_MODE_FLAGS) {
	case MPOL_DEFAULT:
		p->mode = PIN_MEM_DEFAULT;
		break;
	case MPOL_PREFERRED:
		/* Before Linux 5.x MPOL_LOCAL read back as PREFERRED with
		 * no node. */
		p->mode = cpuset_empty(&p->nodes) ? PIN_MEM_LOCAL :
			  PIN_MEM_PREFERRED;
		break;
	case MPOL_BIND:
		p->mode = PIN_MEM_BIND;
		break;
	case MPOL_INTERLEAVE:
		p->mode = PIN_MEM_INTERLEAVE;
		break;
	case MPOL_LOCAL:
		p->mode = PIN_MEM_LOCAL;
		break;
	case MPOL_PREFERRED_MANY:
		p->mode = PIN_MEM_PREFERRED;
		p->many = true;
		break;
	case PIN_MPOL_WEIGHTED_INTERLEAVE:
		p->mode = PIN_MEM_WEIGHTED;
		break;
	default:
		p->mode = PIN_MEM_UNKNOWN;
	}
	if (p->mode == PIN_MEM_DEFAULT || p->mode == PIN_MEM_LOCAL)
		cpuset_zero(&p->nodes);
	return 0;
}

int
pin_self_mems_allowed(struct cpuset *out)
{
	int mode;

	return get_policy_raw(&mode, out, MPOL_F_MEMS_ALLOWED);
}

int
pin_within_mems_allowed(const struct cpuset *nodes)
{
	struct cpuset mems = CPUSET_INIT;
	int r;

	r = pin_self_mems_allowed(&mems);
	if (r == 0)
		r = !cpuset_empty(nodes) && cpuset_subset(nodes, &mems);
	cpuset_free(&mems);
	return r;
}

bool
pin_policy_matches(const struct pin_policy *got, enum pin_mem mode,
		   const struct cpuset *nodes)
{
	if (mode == PIN_MEM_PREFERRED_MANY)
		return got->mode == PIN_MEM_PREFERRED && got->many &&
		       cpuset_equal(&got->nodes, nodes);
	if (got->mode != mode)
		return false;
	if (mode == PIN_MEM_LOCAL || mode == PIN_MEM_DEFAULT)
		return true;
	if (mode == PIN_MEM_PREFERRED && got->many != (cpuset_count(nodes) > 1))
		return false;
	return cpuset_equal(&got->nodes, nodes);
}

/*
 * Parse the policy field of a numa_maps line ("bind:0-1",
 * "prefer (many)=static:0,2", "default") at s.
 */
static int
parse_maps_policy(const char *s, struct pin_policy *p)
{
	static const struct {
		const char *word;
		enum pin_mem mode;
		bool many;
	} words[] = {
		/* Longest first: "interleave" is a suffix of "weighted
		 * interleave", "prefer" a prefix of "prefer (many)". */
		{ "weighted interleave", PIN_MEM_WEIGHTED, false },
		{ "prefer (many)", PIN_MEM_PREFERRED, true },
		{ "interleave", PIN_MEM_INTERLEAVE, false },
		{ "default", PIN_MEM_DEFAULT, false },
		{ "prefer", PIN_MEM_PREFERRED, false },
		{ "bind", PIN_MEM_BIND, false },
		{ "local", PIN_MEM_LOCAL, false },
	};
	size_t i, n;
	char list[4096];

	p->flags[0] = '\0';
	cpuset_zero(&p->nodes);
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (startswith(s, words[i].word))
			break;
	if (i == ARRAY_SIZE(words))
		return -EINVAL;
	p->mode = words[i].mode;
	p->many = words[i].many;
	s += strlen(words[i].word);
	if (*s == '=') {
		s++;
		n = strcspn(s, ": \n");
		snprintf(p->flags, sizeof(p->flags), "%.*s", (int)n, s);
		s += n;
	}
	if (*s == ':') {
		s++;
		n = strcspn(s, " \n");
		if (n >= sizeof(list))
			return -EINVAL;
		memcpy(list, s, n);
		list[n] = '\0';
		if (cpuset_parse_list(list, &p->nodes, NULL, 0) < 0)
			return -EINVAL;
	}
	return 0;
}

/* What pin_read_task_policy() keeps of numa_maps as it streams by. */
struct task_policy_scan {
	char first[512];	/* the first line's policy field on */
	bool have_first;
	struct pin_policy *p;
	int r;			/* parse_maps_policy() of the stack's */
};

static int
task_policy_line(void *arg, char *line, size_t len)
{
	struct task_policy_scan *sc = arg;
	char *sp = memchr(line, ' ', len);

	if (sp == NULL)
		return 0;
	/*
	 * Mappings without a policy of their own show the task's; the main
	 * stack is one that programs practically never mbind().
	 */
	if (memmem(line, len, " stack", 6) != NULL) {
		sc->r = parse_maps_policy(sp + 1, sc->p);
		return 1;
	}
	if (!sc->have_first) {
		snprintf(sc->first, sizeof(sc->first), "%s", sp + 1);
		sc->have_first = true;
	}
	return 0;
}

int
pin_read_task_policy(const struct sysroot *r, pid_t pid, struct pin_policy *p)
{
	struct task_policy_scan sc = { .p = p };
	char path[64];
	int ret;

	proc_path(path, sizeof(path), pid, "numa_maps");
	p->mode = PIN_MEM_UNKNOWN;
	cpuset_zero(&p->nodes);
	p->flags[0] = '\0';
	ret = sysroot_read_lines(r, path, task_policy_line, &sc);
	if (ret == -ENOENT)
		return pin_pid_exists(r, pid) ? -ENOENT : -ESRCH;
	if (ret < 0)
		return ret;
	if (ret == 0 && sc.have_first)
		sc.r = parse_maps_policy(sc.first, p);
	return sc.r < 0 ? sc.r : 0;
}

/* What pin_pages_outside() counts as numa_maps streams by. */
struct outside_scan {
	const struct cpuset *nodes;
	unsigned long *outside;
	struct cpuset *where;
};

static int
outside_line(void *arg, char *line, size_t len)
{
	struct outside_scan *sc = arg;
	char *p, *end;

	/* Fields " N<node>=<pages>" anywhere on the line. */
	for (p = line; (p = memmem(p, len - (size_t)(p - line), " N", 2)) != NULL;
	     p++) {
		unsigned long node, pages;

		if (p[2] < '0' || p[2] > '9')
			continue;
		node = strtoul(p + 2, &end, 10);
		if (*end != '=' || end[1] < '0' || end[1] > '9')
			continue;
		pages = strtoul(end + 1, &end, 10);
		if (node >= CPUSET_MAX_CPUS ||
		    cpuset_isset(sc->nodes, (unsigned int)node))
			continue;
		*sc->outside += pages;
		if (cpuset_set(sc->where, (unsigned int)node) < 0)
			return -ENOMEM;
	}
	return 0;
}

int
pin_pages_outside(const struct sysroot *r, pid_t pid,
		  const struct cpuset *nodes, unsigned long *outside,
		  struct cpuset *where)
{
	struct outside_scan sc = { nodes, outside, where };
	char path[64];
	int ret;

	proc_path(path, sizeof(path), pid, "numa_maps");
	*outside = 0;
	cpuset_zero(where);
	ret = sysroot_read_lines(r, path, outside_line, &sc);
	return ret == -ENOENT ? -ESRCH : ret;
}

int
pin_migrate_pages(pid_t pid, const struct cpuset *from,
		  const struct cpuset *to, long *not_moved, char *err,
		  size_t errlen)
{
	const struct numaload *nl;
	struct bitmask *f = NULL, *t = NULL;
	int r;

	r = numa_ready(&nl, err, errlen);
	if (r < 0)
		return r;
	r = to_nodemask(nl, from, &f, err, errlen);
	if (r == 0)
		r = to_nodemask(nl, to, &t, err, errlen);
	if (r == 0) {
		numa_failed_errno = 0;
		*not_moved = nl->migrate_pages((int)pid, f, t);
		if (*not_moved < 0) {
			r = -errno;
			snprintf(err, errlen, "cannot move the pages of process "
				 "%d: %s", (int)pid, strerror(errno));
		}
	}
	if (f)
		nl->bitmask_free(f);
	if (t)
		nl->bitmask_free(t);
	return r;
}

int
pin_mismatch(const char *what, const struct cpuset *want,
	     const struct cpuset *got, char *err, size_t errlen)
{
	struct cpuset lost = CPUSET_INIT, extra = CPUSET_INIT;
	char *w = cpuset_to_list(want), *g = cpuset_to_list(got), *l = NULL,
		*e = NULL;
	int r = -ENOMEM;

	if (cpuset_copy(&lost, want) < 0 || cpuset_copy(&extra, got) < 0)
		goto out;
	cpuset_andnot(&lost, got);
	cpuset_andnot(&extra, want);
	l = cpuset_to_list(&lost);
	e = cpuset_to_list(&extra);
	if (!w || !g || !l || !e)
		goto out;
	snprintf(err, errlen, "%s is %s, not %s as asked%s%s%s%s%s%s", what,
		 *g ? g : "empty", w, *l ? " (missing: " : "", l,
		 *l ? ")" : "", *e ? " (extra: " : "", e, *e ? ")" : "");
	r = -EIO;
out:
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(w);
	free(g);
	free(l);
	free(e);
	cpuset_free(&lost);
	cpuset_free(&extra);
	return r;
}

/* ---- the run form ---- */

static int
misfit(int r)
{
	return r == -ENOMEM ? r : r < 0 ? -EINVAL : 0;
}

/* Local allocation follows the CPU: every memory node of cpus must be
 * one of nodes. */
static int
check_local(const struct topo *t, const struct cpuset *cpus,
	    const struct cpuset *nodes, char *err, size_t errlen)
{
	struct cpuset local = CPUSET_INIT;
	char *ln, *nn;
	int r;

	r = pin_mem_nodes_of(t, cpus, &local, err, errlen);
	if (r == -ENOMEM || r < 0 || cpuset_subset(&local, nodes)) {
		cpuset_free(&local);
		return r == -ENOMEM ? r : 0;
	}
	ln = cpuset_to_list(&local);
	nn = cpuset_to_list(nodes);
	r = -ENOMEM;
	if (ln && nn) {
		snprintf(err, errlen, "--mem local allocates on the CPUs' nodes "
			 "%s, not only on --nodes %s (use --mem bind or "
			 "preferred)", ln, nn);
		r = -EINVAL;
	}
	free(ln);
	free(nn);
	cpuset_free(&local);
	return r;
}

int
pin_policy_nodes(const struct topo *t, const struct cpuset *cpus,
		 enum pin_mem mode, bool have_nodes, struct cpuset *nodes,
		 const struct cpuset *mems_allowed, const char *whose,
		 char *err, size_t errlen)
{
	int r;

	if (mode == PIN_MEM_KEEP)
		return 0;
	if (have_nodes) {
		r = misfit(pin_check_nodes(t, nodes, mems_allowed, whose, err,
					   errlen));
		if (r < 0)
			return r;
	}
	if (mode == PIN_MEM_LOCAL)
		return have_nodes ? check_local(t, cpus, nodes, err, errlen) : 0;
	if (have_nodes)
		return 0;
	r = misfit(pin_mem_nodes_of(t, cpus, nodes, err, errlen));
	if (r == 0)
		r = misfit(pin_check_nodes(t, nodes, mems_allowed, whose, err,
					   errlen));
	return r;
}

void
pin_policy_asked(enum pin_mem mode, const struct cpuset *nodes,
		 struct strbuf *sb)
{
	struct pin_policy p;

	pin_policy_init(&p);
	p.mode = mode;
	if (mode != PIN_MEM_LOCAL && cpuset_copy(&p.nodes, nodes) < 0)
		sb->oom = true;
	p.many = (mode == PIN_MEM_PREFERRED && cpuset_count(nodes) > 1) ||
		 mode == PIN_MEM_PREFERRED_MANY;
	if (mode == PIN_MEM_PREFERRED_MANY)
		p.mode = PIN_MEM_PREFERRED;
	pin_policy_format(&p, sb);
	pin_policy_free(&p);
}

/* Set the memory policy and read it back. */
static int
apply_policy(enum pin_mem mode, const struct cpuset *nodes, char *err,
	     size_t errlen)
{
	struct pin_policy p;
	struct strbuf got, want;
	int r;

	r = pin_set_mempolicy(mode, nodes, err, errlen);
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (r < 0)
		return r;
	pin_policy_init(&p);
	r = pin_get_mempolicy(&p);
	if (r < 0) {
		snprintf(err, errlen, "cannot read the memory policy back: %s",
			 strerror(-r));
		pin_policy_free(&p);
		return r;
	}
	if (!pin_policy_matches(&p, mode, nodes)) {
		strbuf_init(&got);
		strbuf_init(&want);
		pin_policy_format(&p, &got);
		pin_policy_asked(mode, nodes, &want);
		snprintf(err, errlen, "the memory policy is '%s', not '%s' as "
			 "asked", got.buf ? got.buf : "?",
			 want.buf ? want.buf : "?");
		strbuf_free(&got);
		strbuf_free(&want);
		r = -EIO;
	}
	pin_policy_free(&p);
	return r;
}

int
pin_apply_self(const struct cpuset *cpus, enum pin_mem mode,
	       const struct cpuset *nodes, struct cpuset *got, char *err,
	       size_t errlen)
{
	char *l;
	int r;

	r = pin_set_affinity(0, cpus);
	if (r < 0) {
		l = cpuset_to_list(cpus);
		snprintf(err, errlen, "cannot set the affinity to CPUs %s: %s",
			 l ? l : "?", strerror(-r));
		free(l);
		return r;
	}
	r = pin_get_affinity(0, got);
	if (r < 0) {
		snprintf(err, errlen, "cannot read the affinity back: %s",
			 strerror(-r));
		return r;
	}
	if (!cpuset_equal(got, cpus))
		return pin_mismatch("the affinity", cpus, got, err, errlen);
	/* Without a policy libnuma is never opened, so its start-up probe
	 * never touches the inherited policy. */
	return mode == PIN_MEM_KEEP ? 0 : apply_policy(mode, nodes, err,
						       errlen);
}

int
pin_migrate_process(const struct topo *t, const struct sysroot *live,
		    pid_t pid, const struct cpuset *nodes, char *err,
		    size_t errlen)
{
	struct cpuset from = CPUSET_INIT, where = CPUSET_INIT;
	unsigned long left = 0;
	long not_moved = 0;
	char *w;
	int i, r = 0;

	/* Every node with memory is a source. */
	for (i = 0; r == 0 && i < t->nnodes; i++)
		if (t->nodes[i].mem_total_kb != 0)
			r = cpuset_set(&from, (unsigned int)t->nodes[i].id);
	if (r == 0 && t->nnodes == 0)
		r = cpuset_set(&from, 0);
	if (r == 0)
		r = pin_migrate_pages(pid, &from, nodes, &not_moved, err,
				      errlen);
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (r < 0)
		goto out;
	r = pin_pages_outside(live, pid, nodes, &left, &where);
	if (r < 0) {
		snprintf(err, errlen, "cannot read the pages of process %d "
			 "back: %s", (int)pid, strerror(-r));
		goto out;
	}
	if (left > 0 || not_moved > 0) {
		w = cpuset_to_list(&where);
		snprintf(err, errlen, "%lu pages of process %d are still on "
			 "node%s %s (the kernel could not move %ld)", left,
			 (int)pid, cpuset_count(&where) == 1 ? "" : "s",
			 w && *w ? w : "-", not_moved);
		free(w);
		r = -EIO;
	}
out:
	cpuset_free(&from);
	cpuset_free(&where);
	return r;
}

void
pin_runner_limits(const struct sysroot *root, const struct topo *t,
		  struct cpuset *cpus, bool *have_cpus, struct cpuset *mems,
		  bool *have_mems)
{
	if (root->live) {
		*have_cpus = pin_self_allowed_cpus(cpus) == 0;
		*have_mems = pin_self_mems_allowed(mems) == 0;
		return;
	}
	*have_cpus = t->allowed_known && cpuset_copy(cpus, &t->allowed) == 0;
	*have_mems = proc_status_list(root, 0, "Mems_allowed_list", mems) == 0;
}
