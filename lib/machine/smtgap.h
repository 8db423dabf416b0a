/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cores with an offline SMT sibling, and what the kubelet's arithmetic
 * does with them.  The kubelet counts CPUs per core as online CPUs /
 * cores, rounded down: with one sibling of a 2-thread machine offline
 * that is 1, and its allocator (cpm's too, to stay exact) then takes
 * whole cores as if they were single threads, splitting them.
 */
#ifndef CPM_SMTGAP_H
#define CPM_SMTGAP_H

#include "base/cpuset.h"
#include "base/strbuf.h"
#include "machine/topo.h"

/*
 * Whether the kubelet's counts may be off on t: some CPU is offline and
 * the online CPUs are not cores x threads_per_core (ncores: the number
 * of cores, as the kubelet counts them).  Cheap: no per-CPU array.
 */
static inline bool
smtgap_suspect(const struct topo *t, int ncpus, int ncores)
{
	return !cpuset_empty(&t->offline) && ncores > 0 &&
	       ncpus != ncores * t->threads_per_core;
}

/*
 * The cores (by lowest CPU) of t that have fewer online threads than the
 * machine's threads_per_core while some CPU is offline: those whose
 * sibling is offline (the kernel drops an offline CPU's topology, so the
 * sibling itself cannot be named).  *ncpus and *ncores get the online
 * CPUs and cores the kubelet counts.  Needs t's per-CPU array.  Returns
 * the number of such cores, or -ENOMEM.
 */
int smtgap_cores(const struct topo *t, struct cpuset *cores, int *ncpus,
		 int *ncores);

/*
 * The one-line "warning: ..." for t into out (without a newline), when
 * some core has an offline sibling.  Returns 1 with a warning, 0 without,
 * -ENOMEM.
 */
int smtgap_warning(const struct topo *t, struct strbuf *out);

#endif
