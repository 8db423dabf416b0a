/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Applying a plan (plan.h) to a cpm-alloc state: the allocations made to
 * match the plan, idempotently and all or nothing.
 *
 * Terminology:
 *   plan-owned  an entry whose owner is "plan" (state.h): made by an
 *               apply, and the only kind an apply releases or changes.
 *   change      what an apply does to one instance: take, release,
 *               resize, replace (release and take again: a cpulist, or
 *               the memory, changed), mode; or nothing ("unchanged").
 *
 * Nothing here touches a file: the caller holds the state's lock, and
 * saves the state only when plan_apply() succeeded and changed it.
 */
#ifndef CPM_PLANAPPLY_H
#define CPM_PLANAPPLY_H

#include <stdbool.h>

#include "alloc/alloc.h"
#include "alloc/plan.h"
#include "alloc/state.h"
#include "base/json.h"
#include "base/strbuf.h"

#define PLAN_OWNER "plan"

enum plan_action { PLAN_UNCHANGED, PLAN_TAKE, PLAN_RELEASE, PLAN_RESIZE,
		   PLAN_REPLACE, PLAN_MODE };

struct plan_change {
	char *name;
	enum plan_action action;
	struct cpuset before, after;	/* the entry's CPUs */
};

struct plan_changes {
	int n, nchanged;
	struct plan_change *c;	/* releases first, then the plan's order */
};

/* "unchanged", "taken", "released", "resized", "replaced", "mode". */
const char *plan_action_name(enum plan_action a);

/*
 * Make st match p on machine m, its devices d (NULL: none looked up),
 * as one change: release the plan-owned entries p no longer names, and
 * those that move (a cpulist, memory, memory policy or devices that
 * changed), so that instances may swap CPUs; then for each instance in
 * p's order take it (count instances as the kubelet would, under their
 * NUMA policy, within their nodes and beside their devices as take
 * --near places them; cpulist instances exactly those CPUs), take it
 * again (what moves), resize it (a count that changed), or switch its
 * mode.  Memory is booked on the instance's own nodes only: its nodes=
 * for interleave and bind, else its CPUs' nodes, split evenly over
 * them.  The entry records the devices (near=) and the memory policy
 * (mempol=).  out gets one change per instance and per release.
 * Returns 0; -ENOSPC when an instance cannot be made as the plan says,
 * or its name belongs to an entry the plan does not own (err names the
 * instance and why; st is then partly changed: do not save it);
 * -EINVAL for options the kubelet would refuse (err says which);
 * -ENOMEM.
 */
int plan_apply(const struct alloc_machine *m, struct alloc_state *st,
	       const struct plan *p, const struct plan_devices *d,
	       struct plan_changes *out, char *err, size_t errlen);

/*
 * check --plan: plan_check(), and when it finds no error, plan_apply()
 * on a fresh state that reserves reserved (NULL: nothing), whose refusal
 * is an error finding naming the instance: a plan passes if and only if
 * it applies.  Returns the number of findings appended to out, or
 * -ENOMEM.
 */
int plan_verify(const struct alloc_machine *m, const struct plan *p,
		const struct cpuset *reserved, const struct plan_devices *d,
		struct plan_findings *out);
void plan_changes_free(struct plan_changes *c);

/*
 * One line per change ("taken web-server 4-11", "unchanged compute
 * 12-19,28-31", "resized db 20-27 -> 20-23"); with dry_run "would take"
 * and the like; and a last line "no change" or "N changes".
 */
void plan_changes_text(const struct plan_changes *c, bool dry_run,
		       struct strbuf *sb);

/*
 * The changes as one JSON object: "changed" (bool), "dry_run", and
 * "instances", an array of {name, action, changed, cpus, before}.
 */
void plan_changes_json(const struct plan_changes *c, bool dry_run,
		       struct json *j);

#endif
