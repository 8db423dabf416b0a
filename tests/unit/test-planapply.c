// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plans applied without the CLI (planapply.h), on the allocator's unit
 * machine (allocmachine.h: node 0 CPUs 0,1,4,5; node 1 CPUs 2,3,6,7;
 * 1 GiB a node): interleaved memory split over the instance's nodes,
 * a spread count over both nodes and its shrink kept spread, two
 * instances swapping CPUs, mem-policy kept, and plan_verify() refusing
 * what apply cannot make.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/planapply.h"
#include "allocmachine.h"
#include "unit.h"

#define list unit_list

/* Apply the plan text to st; returns plan_apply()'s result. */
static int
apply(struct alloc_state *st, const char *text, char *err, size_t errlen)
{
	struct plan_changes ch;
	struct plan p;
	int r;

	r = plan_parse(text, strlen(text), PLAN_QUOTE, &p, err, errlen);
	if (r < 0)
		return r;
	r = plan_apply(&m, st, &p, NULL, &ch, err, errlen);
	plan_changes_free(&ch);
	plan_free(&p);
	return r;
}

/* "N:MiB,..." of an entry's booking. */
static const char *
booking(const struct alloc_entry *e)
{
	static char buf[128];
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; e && k < e->nmem; k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d:%llu",
				      k ? "," : "", e->mem[k].node,
				      (unsigned long long)(e->mem[k].bytes >> 20));
	return buf;
}

static void
test_memory(void)
{
	struct alloc_state st;
	char err[1024];

	state_init(&st);
	CHECK("interleaved memory over nodes 0-1 applies",
	      apply(&st, "c cpus=2 nodes=0-1 mem=1536M mem-policy=interleave\n",
		    err, sizeof(err)) == 0);
	CHECK_STR("... split evenly over its nodes, not all on one",
		  booking(state_find(&st, "c")), "0:768,1:768");
	CHECK_STR("... its memory policy is kept",
		  state_find(&st, "c") ? state_find(&st, "c")->mempol : "",
		  "interleave");
	state_free(&st);
	state_init(&st);
	CHECK("local memory books only on its CPUs' node",
	      apply(&st, "d cpus=0-0 mem=512M mem-policy=local\n", err,
		    sizeof(err)) == 0);
	CHECK_STR("... node 0", booking(state_find(&st, "d")), "0:512");
	CHECK("more memory than its node has: refused",
	      apply(&st, "d cpus=0-0 mem=512M mem-policy=local\n"
		    "e cpus=1-1 mem=768M\n", err, sizeof(err)) == -ENOSPC);
	state_free(&st);
}

static void
test_spread(void)
{
	struct alloc_state st;
	struct cpuset nodes = CPUSET_INIT;
	char err[1024];

	state_init(&st);
	CHECK("spread 4 CPUs that fit on one node",
	      apply(&st, "s cpus=4 affinity=spread\n", err, sizeof(err)) == 0);
	topo_nodes_of(&topo, &state_find(&st, "s")->cpus, &nodes);
	CHECK_STR("... go over both nodes", list(&nodes), "0-1");
	CHECK("shrunk to 2", apply(&st, "s cpus=2 affinity=spread\n", err,
				   sizeof(err)) == 0);
	topo_nodes_of(&topo, &state_find(&st, "s")->cpus, &nodes);
	CHECK_STR("... still over both nodes", list(&nodes), "0-1");
	CHECK("... and 2 CPUs", state_find(&st, "s")->n == 2 &&
	      cpuset_count(&state_find(&st, "s")->cpus) == 2);
	cpuset_free(&nodes);
	state_free(&st);
}

static void
test_swap(void)
{
	struct alloc_state st;
	char err[1024];

	state_init(&st);
	CHECK("two cpulists", apply(&st, "a cpus=0-1\nb cpus=2-3\n", err,
				    sizeof(err)) == 0);
	CHECK("swapped: one change",
	      apply(&st, "a cpus=2-3\nb cpus=0-1\n", err, sizeof(err)) == 0);
	CHECK_STR("... a has b's CPUs", list(&state_find(&st, "a")->cpus), "2-3");
	CHECK_STR("... b has a's", list(&state_find(&st, "b")->cpus), "0-1");
	state_free(&st);
}

static void
test_verify(void)
{
	struct plan_findings f = { 0 };
	struct plan p;
	char err[256];
	const char *text = "db cpus=2 affinity=local mem=1536M\n";

	CHECK("parse", plan_parse(text, strlen(text), PLAN_QUOTE, &p, err,
				  sizeof(err)) == 0);
	CHECK("plan_check alone finds nothing",
	      plan_check(&p, &topo, NULL, NULL, &f) == 0);
	plan_findings_free(&f);
	CHECK("plan_verify: apply cannot make it, one error",
	      plan_verify(&m, &p, NULL, NULL, &f) == 1 && f.nerrors == 1);
	CHECK_STR("... naming the instance", f.n ? f.f[0].instance : "", "db");
	plan_findings_free(&f);
	plan_free(&p);
}

int
main(void)
{
	unit_alloc_machine(UNIT_ALLOC_SPEC);
	test_memory();
	test_spread();
	test_swap();
	test_verify();
	unit_machine_remove();
	return unit_failed;
}
