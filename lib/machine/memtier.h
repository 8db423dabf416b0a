/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory as the machine has it: for each NUMA node whether it has CPUs,
 * its memory tier, the access attributes firmware gives for it (ACPI
 * HMAT: bandwidth and latency from its nearest initiators), its
 * memory-side caches, and its weighted-interleave weight.
 *
 * Sources (Documentation/ABI/stable/sysfs-devices-node and
 * Documentation/ABI/testing/sysfs-kernel-mm-mempolicy-weighted-interleave):
 *   sys/devices/virtual/memory_tiering/memory_tierN/nodelist
 *       the nodes of tier N; a lower N is a faster tier (N is the
 *       kernel's abstract distance divided by its chunk size)
 *   sys/devices/system/node/nodeN/access0/initiators/   any initiator
 *   sys/devices/system/node/nodeN/access1/initiators/   CPUs only
 *       read_bandwidth, write_bandwidth (MB/s), read_latency,
 *       write_latency (ns), and a link nodeM for each initiator node
 *   sys/devices/system/node/nodeN/memory_side_cache/indexL/
 *       size (bytes), line_size, indexing, write_policy
 *   sys/kernel/mm/mempolicy/weighted_interleave/nodeN, auto
 *       the weights of MPOL_WEIGHTED_INTERLEAVE (Linux 6.9), and whether
 *       the kernel sets them itself from the bandwidths (6.16); Linux
 *       6.18 names the second file __auto_type, which is read as well.
 *
 * Values the kernel does not give are -1; a value of 0 from the kernel
 * (a firmware table without it) is unknown as well.
 */
#ifndef CPM_MEMTIER_H
#define CPM_MEMTIER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpuset.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

struct mem_access {
	bool known;		/* the accessN directory is there */
	int64_t read_bw, write_bw;	/* MB/s */
	int64_t read_lat, write_lat;	/* ns */
	struct cpuset initiators;	/* node ids */
};

struct mem_cache {
	int level;
	int64_t size;		/* bytes */
	int64_t line_size;	/* bytes */
	int indexing;		/* 0 direct-mapped, 1 complex, 2 unknown */
	int write_policy;	/* 0 write-back, 1 write-through, 2 unknown */
};

struct mem_node {
	int id;
	bool has_cpus;
	int tier;		/* memory_tierN, -1 unknown */
	struct mem_access access[2];
	int ncaches;
	struct mem_cache *caches;	/* by level */
	int weight;		/* weighted-interleave weight, -1 none */
};

struct memtier {
	int nnodes;
	struct mem_node *nodes;	/* in topo.nodes[] order */
	int ntiers;
	int *tier_ids;		/* ascending: fastest first */
	bool weights_known;	/* the weighted_interleave directory */
	int weights_auto;	/* -1 no such file, else 0 or 1 */
	bool hmat;		/* any access or cache information */
};

/*
 * Read the memory hierarchy of t's nodes below root.  Missing files
 * leave values unknown.  Returns 0 or -ENOMEM.
 */
int memtier_load(struct memtier *m, const struct topo *t,
		 const struct sysroot *root);
void memtier_free(struct memtier *m);

/* The mem_node of node id, or NULL. */
const struct mem_node *memtier_node(const struct memtier *m, int id);

/* The access class a view shows: 1 (CPU initiators) if known, else 0;
 * -1 when neither is. */
int memtier_class(const struct mem_node *n);

/* "write-back", "write-through" ... for a cache's attributes. */
const char *memtier_write_policy_name(int v);
const char *memtier_indexing_name(int v);

/*
 * Select memory nodes: sel is "all", a nodelist, "node:N", "cpuless",
 * "cpus" (nodes with CPUs), "tier:N" (the kernel's memory_tierN),
 * "near:CPULIST" (the nodes with memory at the smallest distance from the
 * nodes of those CPUs).  The result is or-ed into out.  Returns 0,
 * -ENOMEM, or -EINVAL with a message in err.
 */
int memtier_select(const struct memtier *m, const struct topo *t,
		   const char *sel, struct cpuset *out, char *err,
		   size_t errlen);

#endif
