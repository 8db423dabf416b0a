// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Placing an allocation by name without the CLI: a take that is
 * idempotent for a name the state holds, and the hints text with its
 * core type lines; on a generated hybrid machine of one NUMA node, two
 * performance cores (CPUs 0-1, capacity 1024) and two efficiency cores
 * (CPUs 2-3, capacity 512).  Expectations are worked out by hand: a take
 * goes to the fastest type that can hold it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocmachine.h"
#include "alloc/alloctake.h"
#include "base/strbuf.h"
#include "unit.h"

static const char spec[] =
	"node 0 mem_kb=1048576\n"
	"cpu 0 core=0 socket=0 node=0 capacity=1024\n"
	"cpu 1 core=1 socket=0 node=0 capacity=1024\n"
	"cpu 2 core=2 socket=0 node=0 capacity=512\n"
	"cpu 3 core=3 socket=0 node=0 capacity=512\n";

static struct coretypes ct;

static void
test_take(struct alloc_state *st)
{
	const struct alloc_entry *held;
	struct alloc_request rq;
	struct alloc_entry e;
	char err[256] = "";
	bool mixed;
	int r;

	unit_request(&rq, "a", 2);
	memset(&e, 0, sizeof(e));
	r = alloc_take_named(&ct, &m, st, &rq, -1, &e, &held, &mixed, NULL,
			     err, sizeof(err));
	CHECK_STR("take: a new name gets the fastest type that holds it",
		  r == 0 && held == NULL && !mixed ? unit_list(&e.cpus) : err,
		  "0-1");
	if (r == 0 && state_add(st, &e) < 0)
		exit(1);

	memset(&e, 0, sizeof(e));
	r = alloc_take_named(&ct, &m, st, &rq, -1, &e, &held, &mixed, NULL,
			     err, sizeof(err));
	CHECK_STR("take: the same name and count is what it holds",
		  r == 0 && held ? unit_list(&held->cpus) : err, "0-1");
	CHECK("take: and nothing new is taken", cpuset_count(&e.cpus) == 0);

	unit_request(&rq, "a", 3);
	r = alloc_take_named(&ct, &m, st, &rq, -1, &e, &held, &mixed, NULL,
			     err, sizeof(err));
	CHECK_STR("take: the same name with another count is refused",
		  r == -EINVAL ? err : "",
		  "'a' already holds 2 CPUs: use 'cpm-alloc resize a 3'");

	unit_request(&rq, "b", 2);
	r = alloc_take_named(&ct, &m, st, &rq, 0, &e, &held, &mixed, NULL,
			     err, sizeof(err));
	CHECK("take: kept to a full type, nothing fits",
	      r == -ENOSPC && held == NULL);
	alloc_entry_free(&e);
}

static void
test_hints(struct alloc_state *st)
{
	struct coretypes plain;
	struct alloc_request rq;
	struct strbuf sb;
	char err[256] = "";
	int r;

	unit_request(&rq, "hints", 2);
	strbuf_init(&sb);
	r = alloc_hints_text(&ct, &m, st, &rq, -1, &sb, err, sizeof(err));
	CHECK_STR("hints: node sets, then what each core type can hold",
		  r == 0 ? sb.buf : err,
		  "0 preferred\n"
		  "type performance: 0 free CPUs, cannot hold 2\n"
		  "type efficiency: 2 free CPUs, holds 2\n");
	strbuf_free(&sb);

	strbuf_init(&sb);
	r = alloc_hints_text(&ct, &m, st, &rq, 1, &sb, err, sizeof(err));
	CHECK_STR("hints: only the type asked for",
		  r == 0 ? sb.buf : err,
		  "0 preferred\ntype efficiency: 2 free CPUs, holds 2\n");
	strbuf_free(&sb);

	unit_request(&rq, "hints", 3);
	strbuf_init(&sb);
	r = alloc_hints_text(&ct, &m, st, &rq, -1, &sb, err, sizeof(err));
	CHECK_STR("hints: on a hybrid machine no node set is no error",
		  r == 0 ? sb.buf : err,
		  "type performance: 0 free CPUs, cannot hold 3\n"
		  "type efficiency: 2 free CPUs, cannot hold 3\n");
	strbuf_free(&sb);

	memset(&plain, 0, sizeof(plain));
	strbuf_init(&sb);
	r = alloc_hints_text(&plain, &m, st, &rq, -1, &sb, err, sizeof(err));
	CHECK_STR("hints: with one core type, nothing to hold 3 is refused",
		  r == -ENOSPC ? err : "",
		  "no set of NUMA nodes can hold 3 CPUs");
	CHECK("hints: and prints nothing", sb.len == 0);
	strbuf_free(&sb);
}

int
main(void)
{
	struct alloc_state st;
	struct sysroot root;
	char path[256], err[256];

	unit_alloc_machine(spec);
	snprintf(path, sizeof(path), "%s/root", unit_tmp);
	if (sysroot_open(&root, path) < 0 ||
	    coretype_load(&ct, &root, &topo, err, sizeof(err)) < 0) {
		printf("not ok - core types: %s\n", err);
		return 1;
	}
	sysroot_close(&root);
	CHECK("the machine has two core types", ct.ntypes == 2);
	state_init(&st);
	test_take(&st);
	test_hints(&st);
	state_free(&st);
	coretype_free(&ct);
	unit_machine_remove();
	return unit_failed;
}
