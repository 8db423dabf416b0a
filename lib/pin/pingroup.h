/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Giving a group CPUs and memory nodes as cpm-pin --cgroup does: check
 * the request against the parent and the machine, create, write, read
 * back, attach, and undo on failure.  The cpuset's files and terms are
 * cgcpuset.h's.
 */
#ifndef CPM_PINGROUP_H
#define CPM_PINGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "cgroup/cgcpuset.h"
#include "cgroup/cgroup.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

/* What to give a group. */
struct cgcpuset_request {
	const char *group;		/* canonical (cg_path_check()), not "" */
	const struct cpuset *cpus;
	const struct cpuset *mems;	/* NULL: the nodes of cpus with memory */
	bool exclusive;
	bool isolated;			/* v2 only: an isolated partition */
	bool create;			/* make the group (and its parents) */
	const pid_t *attach;		/* whole processes to move in */
	size_t nattach;
};

/* The checked request, ready to apply or to show. */
struct cgcpuset_plan {
	const struct cgcpuset_request *rq;
	int version;
	struct cgcpuset_files files;	/* exclusive_on: "isolated" when
					 * rq->isolated */
	bool exists;			/* the group exists already */
	struct cpuset cpus, mems;	/* what will be written */
};

/*
 * Check rq against h and t: the group exists (or rq->create), its CPUs
 * and nodes exist and lie within what its nearest existing ancestor is
 * granted (on a tree without effective files, within the machine only).
 * Returns 0; -EINVAL when the request does not fit (err says why, the
 * tool's exit 2); -ENOENT when the group does not exist and is not to be
 * created, -ENODEV without a cpuset hierarchy, -ENOMEM or another -errno
 * of reading the hierarchy (err says which).  Free the plan with
 * cgcpuset_plan_free() either way.
 */
int cgcpuset_plan(const struct cg_hier *h, const struct topo *t,
		  const struct cgcpuset_request *rq, struct cgcpuset_plan *p,
		  char *err, size_t errlen);
void cgcpuset_plan_free(struct cgcpuset_plan *p);

/*
 * Apply a plan: create the group when needed, write its CPUs, memory
 * nodes and exclusivity (v2: a partition, made by part_make(), remote
 * where the parent is no partition root), read them back (and, live, the
 * effective CPUs), then attach the processes and check, through live,
 * that each one's cpuset and affinity followed.  Any failure undoes what
 * the call changed: a group it created is removed, an existing group
 * gets its CPUs, memory nodes and partition back, ancestors their
 * cpuset.cpus.exclusive.  Returns 0 or -errno with err saying what the
 * kernel refused or what differs ("cpuset.cpus is 1, not 0-1 as asked
 * (missing: 0)", "cgroup 'a' is an invalid root partition: REASON").
 */
int cgcpuset_apply(const struct cg_hier *h, const struct sysroot *live,
		   const struct cgcpuset_plan *p, char *err, size_t errlen);

/*
 * The CPUs process pid may use: what pin_pid_allowed_cpus() finds, else
 * the effective CPUs of its group (proc/PID/cpuset, below live) in the
 * live cpuset hierarchy, within online.  Returns true when known.
 */
bool cgcpuset_pid_allowed(const struct sysroot *live, pid_t pid,
			  const struct cpuset *online, struct cpuset *out);

#endif
