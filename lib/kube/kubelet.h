/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kubelet CPU Manager static policy's CPU selection, reproduced
 * exactly: takeByTopologyNUMAPacked, takeByTopologyNUMADistributed, and the
 * Allocate step around them (full-pcpus-only checks, NUMA-hint alignment).
 *
 * Terminology (the kubelet's):
 *   core     a physical core, identified by its lowest CPU id;
 *   socket   physical package;
 *   uncore   the last-level (L3) cache group, the socket when unknown;
 *   free     all CPUs of a unit are in the available set.
 */
#ifndef CPM_KUBELET_H
#define CPM_KUBELET_H

#include <stdbool.h>

#include "base/cpuset.h"
#include "machine/topo.h"

/* count values of one attribute for consecutive CPUs: first, first +
 * step, ... */
struct krun {
	int first, step, count;
};

/* The CPU topology as the kubelet sees it (cAdvisor's view of sysfs). */
struct ktopo_cpu {
	int core, socket, numa, uncore;	/* -1: not a CPU of the topology */
};

struct ktopo {
	int ncpus;			/* size of cpu[] (highest CPU + 1) */
	struct ktopo_cpu *cpu;		/* NULL: see runs */
	struct cpuset all;		/* CPUs of the topology */
	/* Header counts, as the kubelet's CPUTopology declares them. */
	int num_cpus, num_cores, num_sockets, num_numa, num_uncore;
	/*
	 * Kept by ktopo_count() for the index every take builds: for each
	 * attribute (core, socket, NUMA node, uncore) the distinct ids of
	 * the topology's CPUs, ascending, and a table from id - rank_lo to
	 * the id's place among them (NULL: ids too far apart for one).
	 * ids NULL: not kept.  Valid until cpu[] changes, as the counts.
	 */
	int *ids[4], nids[4], *rank[4], rank_lo[4];
	/*
	 * Kept by ktopo_from_runs(), dropped with the ids: each
	 * attribute's values as the runs it was given, for the index to
	 * be built a run at a time; cpu is then NULL until ktopo_cpus().
	 * NULL: not kept.
	 */
	struct krun *runs[4];
	int nruns[4];
};

/*
 * Build the kubelet's view of t: online CPUs; core = lowest sibling;
 * uncore = L3 group id, else the socket.  Returns 0 or -ENOMEM.
 */
int ktopo_from_topo(struct ktopo *kt, const struct topo *t);
void ktopo_free(struct ktopo *kt);

/*
 * Make kt an empty topology of ncpus CPU slots (every slot -1), for
 * callers that describe a machine by hand.  Returns 0, -EINVAL (ncpus
 * negative or above CPUSET_MAX_CPUS) or -ENOMEM.
 */
int ktopo_alloc(struct ktopo *kt, int ncpus);

/*
 * Fill kt->all and the header counts from kt->cpu[] the way the kubelet's
 * discovery derives them: num_cpus and num_cores count CPUs and distinct
 * cores, the other counts distinct ids (kept in kt->ids).  Call it again
 * after changing kt->cpu[].  Returns 0 or -ENOMEM.
 */
int ktopo_count(struct ktopo *kt);

/*
 * ktopo_count() for a caller that has found what its pass over kt->cpu
 * finds: all, the CPUs with all four values set, their number n, and
 * the lowest and highest core, socket, NUMA and uncore id among them.
 * Returns 0 or -ENOMEM.
 */
int ktopo_count_known(struct ktopo *kt, const struct cpuset *all, int n,
		      const int lo[4], const int hi[4]);

/*
 * kt from each attribute's values as runs: runs[k][0..nruns[k]) (k:
 * core, socket, NUMA, uncore) give the values of CPUs 0, 1, ...,
 * ncpus - 1 in order, none negative, so that every slot is a CPU of the
 * topology.  The same as filling kt->cpu and calling ktopo_count(), with
 * the ids marked a run at a time (kt->cpu itself may be left for
 * ktopo_cpus(), below).  Returns 0, -EINVAL (runs that do not
 * cover ncpus CPUs exactly, a negative value, more than CPUSET_MAX_CPUS
 * CPUs) or -ENOMEM.
 */
int ktopo_from_runs(struct ktopo *kt, int ncpus,
		    const struct krun *const runs[4], const int nruns[4]);

/*
 * kt->cpu[] of a topology ktopo_from_runs() made without it (when the
 * runs are no more than the CPUs and the ids close, as on most
 * machines, it keeps the runs instead and a take builds its index from
 * them), for the callers
 * that look at single CPUs.  Returns 0 (also when kt has it), -ENOMEM.
 */
int ktopo_cpus(struct ktopo *kt);

/* Whether kt was made (by any of the functions above). */
static inline bool
ktopo_made(const struct ktopo *kt)
{
	return kt->cpu || kt->runs[0];
}

/* Widen lo[] and hi[] (core, socket, NUMA, uncore) to take in p's ids. */
static inline void
ktopo_bound(int lo[4], int hi[4], const struct ktopo_cpu *p)
{
	const int v[4] = { p->core, p->socket, p->numa, p->uncore };
	int k;

	for (k = 0; k < 4; k++) {
		lo[k] = v[k] < lo[k] ? v[k] : lo[k];
		hi[k] = v[k] > hi[k] ? v[k] : hi[k];
	}
}

struct ktake_opts {
	bool spread_cores;	/* distribute-cpus-across-cores */
	bool prefer_l3;		/* prefer-align-cpus-by-uncorecache */
	bool full_cores;	/* full-pcpus-only */
	int distribute;		/* distribute-cpus-across-numa: 0 off, else
				 * the group size (1, or CPUs per core); as
				 * in the kubelet, full_cores turns a group
				 * of 1 into CPUs per core in kubelet_take */
	bool align_socket;	/* align-by-socket */
	bool single_numa_node;	/* the Topology Manager policy is
				 * single-numa-node (only checked against
				 * align_socket by ktake_opts_check) */
};

/*
 * Validate an option combination the way the kubelet does at start-up.
 * Returns 0 or -EINVAL with err naming the conflicting options.
 */
int ktake_opts_check(const struct ktopo *kt, const struct ktake_opts *o,
		     char *err, size_t errlen);

/*
 * Choose n CPUs from avail as the kubelet's static policy would, given an
 * optional NUMA hint (prefer_nodes: NULL or a set of NUMA node ids) and the
 * CPUs that are reserved (only used for the full-pcpus-only capacity check;
 * may be NULL).  The result goes to out.
 *
 * Like the kubelet's Allocate: with full_cores, refuse a count that is not
 * a multiple of CPUs per core, or larger than avail minus every thread of
 * a core holding a reserved CPU; with a hint, take min(n, aligned) CPUs
 * from the hint's NUMA nodes (with align_socket: from the sockets holding
 * them), then the rest from the remaining available CPUs; each take is
 * the distributed algorithm when o->distribute is set, else the packed one.
 *
 * Returns 0; -EINVAL when the request breaks an option's rule (odd count
 * with full_cores); -ENOSPC when the CPUs cannot be found (not enough
 * CPUs, not enough free physical CPUs, or the kubelet's own failure
 * messages); err gets the kubelet's message.  -ENOMEM on allocation
 * failure.  out is empty on failure.
 */
int kubelet_take(const struct ktopo *kt, const struct cpuset *avail, int n,
		 const struct ktake_opts *o, const struct cpuset *prefer_nodes,
		 const struct cpuset *reserved, struct cpuset *out,
		 char *err, size_t errlen);

/*
 * The two algorithms themselves: takeByTopologyNUMAPacked (spread is the
 * distribute-cpus-across-cores ordering, prefer_uncore the uncore step)
 * and takeByTopologyNUMADistributed (group: CPUs handed out together;
 * align_socket: the align-by-socket preference among NUMA combinations).
 * Same returns as kubelet_take(); n < 1 gives the empty set.
 */
int kubelet_take_packed(const struct ktopo *kt, const struct cpuset *avail,
			int n, bool spread, bool prefer_uncore,
			struct cpuset *out, char *err, size_t errlen);
int kubelet_take_distributed(const struct ktopo *kt,
			     const struct cpuset *avail, int n, int group,
			     bool spread, bool align_socket,
			     struct cpuset *out, char *err, size_t errlen);

/* The accumulator's orderings, for tests and explanations. */
enum kubelet_order {
	KORDER_NUMA,		/* NUMA node ids with a free CPU */
	KORDER_SOCKET,		/* socket ids */
	KORDER_CORE,		/* core ids */
	KORDER_UNCORE,		/* uncore cache ids */
	KORDER_FREE_CORE,	/* core ids of free cores */
	KORDER_CPU,		/* CPUs in single-CPU order (packed or spread) */
};

/*
 * Write the ordering "which" of the accumulator over avail (before any
 * take) into out[0..max); ids are the topology's.  Returns the length of
 * the whole list (may exceed max), or -ENOMEM.
 */
int kubelet_order(const struct ktopo *kt, const struct cpuset *avail,
		  enum kubelet_order which, bool spread, int *out, int max);

/*
 * Pick n reserved CPUs as the kubelet does without --reserved-cpus: the
 * same take over all CPUs of the topology, as if the machine were idle.
 * Returns 0, -ENOSPC when the take does not give exactly n CPUs (err:
 * the kubelet's "[cpumanager] unable to reserve ..." message), -ENOMEM.
 */
int kubelet_take_reserved(const struct ktopo *kt, int n,
			  const struct ktake_opts *o, struct cpuset *out,
			  char *err, size_t errlen);

#endif
