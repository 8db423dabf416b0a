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

#include "cpuset.h"
#include "topo.h"

/* The CPU topology as the kubelet sees it (cAdvisor's view of sysfs). */
struct ktopo_cpu {
	int core, socket, numa, uncore;	/* -1: not a CPU of the topology */
};

struct ktopo {
	int ncpus;			/* size of cpu[] (highest CPU + 1) */
	struct ktopo_cpu *cpu;
	struct cpuset all;		/* CPUs of the topology */
	/* Header counts, as the kubelet's CPUTopology declares them. */
	int num_cpus, num_cores, num_sockets, num_numa, num_uncore;
};

/*
 * Build the kubelet's view of t: online CPUs; core = lowest sibling;
 * uncore = L3 group id, else the socket.  Returns 0 or -ENOMEM.
 */
int ktopo_from_topo(struct ktopo *kt, const struct topo *t);
void ktopo_free(struct ktopo *kt);

struct ktake_opts {
	bool spread_cores;	/* distribute-cpus-across-cores */
	bool prefer_l3;		/* prefer-align-cpus-by-uncorecache */
	bool full_cores;	/* full-pcpus-only */
	int distribute;		/* distribute-cpus-across-numa: 0 off, else
				 * the group size (1, or CPUs per core) */
	bool align_socket;	/* align-by-socket */
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
 * Returns 0; -ENOSPC when there are not enough CPUs, -EINVAL when the
 * request breaks an option's rule (odd count with full_cores): err gets
 * the kubelet's message.  -ENOMEM on allocation failure.
 */
int kubelet_take(const struct ktopo *kt, const struct cpuset *avail, int n,
		 const struct ktake_opts *o, const struct cpuset *prefer_nodes,
		 const struct cpuset *reserved, struct cpuset *out,
		 char *err, size_t errlen);

/* The two algorithms themselves (exported for tests). */
int kubelet_take_packed(const struct ktopo *kt, const struct cpuset *avail,
			int n, bool spread, bool prefer_uncore,
			struct cpuset *out, char *err, size_t errlen);
int kubelet_take_distributed(const struct ktopo *kt,
			     const struct cpuset *avail, int n, int group,
			     bool spread, bool align_socket,
			     struct cpuset *out, char *err, size_t errlen);

/*
 * Pick n reserved CPUs as the kubelet does without --reserved-cpus: the
 * same take over all CPUs of the topology, as if the machine were idle.
 */
int kubelet_take_reserved(const struct ktopo *kt, int n,
			  const struct ktake_opts *o, struct cpuset *out,
			  char *err, size_t errlen);

#endif
