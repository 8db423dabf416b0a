/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Setting a group's CPU share, quota, period and burst: the target values
 * from what is asked and what the group has, the kernel's limits checked
 * before anything is written, the writes in an order the kernel accepts
 * at every step, and their undoing when one is refused.
 *
 * Terminology:
 *   request  the CPUs a group is guaranteed: v1 cpu.shares, v2 cpu.weight
 *   limit    the CPUs it may use per period: quota / period (v1
 *            cpu.cfs_quota_us and cpu.cfs_period_us, v2 cpu.max)
 *   burst    quota a group may carry over from idle periods (v1
 *            cpu.cfs_burst_us, v2 cpu.max.burst)
 */
#ifndef CPM_QUOTA_H
#define CPM_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup/cgctrl.h"
#include "cgroup/cgroup.h"
#include "kube/quantity.h"

/* What to set; what is not asked for stays as the group has it. */
struct quota_request {
	bool have_request, have_limit, have_burst;
	int64_t request_m, limit_m, burst_m;	/* millicpu */
	const char *request_text;	/* the request as given, for messages */
	const char *limit_text;		/* the limit as given, for messages */
	uint64_t period_us;		/* 0: keep the group's */
	enum weight_formula formula;	/* v2: shares to weight */
};

/*
 * Refuse what no group can be set to, before anything is read: limits
 * for the root group (group ""), a limit of no CPU time, a request above
 * the limit (the rule 'class' applies).  Returns 0 or -EINVAL (err says
 * which, quoting the values as given).
 */
int quota_request_check(const struct quota_request *rq, const char *group,
			char *err, size_t errlen);

/* The limits the kernel gives a new group. */
void quota_new_group(struct cg_cpu_limit *cur);

/*
 * The limits group has, to plan from: what the kernel reports when it
 * exists (cg_cpu_limit_read()'s returns), the kernel's defaults for a
 * group to be created, and those too for a unit's group changed through
 * systemd (via_systemd) that has no cpu.max yet: no CPU property has
 * asked for the controller, and systemd makes the files when it applies
 * the properties.
 */
int quota_current(const struct cg_hier *h, const char *group, bool exists,
		  bool via_systemd, struct cg_cpu_limit *cur, char *err,
		  size_t errlen);

/*
 * Plan the writes that take a group of hierarchy version 1 or 2 from cur
 * to what rq asks.  Burst goes down before and up after the quota, and of
 * quota and period the one giving the lower intermediate limit goes
 * first (v1 refuses a child whose limit exceeds its parent's).  Returns
 * 0; -EINVAL when a value is outside the kernel's limits (err says
 * which); -EOPNOTSUPP when a burst is asked and the kernel has none.
 */
int quota_plan_make(int version, const char *group,
		    const struct cg_cpu_limit *cur,
		    const struct quota_request *rq, struct quota_plan *p,
		    char *err, size_t errlen);

/*
 * Carry out a plan on group in h's cpu hierarchy.  With create, the group
 * is first made where it is missing in every hierarchy that serves a CPU
 * limit, as "cgcreate -g cpu,cpuacct" does: the cpu one, and the cpuacct
 * one when that is mounted apart (on v1), so that the group's usage can
 * be read.  When a create or a write is refused, the writes before it
 * are undone, newest first, and what was made is removed: the group and
 * the parents made for it, in each hierarchy.  Returns 0 or -errno with
 * err naming the refused create or write.
 */
int quota_plan_apply(const struct cg_hier *h, const char *group, bool create,
		     const struct quota_plan *p, char *err, size_t errlen);

#endif
