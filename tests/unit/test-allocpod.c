// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A pod placed in one call, without the CLI: the pod request (the
 * kubelet's TestPodGuaranteedCPUs cases but those without Guaranteed
 * QoS, 02 and 03, a notion of pods cpm has not, and those with
 * restartable init containers), members parsed, the CPUs of init members handed on, the
 * reusable CPUs' hint rule, the two scopes, and a pod's release; on the
 * generated machine of allocmachine.h (node 0: CPUs 0,1,4,5; node 1:
 * 2,3,6,7; core siblings N and N+4).  Placements are worked out by hand
 * from that layout and the kubelet's rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocmachine.h"
#include "alloc/allocpod.h"
#include "unit.h"

#define list unit_list

/* The kubelet's pod request of init and app counts (-1 ends a list). */
static int
request(const int *init, const int *app)
{
	struct alloc_member mb[8];
	struct alloc_pod pod = { "p", ALLOC_SCOPE_CONTAINER, mb, 0 };

	for (; *init >= 0; init++)
		mb[pod.n++] = (struct alloc_member){ "i", *init, true };
	for (; *app >= 0; app++)
		mb[pod.n++] = (struct alloc_member){ "a", *app, false };
	return alloc_pod_request(&pod);
}

static void
test_request(void)
{
	static const int z[] = { 0, -1 }, two[] = { 2, -1 }, five[] = { 5, -1 };
	static const int both[] = { 2, 4, -1 };

	CHECK("pod request: TestCase01, nothing guaranteed", request(z, z) == 0);
	CHECK("pod request: TestCase04, 2 and 2 is 2", request(two, two) == 2);
	CHECK("pod request: TestCase05, 5 and 5 is 5", request(five, five) == 5);
	CHECK("pod request: TestCase06, app bigger", request(two, five) == 5);
	CHECK("pod request: TestCase07, init bigger", request(five, two) == 5);
	CHECK("pod request: TestCase08, members summed, init members not",
	      request(both, both) == 6);
}

static void
test_parse(void)
{
	struct alloc_member mb;
	char err[256];

	CHECK("member: NAME=N", alloc_member_parse("db=2", false, &mb, err,
						   sizeof(err)) == 0 &&
	      mb.n == 2 && !mb.init && strncmp(mb.name, "db=", 3) == 0);
	CHECK("member: no count is refused",
	      alloc_member_parse("db", true, &mb, err, sizeof(err)) == -EINVAL);
	CHECK("member: a '/' in the name is refused",
	      alloc_member_parse("a/b=1", true, &mb, err, sizeof(err)) ==
	      -EINVAL);
	CHECK("member: a bad count is refused",
	      alloc_member_parse("a=x", true, &mb, err, sizeof(err)) == -EINVAL);
}

/* Place the pod; "NAME CPUS GOT;..." per member, or the error. */
static const char *
place(struct alloc_state *st, enum alloc_scope scope, int policy,
      const struct alloc_member *mb, int n, bool keep)
{
	static char out[1024];
	struct alloc_pod pod = { "p", scope, mb, n };
	struct alloc_request rq;
	struct alloc_entry e[8];
	struct cpuset got[8];
	char err[512];
	int i, r;

	memset(e, 0, sizeof(e));
	memset(got, 0, sizeof(got));
	unit_request(&rq, NULL, 0);
	rq.opts.numa_policy = policy;
	r = alloc_take_pod(&m, st, &rq, &pod, e, got, NULL, err, sizeof(err));
	if (r < 0) {
		snprintf(out, sizeof(out), "%d %s", r, err);
		return out;
	}
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t l = strlen(out);

		snprintf(out + l, sizeof(out) - l, "%s%s %s", i ? "; " : "",
			 e[i].name, list(&e[i].cpus));
		l = strlen(out);
		snprintf(out + l, sizeof(out) - l, " got %s", list(&got[i]));
		cpuset_free(&got[i]);
		if (keep && state_add(st, &e[i]) < 0)
			exit(1);
		alloc_entry_free(&e[i]);
	}
	return out;
}

static void
test_place(void)
{
	struct alloc_member init4[] = { { "i", 4, true }, { "a", 2, false } };
	struct alloc_member init2[] = { { "i", 2, true }, { "a", 4, false } };
	struct alloc_member three[] = { { "a", 2, false }, { "b", 2, false },
					{ "c", 2, false } };
	struct alloc_state st;
	struct alloc_entry x;

	state_init(&st);
	CHECK_STR("an init member's CPUs are handed on; it keeps the rest",
		  place(&st, ALLOC_SCOPE_CONTAINER, TM_NONE, init4, 2, false),
		  "p/i 1,5 got 0-1,4-5; p/a 0,4 got 0,4");

	/* CPUs 1,5 held: the init member gets core 0 (node 0). */
	memset(&x, 0, sizeof(x));
	x.name = strdup("x");
	x.n = 2;
	if (!x.name || cpuset_set(&x.cpus, 1) < 0 || cpuset_set(&x.cpus, 5) < 0 ||
	    state_add(&st, &x) < 0)
		exit(1);
	/*
	 * The member's hints must hold node 0, where the reusable CPUs
	 * are: node 1 alone (which has 4 free) is dropped, nodes 0-1 are
	 * not preferred, and restricted refuses what best-effort admits.
	 */
	CHECK("a hint must hold the reusable CPUs' nodes (restricted)",
	      strncmp(place(&st, ALLOC_SCOPE_CONTAINER, TM_RESTRICTED, init2,
			    2, false), "-28 member 'p/a': topology affinity "
		      "error: the restricted policy refuses 4 CPUs", 79) == 0);
	CHECK_STR("a hint must hold the reusable CPUs' nodes (best-effort)",
		  place(&st, ALLOC_SCOPE_CONTAINER, TM_BEST_EFFORT, init2, 2,
			false),
		  "p/i 0,4 got 0,4; p/a 2-3,6-7 got 2-3,6-7");
	state_free(&st);

	state_init(&st);
	CHECK_STR("pod scope: 6 CPUs fit no one node: refused whole",
		  strncmp(place(&st, ALLOC_SCOPE_POD, TM_SINGLE_NUMA, three, 3,
				true), "-28 pod 'p' (6 CPUs): ", 22) == 0 ?
		  "refused" : place(&st, ALLOC_SCOPE_POD, TM_SINGLE_NUMA,
				    three, 3, false), "refused");
	CHECK("and nothing is kept", st.nentries == 0);
	CHECK_STR("container scope: each member admitted on its own",
		  place(&st, ALLOC_SCOPE_CONTAINER, TM_SINGLE_NUMA, three, 3,
			true),
		  "p/a 0,4 got 0,4; p/b 1,5 got 1,5; p/c 2,6 got 2,6");
	CHECK_STR("a pod whose members the state holds is refused",
		  place(&st, ALLOC_SCOPE_CONTAINER, TM_NONE, three, 1, false),
		  "-22 pod 'p' holds allocations already ('p/a'): release it "
		  "first");
	memset(&x, 0, sizeof(x));
	x.name = strdup("pp/a");
	if (!x.name || state_add(&st, &x) < 0)
		exit(1);
	CHECK("a pod's release removes its members only",
	      alloc_pod_remove(&st, "p") == 3 && st.nentries == 1 &&
	      alloc_pod_remove(&st, "p") == 0);
	state_free(&st);
}

int
main(void)
{
	unit_alloc_machine(UNIT_ALLOC_SPEC);
	test_request();
	test_parse();
	test_place();
	unit_machine_remove();
	return unit_failed;
}
