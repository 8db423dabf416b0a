/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup v2 cpuset partitions: reading cpuset.cpus.partition and making
 * a group a partition root, with everything undone when the kernel says
 * no.
 *
 * A partition root (`root`, or `isolated`: no load balancing, the
 * run-time form of isolcpus=) owns its CPUs: its parent and siblings
 * lose them.  Its parent must be a partition root itself (a local
 * partition), or, from Linux 6.7 (cpuset.cpus.exclusive), every
 * ancestor below the nearest partition root must list the CPUs in its
 * cpuset.cpus.exclusive, and so must the group (a remote partition), as
 * in a systemd tree whose slices are never partitions.  When the kernel
 * cannot honour a partition it keeps the type and reports
 * "root invalid (REASON)".
 */
#ifndef CPM_PARTITION_H
#define CPM_PARTITION_H

#include <stdbool.h>
#include <stddef.h>

#include "base/cpuset.h"
#include "cgroup/cgroup.h"

enum part_type { PART_MEMBER, PART_ROOT, PART_ISOLATED };

struct part_state {
	enum part_type type;
	bool valid;		/* false: "root invalid (...)" */
	char reason[256];	/* the kernel's words inside the parentheses */
};

/* "member", "root" or "isolated". */
const char *part_type_name(enum part_type type);

/*
 * Parse a cpuset.cpus.partition value: "member", "root", "isolated",
 * each optionally followed by " invalid" and " (REASON)".  Returns 0, or
 * -EBADMSG for anything else.
 */
int part_parse(const char *text, struct part_state *st);

/*
 * Read group's cpuset.cpus.partition.  The root group is a valid root.
 * Returns 0, -ENOENT (no such group or file: not v2, or the cpuset
 * controller is not enabled for it), -EBADMSG, or -errno (err says).
 */
int part_read(const struct cg_hier *h, const char *group,
	      struct part_state *st, char *err, size_t errlen);

#define PART_DEPTH_MAX 32

/* What part_make() changed, for part_undo(). */
struct part_undo {
	int n;				/* ancestors whose exclusive changed */
	char *group[PART_DEPTH_MAX];	/* top-down */
	char *old[PART_DEPTH_MAX];	/* their cpuset.cpus.exclusive */
	char *self_old;			/* the group's, when changed */
	bool type_changed;
	enum part_type old_type;
};

/*
 * Make group (canonical, not the root group, in a v2 cpuset hierarchy)
 * a partition root of type (PART_ROOT or PART_ISOLATED) over cpus, the
 * group's cpuset.cpus.  When its parent is not a partition root and the
 * kernel has cpuset.cpus.exclusive, first add cpus to the
 * cpuset.cpus.exclusive of each ancestor below the nearest partition
 * root, top-down, and set the group's own (a remote partition).  Then
 * write the type and read it back.  Returns 0; -EIO when the kernel made
 * it an invalid partition (err: "... is an invalid partition: REASON") or
 * another type; the errors of cg_write() when the kernel refused a write.
 * Whatever the result, u says what changed: on failure the caller calls
 * part_undo(), which puts it all back; on success part_undo_free().
 */
int part_make(const struct cg_hier *h, const char *group,
	      enum part_type type, const struct cpuset *cpus,
	      struct part_undo *u, char *err, size_t errlen);

/* Put back what part_make() changed, deepest first, and free u. */
void part_undo(const struct cg_hier *h, const char *group,
	       struct part_undo *u);
void part_undo_free(struct part_undo *u);

#endif
