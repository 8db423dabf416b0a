/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU sets of any size, and the kernel's list grammar.
 *
 * Terminology:
 *   cpuset   a set of CPU (or NUMA node) numbers held in memory here; not
 *            to be confused with the cgroup controller of the same name.
 *   cpulist  the text form "0-3,8-11" (the kernel's %*pbl); input also
 *            takes "a-b:used/group", commas or white space, and a
 *            trailing newline (see cpuset_parse_list()).
 *   cpumask  the hex form "0000ffff,00000000" printed by the sysfs "cpumap" files.
 *
 * A struct cpuset grows as bits are set, so it can hold the 8192 CPUs of
 * the largest machines, or more.  A zeroed struct is a valid empty set.
 * Functions that may grow the set return 0 or -ENOMEM.
 */
#ifndef CPM_CPUSET_H
#define CPM_CPUSET_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* The highest CPU number cpm accepts anywhere, plus one. */
#define CPUSET_MAX_CPUS 65536

struct cpuset {
	uint64_t *bits;
	unsigned int nwords;
};

#define CPUSET_INIT { NULL, 0 }

void cpuset_init(struct cpuset *s);
void cpuset_free(struct cpuset *s);
void cpuset_zero(struct cpuset *s);
int cpuset_set(struct cpuset *s, unsigned int cpu);
int cpuset_set_range(struct cpuset *s, unsigned int first, unsigned int last);
/* Room for CPUs below ncpus without growing again.  0 or -ENOMEM. */
int cpuset_reserve(struct cpuset *s, unsigned int ncpus);
void cpuset_clear(struct cpuset *s, unsigned int cpu);
/* Inline: it is asked once per CPU in the allocator's loops. */
static inline bool
cpuset_isset(const struct cpuset *s, unsigned int cpu)
{
	return cpu / 64 < s->nwords && (s->bits[cpu / 64] >> (cpu % 64) & 1);
}
unsigned int cpuset_count(const struct cpuset *s);
bool cpuset_empty(const struct cpuset *s);
int cpuset_first(const struct cpuset *s);		/* -1 when empty */
int cpuset_next(const struct cpuset *s, int prev);	/* -1 at the end */
int cpuset_last(const struct cpuset *s);		/* -1 when empty */

/* for (cpu = first; cpu >= 0; cpu = next) */
#define cpuset_for_each(cpu, s) \
	for ((cpu) = cpuset_first(s); (cpu) >= 0; (cpu) = cpuset_next((s), (cpu)))

/* dst = src */
int cpuset_copy(struct cpuset *dst, const struct cpuset *src);
/* dst |= src */
int cpuset_or(struct cpuset *dst, const struct cpuset *src);
/*
 * dst |= src's words w0 to nw - 1, where all of src's CPUs lie (nw <=
 * src->nwords): the OR of a set whose few CPUs are known to sit far
 * from CPU 0 or its end.  Inline: a state's every entry line makes one.
 */
static inline int
cpuset_or_words(struct cpuset *dst, const struct cpuset *src,
		unsigned int w0, unsigned int nw)
{
	if (dst->nwords < nw && cpuset_reserve(dst, nw * 64) < 0)
		return -ENOMEM;
	for (; w0 < nw; w0++)
		dst->bits[w0] |= src->bits[w0];
	return 0;
}
/* dst &= src */
void cpuset_and(struct cpuset *dst, const struct cpuset *src);
/* dst &= ~src */
void cpuset_andnot(struct cpuset *dst, const struct cpuset *src);
bool cpuset_equal(const struct cpuset *a, const struct cpuset *b);
/* every member of a is in b */
bool cpuset_subset(const struct cpuset *a, const struct cpuset *b);
bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b);
/* number of members in a & b */
unsigned int cpuset_count_and(const struct cpuset *a, const struct cpuset *b);

/*
 * Parse text in the kernel list grammar into s (which is emptied first):
 *   list   := { sep } [ region { sep+ region } ] { sep } [ '\n' ]
 *   sep    := ',' | ' ' | '\t'
 *   region := num [ '-' num [ ':' used '/' group ] ]
 * Numbers are plain decimal (no sign, no leading zeros) below
 * CPUSET_MAX_CPUS.  "" and "\n" give the empty set.  Returns 0,
 * -EINVAL (syntax), -ERANGE (too large); err (may be NULL) receives a
 * one-line explanation naming the offending part.
 */
int cpuset_parse_list(const char *text, struct cpuset *s, char *err,
		      size_t errlen);

/*
 * Walk text in the list grammar without building a set: fn(arg, first,
 * last) gets each run of CPUs in the order written (a stride gives one
 * run per group), and the walk stops at the first negative return, which
 * it passes on.  Costs what the text holds, not the highest CPU: the way
 * to read thousands of short sibling lists.  Errors as cpuset_parse_list
 * (runs before a syntax error have been handed over).
 */
typedef int cpuset_range_fn(void *arg, unsigned int first, unsigned int last);
int cpuset_walk_list(const char *text, cpuset_range_fn *fn, void *arg,
		     char *err, size_t errlen);

/*
 * Walk a kernel hex cpumask the same way: fn gets each run of set bits,
 * lowest first.  Returns 0, -EINVAL/-ERANGE as cpuset_parse_mask (runs
 * of the lower bits may have been handed over), or fn's negative return.
 */
int cpuset_walk_mask(const char *text, cpuset_range_fn *fn, void *arg);

/*
 * Parse a kernel hex cpumask ("00000000,0000ffff\n", optional "0x") into
 * s.  Returns 0 or -EINVAL/-ERANGE.
 */
int cpuset_parse_mask(const char *text, struct cpuset *s);

/*
 * Canonical cpulist text of s into sb ("0-3,8-11"; nothing for an empty
 * set; no newline).
 */
void cpuset_format(const struct cpuset *s, struct strbuf *sb);

/* Canonical cpulist as a malloc'ed string, or NULL when out of memory. */
char *cpuset_to_list(const struct cpuset *s);

/*
 * To and from a mask as the kernel takes it (cpu_set_t of CPU_ALLOC(),
 * the node masks of get_mempolicy()): an array of unsigned long, bit i of
 * word w for CPU w * bits-per-long + i.  bytes is the mask size, a
 * multiple of sizeof(unsigned long); CPUs that do not fit are reported by
 * returning -ERANGE.
 */
int cpuset_to_mask(const struct cpuset *s, void *mask, size_t bytes);
int cpuset_from_mask(struct cpuset *s, const void *mask, size_t bytes);

#endif
