/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-node memory table of cpm-topo memory, its summary lines and
 * its JSON, defined once.
 *
 * Columns: NODE CPUS TIER MEMORY FREE READ_BW WRITE_BW READ_LAT WRITE_LAT
 * INITIATORS CLASS CACHE WEIGHT.  MEMORY and FREE are in MiB; bandwidths
 * in MB/s and latencies in ns are those of access class 1 (from CPUs)
 * where the kernel has it, else of class 0 (CLASS says which);
 * INITIATORS are the nodes they are measured from; CACHE the memory-side
 * caches ("L1:96G"); WEIGHT the weighted-interleave weight.
 */
#ifndef CPM_MEMTABLE_H
#define CPM_MEMTABLE_H

#include <stdbool.h>

#include "base/json.h"
#include "base/strbuf.h"
#include "base/table.h"
#include "machine/memtier.h"
#include "machine/topo.h"

extern const char memtier_default_columns[];

/*
 * Initialise tab with the memory columns (default selection) and one row
 * per node of t that is in nodes (NULL: every node).  Returns 0 or
 * -ENOMEM (tab is then freed).
 */
int memtier_table(const struct topo *t, const struct memtier *m,
		  const struct cpuset *nodes, struct table *tab);

/*
 * The summary's memory lines: the tiers in order, each node's access
 * attributes, caches and weight.  Nothing on a machine that shows none
 * of them.
 */
void memtier_summary(const struct memtier *m, struct strbuf *sb);

/*
 * Only the nodes in nodes (NULL: every node).  A JSON object: {"tiers": [{tier, nodes}], "weights_auto": bool|null,
 * "nodes": [{node, has_cpus, tier, access0, access1, caches, weight}]}.
 */
void memtier_json(const struct memtier *m, const struct cpuset *nodes,
		  struct json *j);

#endif
