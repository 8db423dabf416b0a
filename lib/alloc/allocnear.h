/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocations and the devices they were taken beside (cpm-alloc take
 * --near): the state's record of them ("near=eth1@0000:3b:00.0,...",
 * see state.h) checked against the devices as they are now.
 */
#ifndef CPM_ALLOCNEAR_H
#define CPM_ALLOCNEAR_H

#include "alloc/state.h"
#include "base/strbuf.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

/*
 * One "warning: ..." line into out for each device an entry of st was
 * taken beside whose local CPUs (its NUMA node's) do not hold the
 * entry's CPUs (the device moved, or the policy let the take stray), or
 * that is gone.  The devices are read
 * by address below root.  Returns the number of lines, or -ENOMEM.
 */
int alloc_near_check(const struct sysroot *root, const struct topo *t,
		     const struct alloc_state *st, struct strbuf *out);

#endif
