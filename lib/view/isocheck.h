/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What can still run on, or interrupt, a set of CPUs: cpm-topo check
 * CPULIST --isolation.  Findings, one a line:
 *
 *   warning  something movable reaches the CPUs: threads allowed there
 *            whose affinity is not inside them (user and kernel apart,
 *            by name and PID), interrupts whose effective affinity
 *            includes them, the unbound workqueue mask and each
 *            workqueue's own, irqbalance without them in its banned
 *            list (over its socket live), systemd slices whose
 *            cpuset.cpus reaches them;
 *   note     irqbalance's banned list when it holds the CPUs, what
 *            cannot move (per-CPU kernel threads) and what only
 *            the boot command line can do (isolcpus=, nohz_full=,
 *            rcu_nocbs=), with the exact parameters.
 */
#ifndef CPM_ISOCHECK_H
#define CPM_ISOCHECK_H

#include <stddef.h>

#include "base/cpuset.h"
#include "base/strbuf.h"
#include "machine/sysroot.h"

/*
 * The findings about cpus below root into out.  Returns the number of
 * warnings (notes do not count), -ENOENT without proc (err says so),
 * -ENOMEM.
 */
int isolation_check(const struct sysroot *root, const struct cpuset *cpus,
		    struct strbuf *out, char *err, size_t errlen);

#endif
