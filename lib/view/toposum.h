/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text summary of a topology, as cpm-topo prints it without options
 * (and, below, its --json document):
 * CPU lists, the shape of sockets, dies, cores and threads, core types
 * (hybrid machines only), sockets, NUMA nodes and their distances, L3
 * groups, and what this process may use.  Built in one buffer without
 * printf for the per-socket, per-node and per-distance parts, which a
 * large machine has thousands of.
 */
#ifndef CPM_TOPOSUM_H
#define CPM_TOPOSUM_H

#include "base/json.h"
#include "base/strbuf.h"
#include "base/table.h"
#include "machine/coretype.h"
#include "machine/topo.h"

/*
 * Append the summary of t to sb; ct may be NULL (no core types known).
 * Returns 0, or -ENOMEM (sb->oom is then set too).
 */
int topo_summary(const struct topo *t, const struct coretypes *ct,
		 struct strbuf *sb);

/*
 * Write the --json document of t into j: its CPU lists, the per-CPU
 * table cpus (its columns already chosen), nodes with memory and
 * distances, sockets, L3 groups, and the core types of a hybrid machine
 * (ct may be NULL).  Returns 0, or -ENOMEM; a nesting error is left in
 * j for json_error().
 */
int topo_json(const struct topo *t, const struct coretypes *ct,
	      const struct table *cpus, struct json *j);
/* The members of that object, for a document with more of its own. */
void topo_json_members(const struct topo *t, const struct coretypes *ct,
		       const struct table *cpus, struct json *j);

/* The members of topo_json()'s object, for a document with more. */
void topo_json_members(const struct topo *t, const struct coretypes *ct,
		       const struct table *cpus, struct json *j);

#endif
