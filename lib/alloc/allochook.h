/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The allocations an OCI runtime hook makes (cpm-alloc oci-hook): a
 * container's entry placed or found again, and the containers that
 * follow the shared pool.  The caller reads the container's request and
 * group, holds the state's lock, and writes the cgroups.
 *
 * Terminology:
 *   follower   a container without a CPU request: an entry of 0 CPUs
 *              owned by its group ("cgroup:PATH"), whose cpuset is the
 *              shared pool
 *
 * Errors come back as -errno with a one-line message in err: -EINVAL bad
 * input, -ENOSPC a request nothing can satisfy, -ENOMEM.
 */
#ifndef CPM_ALLOCHOOK_H
#define CPM_ALLOCHOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc/alloc.h"
#include "alloc/state.h"
#include "machine/coretype.h"

/* Where a container's entry is after alloc_hook_place(). */
struct alloc_hook_result {
	int at;			/* its index in st->entries */
	bool held;		/* st held it already: nothing was taken */
	bool mixed;		/* its CPUs mix core types */
};

/*
 * Place the container rq->name: take rq->n CPUs into e (its owner fields
 * set by the caller) and add it to st, unless st holds the name already
 * (another stage of the same start: *res says where, e is freed).  A new
 * entry that would leave the shared pool of online CPUs empty is
 * refused (-ENOSPC) and st is left as it was.  only, rq->opts as for
 * alloc_take_named().
 */
int alloc_hook_place(const struct coretypes *ct, const struct alloc_machine *m,
		     struct alloc_state *st, const struct alloc_request *rq,
		     int only, struct alloc_entry *e,
		     struct alloc_hook_result *res, char *err, size_t errlen);

/*
 * The index of the first follower at or after from, skipping the entry
 * named skip (NULL: none); -1 when there is none.
 */
int alloc_hook_follower(const struct alloc_state *st, const char *skip,
			int from);

#endif
