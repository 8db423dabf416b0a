/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The allocator's unit tests share one machine and its setup: the
 * machine's topology, its kubelet view and the allocator's handle on
 * both (topo, kt, m), loaded from a gen-sysfs spec by unit_alloc_machine().
 *
 * UNIT_ALLOC_SPEC is the machine most of them reason about: 2 NUMA nodes
 * of 1 GiB, 4 cores of 2 threads (node 0: CPUs 0,1,4,5; node 1: 2,3,6,7;
 * core siblings N and N+4), CPUs 0-7 online.
 */
#ifndef CPM_UNIT_ALLOCMACHINE_H
#define CPM_UNIT_ALLOCMACHINE_H

#include <string.h>

#include "alloc/alloc.h"
#include "machine.h"

#define UNIT_ALLOC_SPEC							\
	"node 0 mem_kb=1048576 distance=10,20\n"			\
	"node 1 mem_kb=1048576 distance=20,10\n"			\
	"cpu 0 core=0 socket=0 node=0 l3=0\n"				\
	"cpu 1 core=1 socket=0 node=0 l3=0\n"				\
	"cpu 2 core=2 socket=0 node=1 l3=1\n"				\
	"cpu 3 core=3 socket=0 node=1 l3=1\n"				\
	"cpu 4 core=0 socket=0 node=0 l3=0\n"				\
	"cpu 5 core=1 socket=0 node=0 l3=0\n"				\
	"cpu 6 core=2 socket=0 node=1 l3=1\n"				\
	"cpu 7 core=3 socket=0 node=1 l3=1\n"

static struct topo topo;
static struct ktopo kt;
static struct alloc_machine m;

/* Load the machine of spec into topo, kt and m; exits on error. */
static inline void
unit_alloc_machine(const char *spec)
{
	unit_machine(spec, 0, &topo, &kt);
	m.topo = &topo;
	m.kt = &kt;
}

/* An exclusive request for n CPUs named name, with no options. */
static inline void
unit_request(struct alloc_request *rq, const char *name, int n)
{
	memset(rq, 0, sizeof(*rq));
	rq->name = name;
	rq->n = n;
	rq->mode = ALLOC_EXCLUSIVE;
}

#endif
