/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every level of the CPU caches, from sysfs cpuN/cache/indexK: what
 * lscpu -C summarises and lscpu -e prints per CPU as L1d:L1i:L2:L3.
 *
 * Terminology:
 *   kind      one cache of the hierarchy as lscpu names it: a level and a
 *             type, "L1d" (data), "L1i" (instruction), "L2", "L3"
 *             (unified); a kind has the same geometry on every CPU of
 *             most machines (hybrid ones differ: the largest is shown).
 *   instance  one physical cache of a kind: the CPUs that share it
 *             (shared_cpu_list) and its id, the sysfs "id" or, without
 *             one or where ids repeat, the lowest of its CPUs (as
 *             topo.h names L3 groups).
 *
 * Reading is separate from topo_load(): only the views that show caches
 * pay for them.  Each instance is read once, from the first online CPU
 * that is not yet in an instance of that kind; the other CPUs' files are
 * not opened.
 */
#ifndef CPM_CACHE_H
#define CPM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpuset.h"
#include "base/json.h"
#include "base/table.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

enum cache_type { CACHE_DATA, CACHE_INSTRUCTION, CACHE_UNIFIED };

struct cache_instance {
	int id;
	struct cpuset cpus;	/* the CPUs sharing it (shared_cpu_map) */
	int64_t size;		/* bytes, -1 unknown */
};

struct cache_kind {
	char name[8];		/* "L1d", "L2" */
	int level;
	enum cache_type type;
	/* The geometry of its first instance (lowest CPU), as lscpu
	 * shows it; -1 unknown. */
	int64_t size;		/* bytes */
	int ways, line_size, sets, phys_line;
	int ninst;
	struct cache_instance *inst;	/* sorted by lowest CPU */
};

struct topo_caches {
	int nkinds;
	struct cache_kind *kinds;	/* L1d, L1i, L2, L3: by level, then
					 * data, instruction, unified */
	int ncpus;
	int *of;		/* [ncpus * nkinds]: index into kinds[k].inst
				 * of CPU c at of[c * nkinds + k], -1 none */
};

/*
 * Read every cache of the CPUs of t below root (offline CPUs too, where
 * the kernel keeps their cache directories, as lscpu counts them).  A tree without
 * cache directories gives no kinds.  Returns 0; -EINVAL for a malformed
 * file (err names it); -ENOMEM.
 */
int cache_load(struct topo_caches *c, const struct sysroot *root,
	       const struct topo *t, char *err, size_t errlen);
void cache_free(struct topo_caches *c);

/* The kind named name ("L2", "l1d": any case), or NULL. */
const struct cache_kind *cache_kind_by_name(const struct topo_caches *c,
					    const char *name);

/* The instance id of kind k for cpu, or -1. */
int cache_id_of(const struct topo_caches *c, int k, int cpu);

/* "Data", "Instruction", "Unified". */
const char *cache_type_name(enum cache_type type);

/*
 * The lscpu -C table: one row per kind, columns NAME ONE-SIZE ALL-SIZE
 * WAYS TYPE LEVEL SETS PHY-LINE COHERENCY-SIZE INSTANCES SHARED (the
 * most CPUs one instance serves).  Sizes print as lscpu prints them
 * ("48K", "1.5M"); in JSON they are bytes.  Returns 0 or -ENOMEM (tab
 * is then freed).
 */
int cache_table(const struct topo_caches *c, struct table *tab);

/*
 * The "caches" member of the --json document: an array of kinds, each
 * with its geometry and its instances ({id, cpus}).
 */
void cache_json(const struct topo_caches *c, struct json *j);

/*
 * Fill the cache columns of the per-CPU table (topotable.h) that tab
 * has, L1D L1I L2 and CACHE ("L1d:L1i:L2:L3" ids, as lscpu -e prints
 * them), for its rows, one per possible CPU of t.
 */
void cache_cpu_cells(const struct topo_caches *c, const struct topo *t,
		     struct table *tab);

/* True when sel is a cache selector this file resolves: l1d:N, l1i:N,
 * l2:N (l3:N stays select.h's). */
bool cache_is_selector(const char *sel);

/*
 * The online CPUs of cache instance N of the selector's kind into out.
 * Returns 0; -EINVAL with err set for a malformed selector or an
 * instance the machine does not have; -ENOMEM.
 */
int cache_select(const struct topo_caches *c, const char *sel,
		 struct cpuset *out, char *err, size_t errlen);

#endif
