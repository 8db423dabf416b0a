/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who owns a cgroup v2 group: a systemd unit, a subtree systemd delegated,
 * or nobody cpm needs to ask.
 *
 * Terminology:
 *   systemd host  a v2 hierarchy whose root holds init.scope with PID 1
 *                 in it: systemd runs as PID 1 and manages the tree
 *                 (on a v1 or hybrid host systemd does not manage the
 *                 cpu and cpuset hierarchies the way it does on v2)
 *   unit group    the group of a slice, service, scope, socket, mount
 *                 or swap unit: "system.slice/db.service".  Slices nest;
 *                 any other unit ends the chain, and what lies below it
 *                 is the unit's own subtree.
 *   delegated     below a unit group marked with the user.delegate (or
 *                 trusted.delegate) extended attribute, which systemd
 *                 sets for Delegate=yes: the unit's processes own that
 *                 subtree, systemd does not write there.  The unit's own
 *                 group stays systemd's.
 *   unmanaged     no systemd, or a group outside its unit tree (a
 *                 top-level group whose name is no unit name).
 *
 * The answer comes from the tree alone, so replayed trees
 * (--cgroup-root) laid out like a systemd host are classified as the
 * real one would be.
 */
#ifndef CPM_CGOWNER_H
#define CPM_CGOWNER_H

#include <stdbool.h>
#include <stddef.h>

#include "cgroup/cgroup.h"

enum cgowner_kind {
	CGOWNER_UNMANAGED,
	CGOWNER_UNIT,		/* a unit's group, or below an undelegated unit */
	CGOWNER_DELEGATED,
};

#define CGOWNER_UNIT_MAX 256

struct cgowner {
	enum cgowner_kind kind;
	bool systemd;			/* the hierarchy is a systemd host's */
	bool exists;			/* the group exists (else: the path's
					 * owner, for a group to be made) */
	char unit[CGOWNER_UNIT_MAX];	/* the owning unit; "" when unmanaged */
	char unit_group[CG_PATH_MAX];	/* that unit's group */
	bool is_unit_group;		/* the group is the unit's own group */
};

/* "unit", "delegated", "unmanaged". */
const char *cgowner_kind_name(enum cgowner_kind k);

/*
 * True when name (one path component) names a unit that has a group:
 * a valid unit name ending in .slice, .service, .scope, .socket, .mount
 * or .swap.
 */
bool cgowner_is_unit_name(const char *name);

/*
 * The unit a canonical group path belongs to by its components alone:
 * the leading run of slices and the first other unit after them.
 * Writes the unit's name into unit and the length of its group path
 * (a prefix of group) into *glen.  The root group is "-.slice".
 * Returns 0, or -ENOENT when the first component is no unit name (the
 * group lies outside systemd's unit tree).
 */
int cgowner_unit_of_path(const char *group, char *unit, size_t unitlen,
			 size_t *glen);

/*
 * True when h is a systemd host's hierarchy (see above): v2, and
 * init.scope/cgroup.procs at the root lists PID 1.
 */
bool cgowner_systemd_host(const struct cg_hier *h);

/*
 * Classify a canonical group of h.  Reads the delegate marks of the
 * unit group and of every existing group between it and group.  A group
 * that does not exist yet is classified by its path (o->exists false).
 * Returns 0; -EINVAL for a bad path, or -errno of opening the group.
 */
int cgowner_of(const struct cg_hier *h, const char *group, struct cgowner *o,
	       char *err, size_t errlen);

/* How a change to a group's limits is to be made. */
enum cgowner_route {
	CGOWNER_WRITE_FILES,	/* unmanaged or delegated: write the files */
	CGOWNER_VIA_SYSTEMD,	/* a unit's own group: its properties */
	CGOWNER_REFUSE,		/* systemd's, and systemd cannot do it */
	CGOWNER_FORCED,		/* refused, but --force: write the files */
};

/*
 * The rule: unmanaged and delegated groups are written directly; a unit's
 * own existing group goes through systemd when its bus is reachable
 * (bus_ok); anything else of systemd's (the bus unreachable, a group
 * below an undelegated unit, a group to be made in its tree) is refused,
 * or written when force is set.
 */
enum cgowner_route cgowner_route(const struct cgowner *o, bool bus_ok,
				 bool force);

/*
 * The one-line reason and remedy of a refusal, for the tool's message:
 * "cgroup 'G' belongs to systemd unit U ...; ... or --force".
 */
void cgowner_refusal(const struct cgowner *o, const char *group, bool bus_ok,
		     char *msg, size_t msglen);

#endif
