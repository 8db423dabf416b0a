// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "cpm-alloc init" without the CLI: the reserved CPUs (given or taken),
 * the options checked alone, whether a state already has the settings,
 * and starting a state over; on a generated machine of 4 cores and 2
 * threads per core (core siblings N and N+4, CPUs 0-7 online).
 * Expectations are worked out by hand from that layout and the kubelet's
 * rules (its reserved take of 2 CPUs is one whole core, the first).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/allocinit.h"
#include "allocmachine.h"
#include "unit.h"


static void
set(struct cpuset *s, const char *list)
{
	char err[128];

	if (cpuset_parse_list(list, s, err, sizeof(err)) < 0) {
		printf("not ok - parse '%s': %s\n", list, err);
		exit(1);
	}
}

static void
test_reserved(void)
{
	struct cpuset given = CPUSET_INIT, out = CPUSET_INIT;
	struct alloc_init in;
	char err[256] = "";
	int r;

	memset(&in, 0, sizeof(in));
	r = alloc_init_reserved(&m, &in, &out, err, sizeof(err));
	CHECK("reserved: none given, none reserved",
	      r == 0 && cpuset_count(&out) == 0);

	set(&given, "1,5");
	in.reserved = &given;
	r = alloc_init_reserved(&m, &in, &out, err, sizeof(err));
	CHECK_STR("reserved: a given list is kept", r == 0 ? unit_list(&out) : err,
		  "1,5");

	set(&given, "6-9");
	r = alloc_init_reserved(&m, &in, &out, err, sizeof(err));
	CHECK_STR("reserved: CPUs that are not online are refused",
		  r == -EINVAL ? err : "",
		  "invalid --reserved cpulist: CPUs 8-9 are offline");

	in.reserved = NULL;
	in.reserve_n = 2;
	r = alloc_init_reserved(&m, &in, &out, err, sizeof(err));
	CHECK_STR("reserved: 2 taken as the kubelet does, one whole core",
		  r == 0 ? unit_list(&out) : err, "0,4");

	in.reserve_n = 9;
	r = alloc_init_reserved(&m, &in, &out, err, sizeof(err));
	CHECK_STR("reserved: more than the machine has",
		  r == -ENOSPC ? err : "",
		  "cannot reserve 9 CPUs: the machine has 8 online, and pods "
		  "need at least one");

	in.reserve_n = 0;
	in.opts.k.full_cores = true;
	in.opts.k.spread_cores = true;
	r = alloc_init_reserved(&m, &in, &out, err, sizeof(err));
	CHECK("reserved: options the kubelet refuses together are refused",
	      r == -EINVAL && err[0] != '\0');
	cpuset_free(&given);
	cpuset_free(&out);
}

static void
test_same_reset(void)
{
	struct cpuset reserved = CPUSET_INIT, other = CPUSET_INIT;
	struct alloc_state st;
	struct alloc_entry e;
	struct alloc_init in;

	memset(&in, 0, sizeof(in));
	in.strict = true;
	in.opts.k.full_cores = true;
	set(&reserved, "0,4");
	set(&other, "1,5");
	state_init(&st);
	memset(&e, 0, sizeof(e));
	e.name = strdup("web");
	e.n = 2;
	set(&e.cpus, "2,6");
	if (state_add(&st, &e) < 0)
		exit(1);
	CHECK("same: a state with other settings is not the same",
	      !alloc_init_same(&st, &in, &reserved));
	CHECK("reset: starts the state over",
	      alloc_init_reset(&st, &topo, &in, &reserved) == 0 &&
	      st.nentries == 0 && st.have_print && st.strict &&
	      st.policy.k.full_cores &&
	      strcmp(unit_list(&st.reserved), "0,4") == 0);
	CHECK("same: then it has these settings",
	      alloc_init_same(&st, &in, &reserved));
	CHECK("same: other reserved CPUs differ",
	      !alloc_init_same(&st, &in, &other));
	in.strict = false;
	CHECK("same: another strict flag differs",
	      !alloc_init_same(&st, &in, &reserved));
	in.strict = true;
	in.opts.k.full_cores = false;
	CHECK("same: another policy differs",
	      !alloc_init_same(&st, &in, &reserved));
	state_free(&st);
	cpuset_free(&reserved);
	cpuset_free(&other);
}

int
main(void)
{
	unit_alloc_machine(UNIT_ALLOC_SPEC);
	test_reserved();
	test_same_reset();
	unit_machine_remove();
	return unit_failed;
}
