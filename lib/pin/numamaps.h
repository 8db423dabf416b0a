/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a process's or a cgroup's memory really is, and whether that
 * fits where it runs and the policy it has.
 *
 * Sources:
 *   /proc/PID/numa_maps   one line per mapping; "N<node>=<pages>" counts
 *                         resident pages of "kernelpagesize_kB=<kB>"
 *   memory.numa_stat      cgroup v1: "total=<pages> N0=<pages> ...";
 *                         v2: "anon N0=<bytes> ...", "file N0=<bytes> ..."
 *
 * Findings (numamaps_findings()), each a line with its numbers:
 *   far      most of the memory (more than half) on nodes that are not
 *            near the CPUs: near are the CPUs' nodes, and each CPU-less
 *            node the policy names (bind, preferred, preferred-many,
 *            interleave, weighted interleave) whose nearest initiator
 *            is one of them (HMAT access0 initiators, else access1, else
 *            the CPU nodes at the smallest SLIT distance): memory put a
 *            tier below the process's own node on purpose is not far;
 *   remote   a local (or default) policy with a tenth or more of its
 *            pages on nodes not the CPUs';
 *   outside  pages outside the nodes a bind or interleave policy allows;
 *   spread   interleave whose nodes hold less than half the share the
 *            policy gives them (weights for weighted interleave).
 * outside and spread judge what the policy places: of numa_maps, the
 * pages of mappings of no file (heap, stack, anonymous memory).  Pages
 * of files are the page cache's, shared, often read in before the
 * policy was set or by another process (the program's own text), and
 * not the policy's to place.
 * Below 1 MiB nothing is judged: a few pages say nothing.
 */
#ifndef CPM_NUMAMAPS_H
#define CPM_NUMAMAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "base/json.h"
#include "base/strbuf.h"
#include "machine/memtier.h"
#include "machine/sysroot.h"
#include "machine/topo.h"
#include "pin/pin.h"

struct numa_pages {
	int n;			/* nodes 0..n-1 */
	uint64_t *kb;		/* resident kB on each */
	uint64_t total_kb;
	bool anon_known;	/* anon_kb counted (numa_maps) */
	uint64_t *anon_kb;	/* of kb, in mappings of no file: the
				 * process's own data (heap, stack,
				 * anonymous mappings) */
	uint64_t anon_total_kb;
};

void numa_pages_init(struct numa_pages *np);
void numa_pages_free(struct numa_pages *np);

/* Add /proc/PID/numa_maps text.  Returns 0 or -ENOMEM. */
int numamaps_parse(const char *text, struct numa_pages *np);
/* The same of one line (len bytes, no newline), in time linear in len. */
int numamaps_parse_line(const char *line, size_t len, struct numa_pages *np);
/*
 * /proc/PID/numa_maps of pid below r, read a line at a time: in time
 * linear in its size and memory its longest line needs, whatever its
 * size (a process may have millions of mappings).  0, -ESRCH, or -errno.
 */
int numamaps_read_pid(const struct sysroot *r, pid_t pid,
		      struct numa_pages *np);
/*
 * memory.numa_stat text: v2 (bytes of anon and file) or v1 (pages of
 * "total", in page_kb units).  Returns 0, -ENOMEM, or -EINVAL when the
 * text has neither.
 */
int numastat_parse(const char *text, int version, unsigned int page_kb,
		   struct numa_pages *np);

/* A policy to judge against: mode, its nodes, and weights (weighted
 * interleave, indexed by node; NULL: equal). */
struct numa_policy {
	enum pin_mem mode;	/* PIN_MEM_KEEP: unknown */
	const struct cpuset *nodes;
	const int *weights;
	int nweights;
};

/*
 * Append one "warning: ..." line per finding to sb (whose: "process 12",
 * "cgroup 'a'") and, when j is not NULL, the same as JSON objects
 * {"kind", "message", ...} of an array being written.  mt (NULL: none)
 * gives the HMAT initiators.  Returns the count.
 */
int numamaps_findings(const struct topo *t, const struct memtier *mt,
		      const struct numa_pages *np, const struct cpuset *cpus,
		      const struct numa_policy *pol, const char *whose,
		      struct strbuf *sb, struct json *j);

/* "node 0 120.5 MiB (96%), node 1 4.0 MiB (4%)" into sb; "none". */
void numa_pages_format(const struct numa_pages *np, struct strbuf *sb);

/* {"total_kb": N, "nodes": [{"node", "kb", "percent"}]} as a JSON value. */
void numa_pages_json(const struct numa_pages *np, struct json *j);

#endif
