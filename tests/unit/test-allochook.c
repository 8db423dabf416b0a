// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocations an OCI hook makes, without the CLI: a container placed,
 * found again at its next stage, refused when it would empty the shared
 * pool, when its id or group belongs to another, or when the operator
 * does not allow what it asks; which poststop may release it; and the
 * followers of the shared pool; on the allocator's test machine
 * (allocmachine.h: CPUs 0-7, node 0 CPUs 0,1,4,5).  Processes are this
 * test's own (alive) and pid 1 with a start time it never had (gone).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "allocmachine.h"
#include "alloc/allochook.h"
#include "machine/proc.h"
#include "unit.h"

static struct coretypes ct;
static struct sysroot live;

static void
owned(struct alloc_entry *e, const char *group)
{
	char owner[256];

	memset(e, 0, sizeof(*e));
	snprintf(owner, sizeof(owner), "cgroup:%s", group);
	e->owner = strdup(owner);
	e->hook = true;
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
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err, sizeof(err));
	CHECK_STR("place: a new container gets its CPUs",
		  r == 0 && !res.held ? unit_list(&st->entries[res.at].cpus) :
		  err, "0,4");
	CHECK_STR("place: owned by its group", st->entries[res.at].owner,
		  "cgroup:machine/a");

	owned(&e, "machine/a");
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err, sizeof(err));
	CHECK("place: the next stage finds the same entry",
	      r == 0 && res.held && res.at == 0 && st->nentries == 1);

	unit_request(&rq, "big", 6);
	owned(&e, "machine/b");
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err, sizeof(err));
	CHECK_STR("place: the shared pool is never emptied",
		  r == -ENOSPC ? err : "", "6 CPUs would leave the shared "
		  "pool empty (keep CPUs for it with 'cpm-alloc init "
		  "--reserve N')");
	CHECK("place: and the state is as it was", st->nentries == 1);
	alloc_entry_free(&e);
}

static void
test_owners(struct alloc_state *st)
{
	struct alloc_hook_result res;
	struct alloc_request rq;
	struct alloc_entry e, hand;
	char err[256] = "";
	uint64_t me;
	int r;

	/* ctr (machine/a) runs as this process. */
	if (proc_start_time(&live, getpid(), &me) < 0)
		exit(1);
	st->entries[0].hook_pid = getpid();
	st->entries[0].owner_start = me;

	unit_request(&rq, "ctr", 2);
	owned(&e, "machine/b");
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err,
			     sizeof(err));
	CHECK_STR("owners: the same id in another group is refused",
		  r == -EEXIST ? err : "placed", "a container of that id runs "
		  "in cgroup 'machine/a' already");
	alloc_entry_free(&e);

	unit_request(&rq, "other", 1);
	owned(&e, "machine/a");
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err,
			     sizeof(err));
	CHECK_STR("owners: a group another entry owns is refused",
		  r == -EEXIST ? err : "placed",
		  "cgroup 'machine/a' belongs to allocation 'ctr'");
	alloc_entry_free(&e);

	unit_request(&rq, "ctr", 2);
	owned(&e, "machine/a");
	e.hook_pid = 1;
	e.owner_start = 1;
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err,
			     sizeof(err));
	CHECK("owners: the same id and group for another process, while "
	      "the first runs, is refused",
	      r == -EEXIST && strstr(err, "runs already (process "));
	alloc_entry_free(&e);

	memset(&hand, 0, sizeof(hand));
	unit_request(&rq, "db", 1);
	if (alloc_take(&m, st, &rq, &hand, NULL, err, sizeof(err)) < 0 ||
	    state_add(st, &hand) < 0)
		exit(1);
	owned(&e, "machine/db");
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err,
			     sizeof(err));
	CHECK_STR("owners: a name made by hand is no container's",
		  r == -EEXIST ? err : "placed", "allocation 'db' was made by "
		  "hand or by a plan, not for a container");
	alloc_entry_free(&e);
	r = alloc_hook_find_stopped(st, "db", NULL, 0, &live, err,
				    sizeof(err));
	CHECK("owners: and poststop leaves it", r == -EEXIST);

	r = alloc_hook_find_stopped(st, "ctr", "machine/a", 0, &live, err,
				    sizeof(err));
	CHECK_STR("stopped: not while its process runs",
		  r == -EEXIST ? "refused" : "released", "refused");
	st->entries[0].owner_start = me + 1;	/* its pid taken again */
	r = alloc_hook_find_stopped(st, "ctr", "machine/b", 0, &live, err,
				    sizeof(err));
	CHECK_STR("stopped: not for another group", r == -EEXIST ? err : "",
		  "its allocation belongs to cgroup 'machine/a', not "
		  "'machine/b'");
	r = alloc_hook_find_stopped(st, "ctr", "machine/a", 7, &live, err,
				    sizeof(err));
	CHECK("stopped: not for another process", r == -EEXIST);
	CHECK("stopped: its own, once its process is gone",
	      alloc_hook_find_stopped(st, "ctr", "machine", 0, &live, err,
				      sizeof(err)) == 0);
	CHECK("stopped: a name never placed is nothing to do",
	      alloc_hook_find_stopped(st, "never", NULL, 0, &live, err,
				      sizeof(err)) == -ENOENT);

	/* An entry of the same name and group, from before hook=. */
	memset(&hand, 0, sizeof(hand));
	unit_request(&rq, "old", 1);
	hand.owner = strdup("cgroup:machine/old");
	if (alloc_take(&m, st, &rq, &hand, NULL, err, sizeof(err)) < 0 ||
	    state_add(st, &hand) < 0)
		exit(1);
	owned(&e, "machine/old");
	e.hook_pid = getpid();
	e.owner_start = me;
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err,
			     sizeof(err));
	CHECK("owners: an unmarked entry of the container's group is its own",
	      r == 0 && res.held && res.changed &&
	      st->entries[res.at].hook && st->entries[res.at].hook_pid ==
	      getpid());
	st->entries[res.at].hook = false;
	CHECK("stopped: and poststop of its group releases it",
	      alloc_hook_find_stopped(st, "old", "machine/old", 0, &live, err,
				      sizeof(err)) == res.at);
	state_remove(st, res.at);

	owned(&e, "machine/a");
	e.hook_pid = getpid();
	e.owner_start = me;
	unit_request(&rq, "ctr", 2);
	r = alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err,
			     sizeof(err));
	CHECK("owners: started again in its group, it has its CPUs",
	      r == 0 && res.held && res.changed && res.at == 0 &&
	      st->entries[0].owner_start == me);
}

static void
test_policy(void)
{
	struct alloc_hook_policy p = { 2, "machine,/kube/pods/" };
	struct alloc_request rq;
	char err[256] = "";

	CHECK("policy: a parent is below itself",
	      alloc_hook_below("machine", "machine"));
	CHECK("policy: and a group below it", alloc_hook_below("a,machine",
							       "/machine/x"));
	CHECK("policy: a name it begins is not",
	      !alloc_hook_below("machine", "machine2/x"));
	CHECK("policy: slashes do not count",
	      alloc_hook_below("/kube/pods/", "kube/pods/p1"));
	CHECK("policy: a nested slice by its unit name, where systemd puts it",
	      alloc_hook_below("x,cpmvm-oci.slice",
			       "cpmvm.slice/cpmvm-oci.slice/libpod-1.scope"));
	CHECK("policy: three levels of slices",
	      alloc_hook_below("a-b-c.slice", "a.slice/a-b.slice/a-b-c.slice"));
	CHECK("policy: a slice's unit name is not its sibling's",
	      !alloc_hook_below("cpmvm-oci.slice",
				"cpmvm.slice/cpmvm-web.slice/libpod-1.scope"));
	CHECK("policy: a top slice is its own path",
	      alloc_hook_below("machine.slice", "machine.slice/libpod-1.scope") &&
	      !alloc_hook_below("machine.slice", "cpmvm.slice/machine.slice"));
	CHECK("policy: no slice path from a dash that starts or doubles",
	      !alloc_hook_below("-a.slice", "a.slice") &&
	      !alloc_hook_below("a--b.slice", "a.slice/a--b.slice") &&
	      !alloc_hook_below("a-.slice", "a.slice/a-.slice"));
	unit_request(&rq, "c", 2);
	CHECK("policy: CPUs below a parent, up to the limit",
	      alloc_hook_allowed(&p, "machine/c", &rq, false, err,
				 sizeof(err)) == 0);
	CHECK_STR("policy: not elsewhere",
		  alloc_hook_allowed(&p, "system.slice/c", &rq, false, err,
				     sizeof(err)) == -EPERM ? err : "",
		  "cgroup 'system.slice/c' is below none of the parents the "
		  "hook grants CPUs in (machine,/kube/pods/)");
	unit_request(&rq, "c", 0);
	CHECK("policy: an interrupt move is as much a grant",
	      alloc_hook_allowed(&p, "system.slice/c", &rq, true, err,
				 sizeof(err)) == -EPERM);
	CHECK("policy: asking for nothing is allowed anywhere",
	      alloc_hook_allowed(&p, "system.slice/c", &rq, false, err,
				 sizeof(err)) == 0);
	unit_request(&rq, "c", 3);
	CHECK_STR("policy: no more CPUs than the limit",
		  alloc_hook_allowed(&p, "machine/c", &rq, false, err,
				     sizeof(err)) == -EPERM ? err : "",
		  "3 CPUs are more than the hook grants a container (2)");
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
	      alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err,
			       sizeof(err)) == 0);
	unit_request(&rq, "f2", 0);
	rq.mode = ALLOC_SHARE;
	owned(&e, "machine/f2");
	CHECK("followers: and another",
	      alloc_hook_place(&ct, &m, st, &rq, -1, &live, &e, &res, err,
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
	if (sysroot_open(&live, "/") < 0)
		return 1;
	test_place(&st);
	test_owners(&st);
	test_policy();
	test_followers(&st);
	state_free(&st);
	unit_machine_remove();
	return unit_failed;
}
