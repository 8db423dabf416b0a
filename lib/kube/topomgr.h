/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kubelet Topology Manager: NUMA hints from the CPU manager and the
 * Memory Manager's static policy, their merge, and the four policies.
 *
 * Terminology:
 *   mask      a set of NUMA node ids as a 64-bit mask (bit i = node i);
 *             0 stands for "no preference" (the kubelet's nil affinity);
 *   hint      a mask and whether it is preferred (the narrowest masks
 *             that could hold the request on an idle machine);
 *   provider  one hint list (CPUs, memory).
 */
#ifndef CPM_TOPOMGR_H
#define CPM_TOPOMGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpuset.h"
#include "base/strbuf.h"
#include "kube/kubelet.h"

/*
 * Node ids are bits of a 64-bit mask.  Hints enumerate every subset of
 * the nodes: the kubelet refuses machines of more than
 * TM_DEFAULT_MAX_NODES nodes under a policy other than none, unless its
 * max-allowable-numa-nodes option raises the limit (no lower), which is
 * the caller's to check (tm_max_nodes_check()).
 */
#define TM_MAX_NODES 64
#define TM_DEFAULT_MAX_NODES 8

enum tm_policy {
	TM_NONE = 0,
	TM_BEST_EFFORT,
	TM_RESTRICTED,
	TM_SINGLE_NUMA,
};

struct tm_hint {
	uint64_t mask;		/* 0: no preference */
	bool preferred;
};

struct tm_hints {
	bool dont_care;		/* the provider has no opinion */
	int n, cap;
	struct tm_hint *h;
};

/*
 * The max-allowable-numa-nodes option's value from s: an integer of at
 * least TM_DEFAULT_MAX_NODES (and at most TM_MAX_NODES).  Returns 0 or
 * -EINVAL with the kubelet's message in err.
 */
int tm_max_nodes_parse(const char *s, int *max, char *err, size_t errlen);

/*
 * The Topology Manager's refusal of a machine of nnodes NUMA nodes
 * (max: the option's value, 0 its default): -ENOSPC with the kubelet's
 * message in err when nnodes is above it, else 0.
 */
int tm_max_nodes_check(int nnodes, int max, char *err, size_t errlen);

/* Returns 0 or -EINVAL for a name that is none of the four policies. */
int tm_policy_parse(const char *s, int *policy);
const char *tm_policy_name(int policy);

void tm_hints_free(struct tm_hints *h);

/* Mask of a node set; -ERANGE when a node id is 64 or more. */
int tm_mask_from_set(const struct cpuset *nodes, uint64_t *mask);
int tm_mask_to_set(uint64_t mask, struct cpuset *nodes);
/* "0-1" style node list of a mask into sb. */
void tm_mask_format(uint64_t mask, struct strbuf *sb);

/*
 * The CPU manager's hints for n CPUs out of avail
 * (generateCPUTopologyHints): every set of the topology's NUMA nodes,
 * narrowest first, that holds n available CPUs.  Returns 0, -ERANGE when
 * the topology has more than TM_MAX_NODES nodes or a node id above 63,
 * -ENOMEM.
 */
int tm_cpu_hints(const struct ktopo *kt, const struct cpuset *avail, int n,
		 bool align_socket, struct tm_hints *out);

/*
 * The Memory Manager's resources: regular memory (index 0) and up to
 * TM_MEM_RES - 1 sizes of huge pages, in the order the caller gives.
 */
#define TM_MEM_RES 5

/* One NUMA node as the Memory Manager sees it. */
struct tm_mem_node {
	int id;
	uint64_t total[TM_MEM_RES];	/* allocatable bytes (capacity
					 * minus reserved), per resource */
	uint64_t booked[TM_MEM_RES];	/* bytes booked by allocations */
	uint64_t group;		/* mask of the node group its bookings
				 * belong to; 0 when nothing is booked */
};

/*
 * The Memory Manager static policy's hints for req[r] bytes of each
 * resource r < nres (calculateHints): sets of nodes whose allocatable
 * memory holds every resource asked for (the narrowest such width is
 * the preferred one) and whose free memory holds it too, skipping sets
 * that would mix a node with bookings of another node group.  Nothing
 * asked for (every req 0): "don't care".
 * Returns 0, -ERANGE (too many nodes), -ENOMEM.
 */
int tm_mem_hints(const struct tm_mem_node *nodes, int nn, const uint64_t *req,
		 int nres, struct tm_hints *out);

/*
 * The device manager's hints for a device on the NUMA nodes of need
 * (generateDeviceTopologyHints for one device of one resource): every
 * set of the nodes of all that holds need, preferred when it is need
 * itself.  need 0 (the device has no NUMA node) or outside all: "don't
 * care".  Returns 0, -ERANGE (more than TM_MAX_NODES nodes), -ENOMEM.
 */
int tm_device_hints(uint64_t all, uint64_t need, struct tm_hints *out);

/*
 * Merge the providers' hints under policy and decide admission
 * (the kubelet's HintMerger with the "narrowest" comparison).  all is the
 * mask of every NUMA node.  *best gets the merged hint (mask 0: no
 * preference).  Returns true when the policy admits the request.
 */
bool tm_merge(int policy, uint64_t all, const struct tm_hints *lists,
	      int nlists, struct tm_hint *best);

/*
 * tm_merge() with the prefer-closest-numa-nodes option: between masks of
 * equal width the one with the lower mean NUMA distance wins.  dist is a
 * 64 x 64 matrix indexed by node ids (dist[i * 64 + j]); NULL gives
 * tm_merge().  Not applied under single-numa-node, as in the kubelet.
 */
bool tm_merge_closest(int policy, uint64_t all, const struct tm_hints *lists,
		      int nlists, const int *dist, struct tm_hint *best);

/* Bytes booked on one NUMA node. */
struct mem_booking {
	int node;
	uint64_t bytes;
};

/*
 * Book req bytes of resource res on the nodes of mask, filling each node
 * in id order before the next (the Memory Manager's updateMachineState).
 * Every node of mask gets a booking, possibly of 0 bytes, so that the
 * group is recorded.  out[] must have room for one booking per node;
 * *nout gets the count.  Returns 0, or -ENOSPC when the nodes lack the
 * free memory.
 */
int tm_mem_book(const struct tm_mem_node *nodes, int nn, uint64_t mask,
		int res, uint64_t req, struct mem_booking *out, int *nout);

#endif
