/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The allocations of a state as a table: the rows of cpm-alloc list and
 * the "entries" array of cpm-alloc list --json, defined once.
 *
 * Columns: NAME MODE COUNT CPUS NODES MEMORY OWNER OPTIONS DEVICES
 * CONTAINER HUGEPAGES.  HUGEPAGES is SIZE/NODE:AMOUNT for each size and
 * node with huge pages booked (JSON: an array of {resource, node,
 * bytes}); it is a default column (text and JSON) only when an entry books
 * some.
 * DEVICES are those the entry was taken beside (--near): their names
 * (JSON: an array of {name, address}).  MEMORY is
 * NODE:SIZE for each node with memory booked (JSON: an array of
 * {node, bytes}); OPTIONS the placement options the entry was taken
 * with, as the state records them.  Empty sets and missing values print
 * "-"; in JSON empty sets are "" and a missing owner is null.
 */
#ifndef CPM_ALLOCTABLE_H
#define CPM_ALLOCTABLE_H

#include <stdbool.h>

#include "alloc/state.h"
#include "base/table.h"
#include "machine/topo.h"

extern const struct table_column alloc_columns[];
extern const size_t alloc_ncolumns;

/*
 * The default column list of the text, or of the JSON entries, for st:
 * the text shows CONTAINER only when an entry of st has a container's
 * name (st may be NULL: none has).
 */
const char *alloc_default_columns(const struct alloc_state *st, bool json);

/*
 * Initialise tab with the columns (the default text selection) and one
 * row per entry of st, in the state's order; t gives each entry's NUMA
 * nodes.  Returns 0 or -ENOMEM (tab is then freed).
 */
int alloc_list_table(const struct topo *t, const struct alloc_state *st,
		     struct table *tab);

/*
 * The text of tab's NAME and OWNER cells (tab as alloc_list_table() made
 * it from st) with every container id, a run of exactly 64 hexadecimal
 * digits, cut to its first 12 as podman's tables show them, so that a
 * container's row fits a terminal; their JSON values stay whole.  For the
 * default table: a script that names its columns gets them whole.
 * Returns 0 or -ENOMEM.
 */
int alloc_list_short_ids(const struct alloc_state *st, struct table *tab);

/*
 * cpm-alloc list --json as one object: the state's reserved CPUs,
 * whether they are strict, its shared and available CPUs among t's
 * online ones, then tab's rows as "entries".  Returns 0 or -ENOMEM.
 */
int alloc_list_json(const struct topo *t, const struct alloc_state *st,
		    const struct table *tab, struct json *j);

#endif
