// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocations an OCI hook makes, without the CLI: a container placed,
 * found again at its next stage, refused when it would empty the shared
 * pool, and the followers of the shared pool; on the allocator's test
 * machine (allocmachine.h: CPUs 0-7, node 0 CPUs 0,1,4,5).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocmachine.h"
#include "alloc/allochook.h"
#include "unit.h"

static struct coretypes ct;

static void
owned(struct alloc_entry *e, const char *group)
{
	char owner[256];

	memset(e, 0, sizeof(*e));
	snprintf(owner, sizeof(owner), "cgroup:%s", group);
	e->owner = strdup(owner);
}

static void
test_place(struct alloc_state *st)
{
	struct alloc_hook_result res;
	struct alloc_request rq;
	struct alloc_entry e;
	char err[256] = "";
	int r;

	unit_request(&rq, "ctr", 2);
	owned(&e, "machine/a");
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &e, &res, err, sizeof(err));
	CHECK_STR("place: a new container gets its CPUs",
		  r == 0 && !res.held ? unit_list(&st->entries[res.at].cpus) :
		  err, "0,4");
	CHECK_STR("place: owned by its group", st->entries[res.at].owner,
		  "cgroup:machine/a");

	owned(&e, "machine/a");
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &e, &res, err, sizeof(err));
	CHECK("place: the next stage finds the same entry",
	      r == 0 && res.held && res.at == 0 && st->nentries == 1);

	unit_request(&rq, "big", 6);
	owned(&e, "machine/b");
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &e, &res, err, sizeof(err));
	CHECK_STR("place: the shared pool is never emptied",
		  r == -ENOSPC ? err : "", "6 CPUs would leave the shared "
		  "pool empty (keep CPUs for it with 'cpm-alloc init "
		  "--reserve N')");
	CHECK("place: and the state is as it was", st->nentries == 1);
	alloc_entry_free(&e);
}

static void
test_followers(struct alloc_state *st)
{
	struct alloc_hook_result res;
	struct alloc_request rq;
	struct alloc_entry e;
	char err[256] = "";
	int i;

	unit_request(&rq, "f1", 0);
	rq.mode = ALLOC_SHARE;
	owned(&e, "machine/f1");
	CHECK("followers: a container without CPUs is placed",
	      alloc_hook_place(&ct, &m, st, &rq, -1, &e, &res, err,
			       sizeof(err)) == 0);
	unit_request(&rq, "f2", 0);
	rq.mode = ALLOC_SHARE;
	owned(&e, "machine/f2");
	CHECK("followers: and another",
	      alloc_hook_place(&ct, &m, st, &rq, -1, &e, &res, err,
			       sizeof(err)) == 0);
	i = alloc_hook_follower(st, NULL, 0);
	CHECK_STR("followers: the first", i >= 0 ? st->entries[i].name : "-",
		  "f1");
	i = alloc_hook_follower(st, NULL, i + 1);
	CHECK_STR("followers: the second", i >= 0 ? st->entries[i].name : "-",
		  "f2");
	CHECK("followers: no more", alloc_hook_follower(st, NULL, i + 1) < 0);
	i = alloc_hook_follower(st, "f1", 0);
	CHECK_STR("followers: the one skipped is not one",
		  i >= 0 ? st->entries[i].name : "-", "f2");
}

int
main(void)
{
	struct alloc_state st;

	unit_alloc_machine(UNIT_ALLOC_SPEC);
	memset(&ct, 0, sizeof(ct));
	state_init(&st);
	test_place(&st);
	test_followers(&st);
	state_free(&st);
	unit_machine_remove();
	return unit_failed;
}
