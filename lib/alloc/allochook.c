// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocations an OCI runtime hook makes.  See allochook.h.
 */
#include <errno.h>
#include <string.h>

#include "alloc/allochook.h"
#include "alloc/alloctake.h"
#include "base/err.h"
#include "base/strutils.h"

int
alloc_hook_place(const struct coretypes *ct, const struct alloc_machine *m,
		 struct alloc_state *st, const struct alloc_request *rq,
		 int only, struct alloc_entry *e, struct alloc_hook_result *res,
		 char *err, size_t errlen)
{
	const struct alloc_entry *held;
	struct cpuset pool = CPUSET_INIT;
	int r;

	memset(res, 0, sizeof(*res));
	r = alloc_take_named(ct, m, st, rq, only, e, &held, &res->mixed, NULL,
			     err, errlen);
	if (r < 0)
		return r;
	if (held) {
		alloc_entry_free(e);
		res->held = true;
		res->at = (int)(held - st->entries);
		return 0;
	}
	if (state_add(st, e) < 0)
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	res->at = st->nentries - 1;
	/* The shared containers need a CPU to run on. */
	if (state_shared(st, &m->topo->online, &pool) < 0) {
		r = err_ret(err, errlen, -ENOMEM, "out of memory");
	} else if (cpuset_empty(&pool)) {
		r = err_ret(err, errlen, -ENOSPC, "%d CPUs would leave the "
			    "shared pool empty (keep CPUs for it with "
			    "'cpm-alloc init --reserve N')", rq->n);
	}
	cpuset_free(&pool);
	if (r < 0)
		state_remove(st, res->at);
	return r;
}

int
alloc_hook_follower(const struct alloc_state *st, const char *skip, int from)
{
	int i;

	for (i = from; i < st->nentries; i++) {
		const struct alloc_entry *e = &st->entries[i];

		if (e->n == 0 && e->owner && startswith(e->owner, "cgroup:") &&
		    (!skip || strcmp(e->name, skip) != 0))
			return i;
	}
	return -1;
}
