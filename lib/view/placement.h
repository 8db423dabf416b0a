/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Placement analysis: how well a set of CPUs suits a placement policy on
 * a machine, as findings an operator can act on.
 *
 *   compact  as few NUMA nodes, sockets and L3 caches as the count allows
 *   spread   several NUMA nodes
 *   local    one NUMA node
 *
 * Every policy also reports offline, isolated and disallowed CPUs, CPUs
 * outside the NUMA nodes asked for, and cores only half in the set (an
 * SMT sibling outside it shares the core).
 */
#ifndef CPM_PLACEMENT_H
#define CPM_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpuset.h"
#include "base/strbuf.h"
#include "machine/topo.h"

enum placement_policy { PLACE_COMPACT, PLACE_SPREAD, PLACE_LOCAL };

/* Returns 0 or -EINVAL for a name that is none of the three policies. */
int placement_policy_parse(const char *s, enum placement_policy *p);

/*
 * Check cpus against t under pol, and against the NUMA nodes in nodes
 * (NULL: any).  Appends one line per finding, "error: ..." or
 * "warning: ...", to out.  Returns the number of findings or -ENOMEM.
 */
int placement_check(const struct topo *t, const struct cpuset *cpus,
		    const struct cpuset *nodes, enum placement_policy pol,
		    struct strbuf *out);

struct coretypes;
struct device;
struct sysroot;

/* What "cpm-topo check" asks about a set of CPUs. */
struct placement_query {
	const struct cpuset *cpus;
	const struct cpuset *nodes;	/* NULL: any */
	enum placement_policy policy;
	bool irqs;			/* also the interrupts reaching cpus */
	uint64_t interval_us;		/* how long to count them */
	const struct device *devices;	/* --device: work beside these */
	size_t ndevices;
};

/*
 * The whole check of q->cpus: placement_check(), the core types they mix
 * (coretype_check() with ct), for each device the CPUs not local to it
 * (device_check_cpus(); a note when its node is unknown) and, with
 * q->irqs, the interrupts that reach them (irq_check() below root, the
 * devices' own IRQs expected there).  Appends the findings to out.
 * Returns the number of errors and warnings, -ENOMEM, or irq_check()'s
 * error with err set.
 */
int placement_report(const struct sysroot *root, const struct topo *t,
		     const struct coretypes *ct,
		     const struct placement_query *q, struct strbuf *out,
		     char *err, size_t errlen);

#endif
