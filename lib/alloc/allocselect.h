/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The selector alloc:NAME (cpm-pin, cpm-topo cpus): an allocation of the
 * cpm-alloc state, as its CPUs, the NUMA nodes its memory is booked on
 * and its memory policy (a plan's mem-policy=), read from the state
 * without changing it.
 */
#ifndef CPM_ALLOCSELECT_H
#define CPM_ALLOCSELECT_H

#include <stdbool.h>

#include "base/cpuset.h"

/* True for "alloc:..." */
bool alloc_is_selector(const char *sel);

/*
 * Resolve alloc:NAME in the state at path (NULL: env CPM_STATE, else the
 * default path), read under its lock when the lock can be taken (a
 * reader without write access to its directory reads the file as
 * rename(2) left it).  cpus gets the allocation's CPUs, mem_nodes (if not
 * NULL) the nodes its memory is booked on (empty: none), *mempol (if not
 * NULL) "local", "interleave", "bind" or NULL.  Returns 0; -EINVAL when
 * there is no state file, no such allocation, or the state cannot be
 * read (err: "invalid selector 'alloc:web': ..."); -ENOMEM.
 */
int alloc_select(const char *path, const char *sel, struct cpuset *cpus,
		 struct cpuset *mem_nodes, const char **mempol, char *err,
		 size_t errlen);

#endif
