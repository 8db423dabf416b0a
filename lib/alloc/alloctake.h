/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Placing a new allocation by name, as "cpm-alloc take" and "cpm-alloc
 * hints" do: a take that is idempotent for a name the state already
 * holds, on the core type that fits (take_type() in alloctake.c), and
 * the hints text: the NUMA node sets that can hold a request and, on a
 * hybrid machine, which core types can hold it alone.
 *
 * Errors come back as -errno with a one-line message in err: -EINVAL bad
 * input, -ENOSPC a request nothing can satisfy, -ENOMEM.
 */
#ifndef CPM_ALLOCTAKE_H
#define CPM_ALLOCTAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc/alloc.h"
#include "base/json.h"
#include "base/strbuf.h"
#include "machine/coretype.h"

/*
 * Take rq->n CPUs for the allocation rq->name into e (keeping e's owner
 * fields), unless st already holds an allocation of that name: then
 * *held points at it and nothing is taken when it has rq->n CPUs, and
 * -EINVAL says to resize it otherwise.  only and *mixed as for
 * the core-type take in alloctake.c: the fastest type that holds the
 * request, types mixed only when none can (*mixed); rq->opts must be
 * effective.
 */
int alloc_take_named(const struct coretypes *ct,
		     const struct alloc_machine *m,
		     const struct alloc_state *st,
		     const struct alloc_request *rq, int only,
		     struct alloc_entry *e, const struct alloc_entry **held,
		     bool *mixed, struct strbuf *explain, char *err,
		     size_t errlen);

/*
 * Append the hints for rq->n CPUs (and rq->mem with rq->have_mem) among
 * the CPUs st has available to out: a "MASK preferred" or "MASK -" line
 * per NUMA node set, then on a hybrid machine a "type NAME: F free CPUs,
 * holds N" (or "cannot hold N") line per core type (only >= 0: that one).
 * rq->opts is the policy as recorded; the type lines use it made
 * effective.  -ENOSPC when no node set can hold the request on a machine
 * of one core type.
 */
int alloc_hints_text(const struct coretypes *ct,
		     const struct alloc_machine *m,
		     const struct alloc_state *st,
		     const struct alloc_request *rq, int only,
		     struct strbuf *out, char *err, size_t errlen);

/*
 * The same hints as one JSON object: {"count": N, "hints": [{"nodes":
 * MASK, "preferred": bool}...]}, and on a hybrid machine "types": [{"type",
 * "free", "holds"}...].  Same returns as alloc_hints_text().
 */
int alloc_hints_json(const struct coretypes *ct,
		     const struct alloc_machine *m,
		     const struct alloc_state *st,
		     const struct alloc_request *rq, int only, struct json *j,
		     char *err, size_t errlen);

/*
 * The slower-tier note for mem bytes: when a CPU-less node in a memory
 * tier slower than the fastest tier of the nodes with CPUs has that much
 * memory free by st, append one line naming it (them) to out, with its
 * tier and free memory; nothing otherwise.  The Memory Manager weighs no
 * tiers, so the note changes no hint.  Returns 0 or -ENOMEM.
 */
struct memtier;
int alloc_slower_tier(const struct alloc_machine *m,
		      const struct alloc_state *st, const struct memtier *mt,
		      uint64_t mem, struct strbuf *out);

#endif
