/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A group's cpuset: its files by hierarchy version (cgfiles.h) and their
 * lists.  Giving a group CPUs and memory nodes, as cpm-pin --cgroup does,
 * is pingroup.h's.
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

#include "base/cpuset.h"
#include "cgroup/cgroup.h"
#include "machine/cgfiles.h"

/*
 * Read a list file of group's cpuset into out.  Returns 0, the errors of
 * cg_read(), or -EBADMSG when the file holds no list (err says so).
 */
int cgcpuset_read_list(const struct cg_hier *h, const char *group,
		       const char *file, struct cpuset *out, char *err,
		       size_t errlen);

/*
 * The CPUs that groups below group (not group itself) hold on their own:
 * the union of every non-empty cpuset.cpus that leaves out some CPU of
 * all (work pinned there), into out.  Returns 0 (also when group is not
 * there: out is empty), or the errors of cg_walk().
 */
int cgcpuset_pinned_below(const struct cg_hier *h, const char *group,
			  const struct cpuset *all, struct cpuset *out,
			  char *err, size_t errlen);

#endif
