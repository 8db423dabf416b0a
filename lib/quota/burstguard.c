// SPDX-License-Identifier: GPL-2.0-or-later
/* The node's headroom and the groups' burst budgets: see burstguard.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "base/timeutil.h"
#include "machine/sysroot.h"
#include "quota/burstguard.h"

void
burst_node_init(struct burst_node *n, const char *root)
{
	memset(n, 0, sizeof(*n));
	n->root = root;
	n->idle_pm = -1;
}

static int
node_read(const struct burst_node *n, struct proc_cpu_times *t, char *err,
	  size_t errlen)
{
	struct sysroot root;
	int r;

	r = sysroot_open(&root, n->root);
	if (r == 0) {
		r = proc_cpu_times(&root, t);
		sysroot_close(&root);
	}
	if (r < 0)
		err_set(err, errlen, "cannot read the node's CPU time from "
			"%s/proc/stat: %s", n->root ? n->root : "",
			r == -EBADMSG ? "not in the kernel's format" :
			strerror(-r));
	return r;
}

static void
sleep_us(uint64_t us)
{
	struct timespec ts = { (time_t)(us / 1000000),
			       (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int
burst_node_start(struct burst_node *n, uint64_t now, char *err, size_t errlen)
{
	int r;

	if (n->have)
		return 0;
	r = node_read(n, &n->prev, err, errlen);
	if (r < 0)
		return r;
	n->have = true;
	n->at = now;
	return 0;
}

int
burst_node_idle(struct burst_node *n, uint64_t now, int *idle_pm,
		uint64_t *over_us, char *err, size_t errlen)
{
	struct proc_cpu_times t;
	int r, pm;

	r = burst_node_start(n, now, err, errlen);
	if (r < 0)
		return r;
	if (now - n->at < BURST_NODE_MIN_US) {
		if (n->idle_pm >= 0) {
			*idle_pm = n->idle_pm;
			*over_us = n->over_us;
			return 0;
		}
		sleep_us(BURST_NODE_MIN_US - (now - n->at));
		now = now_us();
	}
	r = node_read(n, &t, err, errlen);
	if (r < 0)
		return r;
	pm = proc_cpu_idle_pm(&n->prev, &t);
	if (pm < 0) {
		/* no tick passed (or the counters went back): sample again */
		if (n->idle_pm < 0)
			pm = 1000;
		else
			pm = n->idle_pm;
	}
	n->idle_pm = pm;
	n->over_us = now - n->at;
	n->prev = t;
	n->at = now;
	*idle_pm = pm;
	*over_us = n->over_us;
	return 0;
}

/* The live window of group at wall, or -1 (none, or passed). */
static ssize_t
window_of(const struct burst_journal *m, const char *root, const char *group,
	  int64_t wall)
{
	ssize_t k = burst_budget_find(m, root, group);

	if (k < 0 || wall >= m->bv[k].began + (int64_t)m->bv[k].window ||
	    wall < m->bv[k].began - (int64_t)m->bv[k].window)
		return -1;	/* passed, or the clock went far back */
	return k;
}

uint64_t
burst_budget_left(const struct burst_journal *m, const char *root,
		  const char *group, uint64_t budget_us, uint64_t window_us,
		  int64_t wall, uint64_t want_us, int64_t *until_wall)
{
	ssize_t k = window_of(m, root, group, wall);
	uint64_t left;

	(void)window_us;	/* a window keeps the length it began with */
	if (k < 0)
		return want_us < budget_us ? want_us : budget_us;
	left = m->bv[k].used < budget_us ? budget_us - m->bv[k].used : 0;
	*until_wall = m->bv[k].began + (int64_t)m->bv[k].window;
	return want_us < left ? want_us : left;
}

int
burst_budget_charge(struct burst_journal *m, const char *root,
		    const char *group, uint64_t window_us, int64_t wall,
		    uint64_t us, uint64_t *used)
{
	struct burst_budget w;
	ssize_t k;
	size_t i;

	for (i = 0; i < m->bn; i++) {
		const struct burst_budget *o = &m->bv[i];

		if (!o->deleted && window_of(m, o->root, o->group, wall) < 0)
			burst_budget_del(m, i);
	}
	k = window_of(m, root, group, wall);
	if (k >= 0) {
		m->bv[k].used += us;
		m->dirty = true;
		*used = m->bv[k].used;
		return 0;
	}
	memset(&w, 0, sizeof(w));
	w.root = (char *)root;
	w.group = (char *)group;
	w.began = wall;
	w.window = window_us;
	w.used = us;
	*used = us;
	return burst_budget_put(m, &w);
}

void
burst_budget_refund(struct burst_journal *m, const char *root,
		    const char *group, int64_t began, uint64_t us)
{
	ssize_t k = burst_budget_find(m, root, group);

	if (k < 0 || m->bv[k].began != began)
		return;
	m->bv[k].used = m->bv[k].used > us ? m->bv[k].used - us : 0;
	m->dirty = true;
}

int64_t
burst_wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
