/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-CPU table of a topology: the rows of cpm-topo -e and the
 * "cpus" array of cpm-topo --json, defined once.
 *
 * Columns: CPU NODE SOCKET DIE CORE L3 ONLINE TYPE CAPACITY SIBLINGS
 * L1d L1i L2 CACHE.
 * CORE is the lowest CPU of the core's SMT siblings, L3 the cache id,
 * TYPE the core type name (on a machine with several), CAPACITY the
 * kernel's cpu_capacity, SIBLINGS the core's SMT siblings as a cpulist;
 * L1d, L1i and L2 the ids of those caches and CACHE all of them as lscpu
 * -e prints them ("0:0:0:0"), left unset here: cache_cpu_cells() in
 * cache.h fills them for the views that show them.
 * Unknown values print "-" and are null in JSON.
 */
#ifndef CPM_TOPOTABLE_H
#define CPM_TOPOTABLE_H

#include <stdbool.h>

#include "base/table.h"
#include "machine/coretype.h"
#include "machine/topo.h"

extern const struct table_column topo_cpu_columns[];
extern const size_t topo_cpu_ncolumns;

/*
 * The default column list: of -e (text) or of the JSON "cpus" array,
 * with TYPE and CAPACITY on a machine with several core types.
 */
const char *topo_cpu_default_columns(bool hybrid, bool json);

/*
 * The default columns for the machine of ct (NULL: types not read): those
 * of topo_cpu_default_columns(), with PART after them on a hybrid machine
 * whose /proc/cpuinfo names the CPUs' parts.
 */
const char *topo_cpu_columns_for(const struct coretypes *ct, bool json);

/*
 * Initialise tab with the CPU columns (the default text selection) and
 * one row per possible CPU of t; ct may be NULL (no type columns known).
 * Returns 0 or -ENOMEM (tab is then freed).
 */
int topo_cpu_table(const struct topo *t, const struct coretypes *ct,
		   struct table *tab);

#endif
