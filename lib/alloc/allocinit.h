/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "cpm-alloc init": the settings a state records (the reserved CPUs, the
 * strict flag and the allocation policy), checked before anything is
 * written, and whether an existing state already has them.
 *
 * The reserved CPUs are a list the caller parsed (they must be online)
 * or N CPUs taken as the kubelet takes its reserved CPUs, with the
 * policy's options.  The options are only recorded, so they are checked
 * alone, as the kubelet checks them, with an automatic distribute group
 * decided from the machine.  Errors come back as -errno with a one-line
 * message in err: -EINVAL bad input, -ENOSPC a request the machine
 * cannot satisfy, -ENOMEM.
 */
#ifndef CPM_ALLOCINIT_H
#define CPM_ALLOCINIT_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc/alloc.h"

struct alloc_init {
	const struct cpuset *reserved;	/* the CPUs given, or NULL */
	unsigned int reserve_n;		/* else N CPUs to take; 0: none */
	bool strict;			/* --strict-reserved */
	struct alloc_opts opts;		/* the policy, as given */
	const struct mem_reserve *resmem;	/* --reserved-memory, parsed
						 * (alloc_resmem_parse()) */
	int nresmem;
};

/* The reserved CPUs of in, into out (replacing it), after the checks. */
int alloc_init_reserved(const struct alloc_machine *m,
			const struct alloc_init *in, struct cpuset *out,
			char *err, size_t errlen);

/* True when state st records exactly these settings (init changes nothing). */
bool alloc_init_same(const struct alloc_state *st, const struct alloc_init *in,
		     const struct cpuset *reserved);

/*
 * Start st over with these settings: every entry removed, the topology
 * fingerprint of t, reserved, strict, the policy and the reserved memory.  0 or -ENOMEM.
 */
int alloc_init_reset(struct alloc_state *st, const struct topo *t,
		     const struct alloc_init *in,
		     const struct cpuset *reserved);

#endif
