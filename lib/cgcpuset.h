/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A group's cpuset: its files by hierarchy version, and giving a group
 * CPUs and memory nodes as cpm-pin --cgroup does (check against the
 * parent and the machine, create, write, read back, attach).
 *
 * Terminology:
 *   cpuset     the cgroup controller, and a group's CPUs and memory nodes
 *   cpulist    the text form of a set ("0-3,8"), as in every file here
 *   effective  what the kernel grants the group: its own set within its
 *              parent's effective set (v1 cpuset.effective_cpus, v2
 *              cpuset.cpus.effective)
 *   exclusive  v1 cpuset.cpu_exclusive=1, v2 cpuset.cpus.partition=root
 *   isolated   v2 cpuset.cpus.partition=isolated (see partition.h)
 */
#ifndef CPM_CGCPUSET_H
#define CPM_CGCPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cgroup.h"
#include "cpuset.h"
#include "sysroot.h"
#include "topo.h"

/* The cpuset files of a hierarchy of version 1 or 2. */
struct cgcpuset_files {
	const char *cpus, *mems;		/* what the group asks for */
	const char *eff_cpus, *eff_mems;	/* what the kernel grants */
	const char *exclusive;			/* the exclusivity switch */
	const char *exclusive_on;		/* its value when exclusive */
};

void cgcpuset_files(int version, struct cgcpuset_files *f);

/*
 * Read a list file of group's cpuset into out.  Returns 0, the errors of
 * cg_read(), or -EBADMSG when the file holds no list (err says so).
 */
int cgcpuset_read_list(const struct cg_hier *h, const char *group,
		       const char *file, struct cpuset *out, char *err,
		       size_t errlen);

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
