/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a burst must respect besides the group: the node's headroom and
 * each group's burst budget.
 *
 * Headroom: a raise is refused while the node's idle CPU (idle and
 * iowait in proc/stat, over every CPU) over the last interval is below a
 * share, as Koordinator refuses a quota burst when its share pool's use
 * reaches sharePoolThresholdPercent.  The interval runs from one batch of
 * raises to the next (one round of "cpm-throttle --watch"), at least
 * BURST_NODE_MIN_US: a batch that comes sooner is judged by the last
 * interval, and the first one waits until that much time has passed.
 *
 * Budget: a group is raised for BUDGET in total at most within a window
 * of WINDOW that begins at its first raise; a raise is cut to what is
 * left of the budget, and once it is used up, no raise until the window
 * has passed (the next raise begins a new one).  The windows are "budget"
 * lines of the register of raised groups (burst.h), each raise charged
 * there in full before the quota changes; a raise put back early (at
 * exit) is refunded.
 */
#ifndef CPM_BURSTGUARD_H
#define CPM_BURSTGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/proc.h"
#include "quota/burst.h"

#define BURST_NODE_MIN_US 100000u
/* The default share of idle CPU a raise needs, in percent. */
#define BURST_HEADROOM_DEFAULT 50
/* The default budget window, when --budget names none. */
#define BURST_WINDOW_DEFAULT_US UINT64_C(600000000)

/* The node's CPU time as last read. */
struct burst_node {
	const char *root;	/* the root proc/stat is read below; NULL "/" */
	bool have;		/* prev is a reading */
	struct proc_cpu_times prev;
	uint64_t at;		/* when (monotonic us) */
	int idle_pm;		/* the last interval's idle share; -1 none */
	uint64_t over_us;	/* that interval's length */
};

void burst_node_init(struct burst_node *n, const char *root);

/*
 * The first reading, the beginning of the first interval, at now
 * (monotonic us), unless there is one.  0, or -errno with err set.
 */
int burst_node_start(struct burst_node *n, uint64_t now, char *err,
		     size_t errlen);

/*
 * The node's idle share (thousandths) over the interval that ends now
 * (monotonic us), into *idle_pm, and its length into *over_us: from the
 * last reading when at least BURST_NODE_MIN_US ago, else the last
 * interval's, else (the first) after sleeping until it is.  0, or -errno
 * with err set when proc/stat cannot be read.
 */
int burst_node_idle(struct burst_node *n, uint64_t now, int *idle_pm,
		    uint64_t *over_us, char *err, size_t errlen);

/*
 * How long group (of ROOT key root) may be raised at wall-clock
 * microsecond wall, asking for want_us, under budget_us per window_us in
 * the register m: want_us or what is left of the budget, less when that
 * is less; 0 when used up, with *until_wall (when the window ends).
 */
uint64_t burst_budget_left(const struct burst_journal *m, const char *root,
			   const char *group, uint64_t budget_us,
			   uint64_t window_us, int64_t wall, uint64_t want_us,
			   int64_t *until_wall);

/*
 * Charge us to group's window in m (a new window of window_us beginning
 * at wall when it has none, or its window has passed), after dropping
 * every window that has passed.  The window's used time into *used.
 * 0 or -ENOMEM.
 */
int burst_budget_charge(struct burst_journal *m, const char *root,
			const char *group, uint64_t window_us, int64_t wall,
			uint64_t us, uint64_t *used);

/* Give back us of group's window that began at began (if still there). */
void burst_budget_refund(struct burst_journal *m, const char *root,
			 const char *group, int64_t began, uint64_t us);

/* The wall clock in microseconds. */
int64_t burst_wall_us(void);

#endif
