/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's CPU topology as the kernel shows it in sysfs/procfs:
 * possible/present/online/isolated CPUs; for each CPU its NUMA node,
 * socket (physical package), die, core and last-level-cache group; NUMA
 * nodes with memory and distances; and the CPUs this process may use.
 *
 * Terminology:
 *   core        cpm's machine-wide core number: the lowest CPU id among
 *               the core's SMT siblings (what the kubelet uses too); the
 *               kernel's core_id is unique only within a socket, and on
 *               some machines not even that, so cpm does not use it.
 *   l3          the level-3 (last-level) cache group, identified by its
 *               sysfs cache "id" or, without one, by its lowest CPU.
 *
 * Unknown values are -1.  Offline CPUs usually have no topology/ directory;
 * what can still be learnt about them (their node, from the node cpulists)
 * is kept.
 */
#ifndef CPM_TOPO_H
#define CPM_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpuset.h"
#include "machine/sysroot.h"

struct topo_cpu {
	bool possible, present, online, isolated;
	int node;		/* NUMA node, -1 unknown */
	int socket;		/* physical_package_id, -1 unknown */
	int die;		/* die_id within the socket, -1 unknown */
	int core;		/* lowest CPU of the SMT siblings, -1 unknown */
	int l3;			/* index into topo.l3s[], -1 unknown */
	int nthreads;		/* SMT siblings including this CPU, 0 unknown */
	int next_thread;	/* next higher SMT sibling, -1 none; the
				 * siblings of a core run from .core on */
};

/* One size of huge pages on a node (nodeN/hugepages/hugepages-KBkB). */
struct topo_huge {
	unsigned int kb;	/* page size */
	uint64_t nr, free;	/* nr_hugepages, free_hugepages */
};

#define TOPO_HUGE_MAX 4

struct topo_node {
	int id;
	struct cpuset cpus;	/* its online CPUs (offline ones keep their
				 * node in topo_cpu.node but are not here) */
	struct cpuset cpulist;	/* its cpulist file as the kernel writes
				 * it: x86 drops offline CPUs, other
				 * architectures keep them (empty in a
				 * topology from a state's layout) */
	int64_t mem_total_kb, mem_free_kb;	/* -1 unknown */
	int nhuge;		/* huge page sizes, by size (the first
				 * TOPO_HUGE_MAX the kernel lists) */
	struct topo_huge huge[TOPO_HUGE_MAX];
	int *distance;		/* [nnodes], in topo.nodes[] order; NULL unknown */
};

struct topo_l3 {
	int id;			/* sysfs cache id, or lowest CPU if none */
	int level;
	struct cpuset cpus;
	int64_t size_kb;	/* -1 unknown */
};

struct topo_socket {
	int id;
	struct cpuset cpus;
};

struct topo {
	int ncpus;		/* highest possible CPU + 1 */
	struct topo_cpu *cpus;	/* [ncpus] */
	struct cpuset possible, present, online, offline, isolated;
	struct cpuset allowed;	/* online & affinity & cgroup cpuset */
	bool allowed_known;	/* false for a replayed tree without them */
	/*
	 * What the tree has wrong that was read past (a CPU in two node
	 * lists: it keeps the lowest node), for the tools to warn of once;
	 * "" when nothing.
	 */
	char warning[256];
	int nnodes;
	struct topo_node *nodes;	/* sorted by id */
	int nl3;
	struct topo_l3 *l3s;		/* sorted by lowest CPU */
	int nsockets;
	struct topo_socket *sockets;	/* sorted by id */
	int threads_per_core;	/* max siblings over online CPUs */
	double cpu_limit;	/* cgroup CPU quota in CPUs, < 0 none */
	/*
	 * cgroup v2 partitions (with TOPO_PROCESS): the online CPUs the
	 * root group has lost to partition roots below it (not in its
	 * cpuset.cpus.effective, boot-time isolated ones aside), and those
	 * of isolated partitions (the root's cpuset.cpus.isolated, Linux
	 * 6.8+).  Known only where the files are.
	 */
	struct cpuset part_cpus, part_isolated;
	bool part_cpus_known, part_isolated_known;
};

enum topo_flags {
	/* Also compute "allowed" and the cgroup limit of this process
	 * (live) or of the dumped self files (replay). */
	TOPO_PROCESS = 1 << 0,
	/* Only CPU lists, NUMA nodes (and the process view): no sockets,
	 * dies, cores or caches, for tools that place work on given CPUs. */
	TOPO_NO_CORES = 1 << 1,
};

/*
 * Read the topology below root.  Returns 0, or -errno when the tree holds
 * no CPU information at all (-ENOENT) or is malformed (-EINVAL); err gets a
 * one-line explanation.
 */
int topo_load(struct topo *t, const struct sysroot *root, unsigned int flags,
	      char *err, size_t errlen);
void topo_free(struct topo *t);

/*
 * Each node's MemTotal and MemFree from its meminfo (an unreadable file
 * leaves them as they are).  topo_load() does this; a topology that came
 * from elsewhere (a state's layout) calls it when it needs them.
 * Returns 0 or -ENOMEM.
 */
int topo_load_meminfo(struct topo *t, const struct sysroot *root);

/*
 * A node's huge pages (nodeN/hugepages/hugepages-KBkB/nr_hugepages and
 * free_hugepages) into n->huge, sorted by size; none when the directory
 * is missing.  Returns 0 or -ENOMEM.
 */
int topo_load_hugepages(struct topo_node *n, const struct sysroot *root);

/* The node's pages of kb kB, or NULL. */
const struct topo_huge *topo_node_huge(const struct topo_node *n,
				       unsigned int kb);

/*
 * The numbers N of the entries "prefixN" of dir below root into s (other
 * entries are skipped).  Returns 0, -ENOMEM, or the -errno of opening dir.
 */
int topo_scan_numbered(const struct sysroot *root, const char *dir,
		       const char *prefix, struct cpuset *s);

/*
 * A node's meminfo text ("Node 0 MemTotal:  123 kB" lines) into its
 * mem_total_kb and mem_free_kb; a missing key leaves the value alone.
 */
void topo_parse_meminfo(const char *text, struct topo_node *n);

/* The SMT siblings of cpu, including cpu (empty when unknown). */
int topo_siblings(const struct topo *t, int cpu, struct cpuset *out);

/* The topo_node for a NUMA node id, or NULL. */
const struct topo_node *topo_node_by_id(const struct topo *t, int id);
/* The topo_socket for a socket id, or NULL. */
const struct topo_socket *topo_socket_by_id(const struct topo *t, int id);

/*
 * Set of NUMA node ids holding any CPU of cpus.  CPUs with unknown node
 * are ignored; so are offline CPUs in a topology without its per-CPU
 * array (one a layout gave a take: see statetopo_load()).
 */
int topo_nodes_of(const struct topo *t, const struct cpuset *cpus,
		  struct cpuset *nodes);

/* Set of CPUs of the given NUMA node ids (the kernel's lists). */
int topo_cpus_of_nodes(const struct topo *t, const struct cpuset *nodes,
		       struct cpuset *cpus);

/*
 * Check that every CPU in s is a possible CPU; otherwise -ERANGE and err
 * names the offending CPUs ("CPUs 8-9 do not exist (possible: 0-7)").
 */
int topo_check_possible(const struct topo *t, const struct cpuset *s,
			char *err, size_t errlen);

#endif
