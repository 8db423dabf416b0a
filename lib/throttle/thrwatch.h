/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshots for cpm-throttle --watch: the groups found by one walk are
 * kept between rounds, each with its directory and control files open,
 * so that a round reads every file with one pread(2) and walks nothing.
 *
 * What tells a round that the groups changed:
 *   - a directory's link count, modification or change time moved (a
 *     subgroup made or removed; on an ordinary file tree also a file
 *     replaced or a subgroup renamed);
 *   - a kept file can no longer be read (cgroupfs answers ENODEV once
 *     its group is removed);
 * and then the round walks the hierarchy again, keeping the open files
 * of every group whose directory did not change.  On cgroupfs a
 * directory's times never move and renaming a group (v1 allows it)
 * changes no link count: a renamed group would keep its old name, so
 * every rewalk_every-th round walks again whatever happened.
 */
#ifndef CPM_THRWATCH_H
#define CPM_THRWATCH_H

#include <stddef.h>

#include "cgroup/cgroup.h"
#include "throttle/throttle.h"

struct thr_watch;

/*
 * A watch over the groups sel selects (sel and its groups must outlive
 * it).  fd_budget: how many descriptors it may keep open; a hierarchy
 * with more groups than that is walked every round, as thr_collect()
 * does.  rewalk_every: walk at least every this many rounds (0: 10).
 * Returns NULL when out of memory.
 */
struct thr_watch *thr_watch_new(const struct cg_hier *h,
				const struct thr_select *sel,
				size_t fd_budget, unsigned int rewalk_every);

/*
 * Take a snapshot into s, as thr_collect() does (same samples, same
 * errors).  Returns 0 or as thr_collect().
 */
int thr_watch_collect(struct thr_watch *w, struct thr_snap *s, char *err,
		      size_t errlen);

/* How many walks the watch has made (for tests). */
unsigned long thr_watch_walks(const struct thr_watch *w);

void thr_watch_free(struct thr_watch *w);

#endif
