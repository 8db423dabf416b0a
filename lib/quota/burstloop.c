// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The burst engine: group table, batches, active list, line reader and
 * loop of "cpm-quota burst", and the restore of "cpm-quota restore".
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/timeutil.h"
#include "cgroup/cgctrl.h"
#include "cgroup/cgowner.h"
#include "cgroup/cgroup.h"
#include "cgroup/sdapply.h"
#include "kube/quantity.h"
#include "quota/burstloop.h"

static void
say(struct burst_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
say(struct burst_report *rep, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (rep->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rep->warn(rep->arg, msg);
}

void
burst_engine_init(struct burst_engine *b)
{
	memset(b, 0, sizeof(*b));
	b->wait_ms = -1;
	b->groups = BURST_GROUPS_DEFAULT;
	b->factor_m = 2000;
	b->for_us = 500000;
	b->cooldown_us = 5000000;
	b->max_groups = BURST_GROUPS_MAX;
	b->realloc_fn = realloc;
	b->window_us = BURST_WINDOW_DEFAULT_US;
	burst_node_init(&b->node, NULL);
}

static void
group_free(struct burst_group *g)
{
	free(g->name);
	free(g);
}

void
burst_engine_free(struct burst_engine *b)
{
	struct burst_group *g;
	size_t i;

	for (i = 0; i < b->nbuckets; i++)
		while ((g = b->tab[i]) != NULL) {
			b->tab[i] = g->next;
			group_free(g);
		}
	free(b->tab);
	free(b->active);
	free(b->queue);
	free(b->line);
	free(b->root);
	b->tab = NULL;
	b->active = b->queue = NULL;
	b->line = NULL;
	b->root = NULL;
	b->nbuckets = b->n = b->nactive = b->capactive = 0;
	b->nqueue = b->capqueue = b->llen = 0;
}

/* Every allocation goes through here, so that a test can make it fail. */
static void *
xrealloc(struct burst_engine *b, void *p, size_t n)
{
	void *q = b->realloc_fn(p, n);

	if (q == NULL && !b->oom) {
		b->oom = true;
		b->rep.status = BURST_FAILED;
		say(&b->rep, "out of memory; putting back what was raised");
	}
	return q;
}

/* Make room for n pointers in *v (capacity *cap).  0 or -ENOMEM. */
static int
reserve(struct burst_engine *b, struct burst_group ***v, size_t *cap,
	size_t n, size_t first)
{
	struct burst_group **nv;
	size_t nc = *cap ? *cap : first;

	if (n <= *cap)
		return 0;
	while (nc < n)
		nc *= 2;
	nv = xrealloc(b, *v, nc * sizeof(**v));
	if (nv == NULL)
		return -ENOMEM;
	*v = nv;
	*cap = nc;
	return 0;
}

static size_t
bucket(const char *name, size_t nbuckets)
{
	return (size_t)(fnv1a64(FNV64_INIT, name, strlen(name)) % nbuckets);
}

/* Double the buckets (keeping chains short).  0 or -ENOMEM. */
static int
table_grow(struct burst_engine *b)
{
	size_t nb = b->nbuckets ? b->nbuckets * 2 : 64, i;
	struct burst_group **nt, *g;

	nt = xrealloc(b, NULL, nb * sizeof(*nt));
	if (nt == NULL)
		return -ENOMEM;
	memset(nt, 0, nb * sizeof(*nt));
	for (i = 0; i < b->nbuckets; i++)
		while ((g = b->tab[i]) != NULL) {
			size_t k = bucket(g->name, nb);

			b->tab[i] = g->next;
			g->next = nt[k];
			nt[k] = g;
		}
	free(b->tab);
	b->tab = nt;
	b->nbuckets = nb;
	return 0;
}

/*
 * Forget the groups nothing needs any more: not raised, not queued, and
 * out of their cooldown.  Notes when the next one will be.
 */
static void
table_sweep(struct burst_engine *b, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	size_t i;

	for (i = 0; i < b->nbuckets; i++) {
		struct burst_group **pg = &b->tab[i], *g;

		while ((g = *pg) != NULL) {
			uint64_t free_at = g->ever ?
				g->last_start + b->cooldown_us : 0;

			if (g->boosted || g->queued) {
				pg = &g->next;
				continue;
			}
			if (free_at > now) {
				if (free_at < next)
					next = free_at;
				pg = &g->next;
				continue;
			}
			*pg = g->next;
			group_free(g);
			b->n--;
		}
	}
	b->sweep_at = next;
}

/*
 * The group named name (canonical), added when new.  NULL with -ENOSPC
 * (table full) or -ENOMEM in *r.
 */
static struct burst_group *
group_get(struct burst_engine *b, const char *name, uint64_t now, int *r)
{
	struct burst_group *g;
	size_t i;

	if (b->nbuckets) {
		for (g = b->tab[bucket(name, b->nbuckets)]; g; g = g->next)
			if (strcmp(g->name, name) == 0)
				return g;
	}
	if (b->n >= b->max_groups) {
		if (now >= b->sweep_at)
			table_sweep(b, now);
		if (b->n >= b->max_groups) {
			*r = -ENOSPC;
			return NULL;
		}
	}
	if (b->n >= b->nbuckets && table_grow(b) < 0) {
		*r = -ENOMEM;
		return NULL;
	}
	g = xrealloc(b, NULL, sizeof(*g));
	if (g == NULL) {
		*r = -ENOMEM;
		return NULL;
	}
	memset(g, 0, sizeof(*g));
	g->name = xrealloc(b, NULL, strlen(name) + 1);
	if (g->name == NULL) {
		free(g);
		*r = -ENOMEM;
		return NULL;
	}
	strcpy(g->name, name);
	i = bucket(name, b->nbuckets);
	g->next = b->tab[i];
	b->tab[i] = g;
	b->n++;
	return g;
}

static void
active_add(struct burst_engine *b, struct burst_group *g)
{
	/* room was reserved before the quota was raised */
	b->active[b->nactive++] = g;
	g->boosted = true;
}

static void
active_del(struct burst_engine *b, size_t i)
{
	b->active[i]->boosted = false;
	b->active[i] = b->active[--b->nactive];
}

int
burst_queue(struct burst_engine *b, const char *name, uint64_t now)
{
	char group[CG_PATH_MAX], err[512];
	struct burst_group *g;
	int r;

	if (cg_path_check(name, group, sizeof(group), err, sizeof(err)) < 0) {
		say(&b->rep, "%s", err);
		b->rep.status = BURST_BADINPUT;
		return -EINVAL;
	}
	if (group[0] == '\0') {
		say(&b->rep, "the root group has no quota to raise; skipped");
		return 0;
	}
	g = group_get(b, group, now, &r);
	if (g == NULL) {
		if (r == -ENOSPC) {
			say(&b->rep, "more than %zu groups in their cooldown; "
			    "'%s' skipped", b->max_groups, group);
			b->rep.status = BURST_FAILED;
		}
		return r;
	}
	if (g->boosted || g->queued)
		return 0;
	if (g->ever && now - g->last_start < b->cooldown_us)
		return 0;
	if (g->budget_until > now)
		return 0;
	if (reserve(b, &b->queue, &b->capqueue, b->nqueue + 1, 64) < 0)
		return -ENOMEM;
	b->queue[b->nqueue++] = g;
	g->queued = true;
	return 1;
}

/* Open the journal for a batch: warns and returns -errno on failure. */
static int
journal_open(struct burst_engine *b, struct burst_journal *j)
{
	char err[512];
	int r;

	r = burst_journal_open_wait(j, b->journal, b->wait_ms, err,
				    sizeof(err));
	if (r < 0) {
		say(&b->rep, "%s", err);
		b->rep.status = r == -EBADMSG ? BURST_BADINPUT : BURST_FAILED;
	}
	return r;
}

/*
 * The register of raised groups, for the locked journal j: warns and
 * returns -errno on failure.
 */
static int
register_open(struct burst_engine *b, const struct burst_journal *j,
	      struct burst_journal *m)
{
	char err[512];
	int r;

	r = burst_register_open(m, j, b->groups, b->wait_ms, err, sizeof(err));
	if (r < 0) {
		say(&b->rep, "%s", err);
		b->rep.status = r == -EBADMSG ? BURST_BADINPUT : BURST_FAILED;
	}
	return r;
}

/* Drop e's group from the register m when e's process holds it there. */
static void
unregister(struct burst_journal *m, const struct burst_entry *e)
{
	ssize_t k;

	if (m == NULL)
		return;
	k = burst_journal_find(m, e->root, e->group);
	if (k >= 0 && m->v[k].pid == e->pid && m->v[k].start == e->start)
		burst_journal_del(m, (size_t)k);
}

/*
 * systemd's runtime drop-in for a unit's CPUQuota=, as SetUnitProperties
 * with runtime=true writes it (unit_write_setting(): "50-" NAME ".conf"
 * in the runtime control directory, or for a transient unit in the
 * transient one), and its directory (dirlen long).
 */
static const char *const sd_runtime_dirs[2] = {
	"/run/systemd/system.control", "/run/systemd/transient"
};

static void
dropin_path(int k, const char *unit, char *path, size_t len, size_t *dirlen)
{
	int n = snprintf(path, len, "%s/%s.d", sd_runtime_dirs[k], unit);

	*dirlen = n < 0 ? 0 : (size_t)n;
	snprintf(path + *dirlen, len - *dirlen, "/50-CPUQuota.conf");
}

/*
 * The drop-in files of unit that are there (BURST_DROPIN_*).  A path
 * that cannot be checked counts as there: cpm removes only what it knows
 * it made.
 */
static unsigned
dropins_there(const char *unit)
{
	char path[CGOWNER_UNIT_MAX + 64];
	unsigned there = 0;
	size_t dl;
	int k;

	for (k = 0; k < 2; k++) {
		dropin_path(k, unit, path, sizeof(path), &dl);
		if (access(path, F_OK) == 0 || errno != ENOENT)
			there |= BURST_DROPIN_FILE << (2 * k);
		path[dl] = '\0';
		if (access(path, F_OK) == 0 || errno != ENOENT)
			there |= BURST_DROPIN_DIR << (2 * k);
	}
	return there;
}

/*
 * Remove the drop-in files of unit that a raise made (made), then have
 * systemd read its configuration again, so that it no longer lists them
 * and the unit file decides again, as before the raise.  The property
 * is put back first: this only takes away what the raise left on disk.
 */
static int
dropins_remove(struct sdbus *bus, const char *unit, unsigned made,
	       char *err, size_t errlen)
{
	char path[CGOWNER_UNIT_MAX + 64];
	bool any = false;
	size_t dl;
	int k;

	for (k = 0; k < 2; k++) {
		unsigned m = made >> (2 * k);

		if (!(m & BURST_DROPIN_FILE))
			continue;
		dropin_path(k, unit, path, sizeof(path), &dl);
		if (unlink(path) < 0 && errno != ENOENT) {
			snprintf(err, errlen, "cannot remove systemd drop-in "
				 "'%s': %s", path, strerror(errno));
			return -errno;
		}
		path[dl] = '\0';
		if (m & BURST_DROPIN_DIR)
			(void)rmdir(path);	/* not empty: not only ours */
		any = true;
	}
	return any ? sdbus_reload(bus, err, errlen) : 0;
}

/*
 * Write a quota, raise or restore.  A systemd unit's own group gets it as
 * a runtime property (systemd would put a written file back on its next
 * reload, and putting back the property's old value leaves 'systemctl
 * show' as it was); a raise into any other group of systemd's is refused
 * (-EPERM, err says why), while a restore there writes the file: putting
 * the original back is never worse than leaving the raise.  A raise sets
 * *dropins to the runtime drop-in files systemd made for it; a restore
 * removes those in *dropins, which leaves systemd's configuration as the
 * raise found it.
 */
static int
quota_write(const struct cg_hier *h, const char *group, int64_t quota,
	    uint64_t period, bool raise, unsigned *dropins, char *err,
	    size_t errlen)
{
	struct cgowner o;
	struct sdbus *bus = NULL;
	char v[64];
	int r;

	if (raise)
		*dropins = 0;
	if (cg_version(h, CG_CPU) == 2) {
		r = cgowner_of(h, group, &o, err, errlen);
		if (r < 0)
			return r;
		if (o.kind == CGOWNER_UNIT) {
			r = sdapply_connect(h, &o, group, &bus, err, errlen);
			if (r == 0) {
				unsigned before = raise ? dropins_there(o.unit) : 0;

				r = sdapply_cpu_quota(h, bus, o.unit, group,
						      quota, period, err,
						      errlen);
				if (raise)
					*dropins = dropins_there(o.unit) &
						   ~before;
				else if (r == 0)
					r = dropins_remove(bus, o.unit,
							   *dropins, err,
							   errlen);
				sdbus_close(bus);
				return r;
			}
			if (raise) {
				snprintf(err, errlen, "not raising '%s': it is "
					 "systemd unit %s's and %s", group,
					 o.unit, !o.is_unit_group ?
					 "not delegated" : r == -ENOTCONN ?
					 "systemd's bus is not reachable" :
					 "systemd does not know it as that "
					 "unit");
				return -EPERM;
			}
		}
		cpu_max_format(quota, period, v, sizeof(v));
		return cg_write(h, CG_CPU, group, "cpu.max", v, err, errlen);
	}
	snprintf(v, sizeof(v), "%lld", (long long)quota);
	return cg_write(h, CG_CPU, group, "cpu.cfs_quota_us", v, err, errlen);
}

int
burst_restore_entry(struct burst_report *rep, const struct cg_hier *h,
		    const struct burst_entry *e)
{
	struct cg_cpu_limit cur;
	unsigned dropins;
	char err[512];
	int r;

	r = cg_cpu_limit_read(h, e->group, -1, &cur, err, sizeof(err));
	if (r == -ENOENT) {
		if (rep->verbose)
			say(rep, "'%s' is gone; nothing to restore", e->group);
		return 0;
	}
	if (r < 0) {
		say(rep, "%s", err);
		return r;
	}
	if (cur.quota_us != e->boost_quota || cur.period_us != e->period) {
		if (cur.quota_us != e->orig_quota)
			say(rep, "the quota of '%s' changed to %lldus while it "
			    "was raised; left as it is", e->group,
			    (long long)cur.quota_us);
		return 0;
	}
	dropins = e->sd_dropins;
	r = quota_write(h, e->group, e->orig_quota, e->period, false,
			&dropins, err, sizeof(err));
	if (r < 0) {
		say(rep, "cannot restore '%s': %s", e->group, err);
		return r;
	}
	if (rep->verbose)
		say(rep, "restored '%s' to %lldus", e->group,
		    (long long)e->orig_quota);
	return 0;
}

/*
 * The journal entry that raising group g (at limit lim) would write, into
 * e: 0, or 1 when g is to be skipped (warned).
 */
static int
plan_boost(struct burst_engine *b, const struct burst_journal *j,
	   const struct burst_journal *m, const struct burst_group *g,
	   const struct cg_cpu_limit *lim, uint64_t wall,
	   struct burst_entry *e)
{
	const struct burst_journal *in[2] = { m, j };
	ssize_t k;
	int t;
	__int128 nqta;

	if (lim->quota_us < 0) {
		say(&b->rep, "'%s' has no CPU limit; skipped", g->name);
		return 1;
	}
	memset(e, 0, sizeof(*e));
	e->orig_quota = lim->quota_us;
	/*
	 * The register first: a raise by a burst of any journal.  Then
	 * this journal, which may hold a killed burst's raise that the
	 * register lost.
	 */
	for (t = 0; t < 2; t++) {
		const struct burst_entry *old;

		k = burst_journal_find(in[t], b->root, g->name);
		if (k < 0)
			continue;
		old = &in[t]->v[k];
		if (burst_owner_alive(old) &&
		    (old->pid != b->pid || old->start != b->start)) {
			say(&b->rep, "'%s' is already raised by process %ld; "
			    "skipped", g->name, (long)old->pid);
			return 1;
		}
		/* left raised by a dead process: adopt its original */
		if (lim->quota_us == old->boost_quota &&
		    lim->period_us == old->period) {
			e->orig_quota = old->orig_quota;
			break;
		}
	}
	nqta = (__int128)e->orig_quota * b->factor_m / 1000;
	if (nqta > CFS_QUOTA_MAX_US - (__int128)lim->burst_us)
		nqta = CFS_QUOTA_MAX_US - (__int128)lim->burst_us;
	if (nqta <= e->orig_quota) {
		say(&b->rep, "'%s' is at the kernel's maximum quota; skipped",
		    g->name);
		return 1;
	}
	e->pid = b->pid;
	e->start = b->start;
	e->root = b->root;
	e->group = g->name;
	e->period = lim->period_us;
	e->boost_quota = (int64_t)nqta;
	e->since = (int64_t)wall;
	return 0;
}

/* A duration as seconds with up to three decimals ("0.5s", "30s"). */
static const char *
secs(uint64_t us, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "%.3f", (double)us / 1e6);
	p = buf + strlen(buf) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	strncat(buf, "s", len - strlen(buf) - 1);
	return buf;
}

/*
 * The headroom guard for a batch: true when the node's idle CPU over the
 * last interval is at least the share asked for (or the guard is off);
 * else the batch's refusal is said, once.
 */
static bool
node_allows(struct burst_engine *b)
{
	char err[512], over[32];
	uint64_t over_us;
	int pm;

	if (b->headroom_pm <= 0)
		return true;
	if (burst_node_idle(&b->node, now_us(), &pm, &over_us, err,
			    sizeof(err)) < 0) {
		say(&b->rep, "%s; nothing raised", err);
		b->rep.status = BURST_FAILED;
		return false;
	}
	if (pm >= b->headroom_pm)
		return true;
	if (b->nqueue > 1)
		say(&b->rep, "not raising '%s' and %zu more: the node's idle "
		    "CPU was %d.%d%% over the last %s, below --node-headroom "
		    "%d%%", b->queue[0]->name, b->nqueue - 1, pm / 10, pm % 10,
		    secs(over_us, over, sizeof(over)), b->headroom_pm / 10);
	else
		say(&b->rep, "not raising '%s': the node's idle CPU was "
		    "%d.%d%% over the last %s, below --node-headroom %d%%",
		    b->queue[0]->name, pm / 10, pm % 10,
		    secs(over_us, over, sizeof(over)), b->headroom_pm / 10);
	return false;
}

/*
 * The budget guard for group g, whose entry is planned: its raise's
 * length cut to what is left of its budget, charged in the register m.
 * 1 when used up (said, and g left alone until its window has passed),
 * -ENOMEM, or 0.
 */
static int
budget_take(struct burst_engine *b, struct burst_journal *m,
	    struct burst_group *g, uint64_t now, int64_t wall)
{
	char s1[32], s2[32];
	int64_t until = wall;
	uint64_t used;
	ssize_t k;

	g->grant_us = b->for_us;
	if (b->budget_us == 0)
		return 0;
	g->grant_us = burst_budget_left(m, b->root, g->name, b->budget_us,
					b->window_us, wall, b->for_us, &until);
	if (g->grant_us == 0) {
		uint64_t wait = until > wall ? (uint64_t)(until - wall) : 0;

		say(&b->rep, "not raising '%s': it has used its burst budget "
		    "of %s in its window, which ends in %s", g->name,
		    secs(b->budget_us, s1, sizeof(s1)),
		    secs(wait, s2, sizeof(s2)));
		g->budget_until = now + wait;
		return 1;
	}
	if (burst_budget_charge(m, b->root, g->name, b->window_us, wall,
				g->grant_us, &used) < 0)
		return -ENOMEM;
	k = burst_budget_find(m, b->root, g->name);
	g->began = k >= 0 ? m->bv[k].began : wall;
	return 0;
}

/* Unqueue the batch without raising anything. */
static void
drop_batch(struct burst_engine *b)
{
	size_t i;

	for (i = 0; i < b->nqueue; i++)
		b->queue[i]->queued = false;
	b->nqueue = 0;
}

/* -v: a raise, with what the guards saw. */
static void
say_raised(struct burst_engine *b, const struct burst_journal *m,
	   const struct burst_group *g, int64_t from, int64_t to)
{
	char extra[160] = "", s1[32], s2[32], s3[32];
	size_t n = 0;
	ssize_t k;

	if (b->headroom_pm > 0 && b->node.idle_pm >= 0)
		n += (size_t)snprintf(extra, sizeof(extra), "; node idle "
				      "%d.%d%%", b->node.idle_pm / 10,
				      b->node.idle_pm % 10);
	k = b->budget_us ? burst_budget_find(m, b->root, g->name) : -1;
	if (k >= 0 && n < sizeof(extra))
		snprintf(extra + n, sizeof(extra) - n, "; for %s, budget %s "
			 "of %s used", secs(g->grant_us, s1, sizeof(s1)),
			 secs(m->bv[k].used, s2, sizeof(s2)),
			 secs(b->budget_us, s3, sizeof(s3)));
	say(&b->rep, "raised '%s' from %lldus to %lldus%s", g->name,
	    (long long)from, (long long)to, extra);
}

/*
 * Raise the groups marked in go whose entries are committed in j; those
 * that fail are removed from j again.
 */
static void
raise_batch(struct burst_engine *b, struct burst_journal *j,
	    struct burst_journal *m, const struct cg_cpu_limit *lims, const bool *go, uint64_t now)
{
	char err[512];
	size_t i;
	int r;

	for (i = 0; i < b->nqueue; i++) {
		struct burst_group *g = b->queue[i];
		ssize_t k;

		if (!go[i])
			continue;
		k = burst_journal_find(j, b->root, g->name);
		r = quota_write(b->h, g->name, j->v[k].boost_quota,
				j->v[k].period, true, &j->v[k].sd_dropins, err,
				sizeof(err));
		if (r < 0) {
			say(&b->rep, "%s", err);
			b->rep.status = r == -EPERM ? BURST_REFUSED :
					BURST_FAILED;
			if (b->budget_us)
				burst_budget_refund(m, b->root, g->name,
						    g->began, g->grant_us);
			unregister(m, &j->v[k]);
			burst_journal_del(j, (size_t)k);
			continue;
		}
		if (b->rep.verbose)
			say_raised(b, m, g, lims[i].quota_us,
				   j->v[k].boost_quota);
		g->ever = true;
		g->last_start = now;
		g->restore_at = now + g->grant_us;
		g->e = j->v[k];
		g->e.root = b->root;
		g->e.group = g->name;
		active_add(b, g);
	}
}

void
burst_boost(struct burst_engine *b, uint64_t now)
{
	struct burst_journal j, m;
	struct cg_cpu_limit *lims;
	char err[512];
	size_t i, nq = b->nqueue;
	int64_t wall = burst_wall_us();
	bool *go;
	int r;

	if (nq == 0)
		return;
	if (!node_allows(b)) {
		drop_batch(b);
		return;
	}
	/* room for everything first: nothing may fail once a quota is up */
	lims = xrealloc(b, NULL, nq * sizeof(*lims));
	go = xrealloc(b, NULL, nq * sizeof(*go));
	if (lims == NULL || go == NULL ||
	    reserve(b, &b->active, &b->capactive, b->nactive + nq, 16) < 0) {
		free(lims);
		free(go);
		drop_batch(b);
		return;
	}
	if (journal_open(b, &j) < 0) {
		say(&b->rep, "nothing raised");
		free(lims);
		free(go);
		drop_batch(b);
		return;
	}
	if (register_open(b, &j, &m) < 0) {
		say(&b->rep, "nothing raised");
		burst_journal_close(&j);
		free(lims);
		free(go);
		drop_batch(b);
		return;
	}
	for (i = 0; i < nq; i++) {
		struct burst_group *g = b->queue[i];
		struct burst_entry e;

		go[i] = false;
		r = cg_cpu_limit_read(b->h, g->name, -1, &lims[i], err,
				      sizeof(err));
		if (r < 0) {
			say(&b->rep, "%s", err);
			if (r != -ENOENT)
				b->rep.status = BURST_FAILED;
			continue;
		}
		if (plan_boost(b, &j, &m, g, &lims[i], (uint64_t)time(NULL),
			       &e) != 0)
			continue;
		r = budget_take(b, &m, g, now, wall);
		if (r > 0)
			continue;
		if (r < 0 || burst_journal_put(&j, &e) < 0 ||
		    burst_journal_put(&m, &e) < 0) {
			if (!b->oom)
				say(&b->rep, "out of memory; putting back "
				    "what was raised");
			b->oom = true;
			b->rep.status = BURST_FAILED;
			continue;
		}
		go[i] = true;
	}
	/*
	 * The originals are on disk, in the journal and then the register,
	 * before any quota changes.
	 */
	r = burst_journal_commit(&j, err, sizeof(err));
	if (r == 0)
		r = burst_journal_commit(&m, err, sizeof(err));
	if (r < 0) {
		say(&b->rep, "%s; nothing raised", err);
		b->rep.status = BURST_FAILED;
	} else {
		raise_batch(b, &j, &m, lims, go, now);
		r = burst_journal_commit(&j, err, sizeof(err));
		if (r == 0)
			r = burst_journal_commit(&m, err, sizeof(err));
		if (r < 0) {
			say(&b->rep, "%s", err);
			b->rep.status = BURST_FAILED;
		}
	}
	burst_journal_close(&m);
	burst_journal_close(&j);
	free(lims);
	free(go);
	drop_batch(b);
}

uint64_t
burst_next_due(const struct burst_engine *b)
{
	uint64_t next = UINT64_MAX;
	size_t k;

	for (k = 0; k < b->nactive; k++)
		if (b->active[k]->restore_at < next)
			next = b->active[k]->restore_at;
	return next;
}

void
burst_restore_due(struct burst_engine *b, uint64_t now, bool all)
{
	struct burst_journal j, m, *mp = &m;
	char err[512];
	size_t i;
	bool any = false;

	for (i = 0; i < b->nactive; i++)
		if (all || b->active[i]->restore_at <= now)
			any = true;
	if (!any)
		return;
	if (journal_open(b, &j) < 0) {
		/*
		 * Put the quotas back all the same, from memory; the stale
		 * entries left behind are harmless: restore only writes a
		 * quota that still has the raised value.
		 */
		for (i = 0; i < b->nactive;) {
			struct burst_group *g = b->active[i];

			if (!all && g->restore_at > now) {
				i++;
				continue;
			}
			active_del(b, i);
			if (burst_restore_entry(&b->rep, b->h, &g->e) < 0)
				b->rep.status = BURST_FAILED;
		}
		return;
	}
	/* without the register the quotas go back all the same */
	if (register_open(b, &j, &m) < 0)
		mp = NULL;
	for (i = 0; i < b->nactive;) {
		struct burst_group *g = b->active[i];
		ssize_t k;

		if (!all && g->restore_at > now) {
			i++;
			continue;
		}
		active_del(b, i);
		k = burst_journal_find(&j, b->root, g->name);
		if (k < 0 || j.v[k].pid != b->pid || j.v[k].start != b->start) {
			/* taken over by a restore --force: theirs now */
			continue;
		}
		j.v[k].sd_dropins = g->e.sd_dropins;
		if (burst_restore_entry(&b->rep, b->h, &j.v[k]) < 0) {
			b->rep.status = BURST_FAILED;
			continue;	/* keep it for 'cpm-quota restore' */
		}
		/* put back early (at exit): the rest is not charged */
		if (mp != NULL && b->budget_us && g->restore_at > now)
			burst_budget_refund(mp, b->root, g->name, g->began,
					    g->restore_at - now);
		unregister(mp, &j.v[k]);
		burst_journal_del(&j, (size_t)k);
	}
	/* the journal first: an entry left in the register alone is inert */
	if (burst_journal_commit(&j, err, sizeof(err)) < 0 ||
	    (mp != NULL && burst_journal_commit(mp, err, sizeof(err)) < 0)) {
		say(&b->rep, "%s", err);
		b->rep.status = BURST_FAILED;
	}
	if (mp != NULL)
		burst_journal_close(mp);
	burst_journal_close(&j);
}

/* Queue every complete line in the buffer; keep the incomplete rest. */
static void
take_lines(struct burst_engine *b, uint64_t now)
{
	char *line = b->line, *nl;

	while ((nl = memchr(line, '\n', b->llen -
			    (size_t)(line - b->line))) != NULL) {
		*nl = '\0';
		/*
		 * Names are data: a line is taken exactly, only its newline
		 * removed, so that "a " is not "a"; a NUL would make a prefix
		 * of it.
		 */
		if (strlen(line) != (size_t)(nl - line)) {
			if (b->bad_lines < BURST_BAD_LINES_WARNED)
				say(&b->rep, "a line on stdin holds a NUL "
				    "byte; skipped%s", b->bad_lines + 1 ==
				    BURST_BAD_LINES_WARNED ? " (and any more "
				    "such lines, without a word)" : "");
			b->bad_lines++;
			b->rep.status = BURST_BADINPUT;
		} else if (*line && *line != '#') {
			burst_queue(b, line, now);
		}
		line = nl + 1;
	}
	b->llen -= (size_t)(line - b->line);
	memmove(b->line, line, b->llen);
	if (b->llen == BURST_LINE_MAX - 1) {
		say(&b->rep, "a line on stdin is longer than %u bytes: stdin "
		    "is not a list of groups, and is read no further",
		    BURST_LINE_MAX - 1);
		b->rep.status = BURST_BADINPUT;
		b->input_ended = true;
		b->llen = 0;
	}
}

int
burst_read(struct burst_engine *b, int fd, uint64_t now)
{
	ssize_t n;
	int more = 1;

	if (b->line == NULL) {
		b->line = xrealloc(b, NULL, BURST_LINE_MAX);
		if (b->line == NULL)
			return 0;
	}
	n = read(fd, b->line + b->llen, BURST_LINE_MAX - 1 - b->llen);
	if (n < 0 && errno != EINTR && errno != EAGAIN) {
		/* never die with quotas raised: stop reading */
		say(&b->rep, "cannot read stdin: %s", strerror(errno));
		b->rep.status = BURST_FAILED;
		n = 0;
	}
	if (n == 0) {
		more = 0;
		if (b->llen > 0)	/* unterminated */
			b->line[b->llen++] = '\n';
	}
	if (n > 0)
		b->llen += (size_t)n;
	/* every complete line read so far is one batch */
	take_lines(b, now);
	burst_boost(b, now);
	return more && !b->input_ended;
}

int
burst_run(struct burst_engine *b, int fd, const sigset_t *waitmask,
	  volatile sig_atomic_t *stop)
{
	bool reading = fd >= 0;

	/* libcgroup set up now, not in the first boost's reaction time */
	if (b->h != NULL)
		cg_uses_libcgroup(b->h, CG_CPU);
	while (!*stop && !b->oom && (reading || b->nactive > 0)) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct timespec ts, *tsp = NULL;
		uint64_t now = now_us(), next = burst_next_due(b);
		int r;

		if (next != UINT64_MAX) {
			uint64_t wait = next > now ? next - now : 0;

			ts.tv_sec = (time_t)(wait / 1000000);
			ts.tv_nsec = (long)(wait % 1000000) * 1000;
			tsp = &ts;
		}
		r = ppoll(&pfd, reading ? 1 : 0, tsp, waitmask);
		if (r < 0 && errno != EINTR) {
			say(&b->rep, "poll: %s", strerror(errno));
			b->rep.status = BURST_FAILED;
			break;
		}
		/*
		 * With input ready at once, ppoll() returns without taking
		 * a pending signal, and puts the mask back over it: an
		 * input that never pauses would keep SIGTERM out for good.
		 * Open the mask a moment, so that it is taken now.
		 */
		if (r > 0) {
			sigset_t held;

			sigprocmask(SIG_SETMASK, waitmask, &held);
			sigprocmask(SIG_SETMASK, &held, NULL);
		}
		if (*stop)
			break;
		if (r > 0 && reading)
			reading = burst_read(b, fd, now_us()) > 0;
		burst_restore_due(b, now_us(), false);
	}
	burst_restore_due(b, now_us(), true);
	return b->rep.status;
}

/* One hierarchy named by journal entries, opened once. */
struct hier_cache {
	char *root;
	struct cg_hier h;
	int r;
};

/* The hierarchy that root names, opened (warned on failure) when new. */
static struct hier_cache *
hier_get(struct hier_cache **hc, size_t *nhc, const char *root,
	 struct burst_report *rep)
{
	struct hier_cache *n;
	char err[512];
	size_t k;

	for (k = 0; k < *nhc; k++)
		if (strcmp((*hc)[k].root, root) == 0)
			return &(*hc)[k];
	n = realloc(*hc, (*nhc + 1) * sizeof(**hc));
	if (n == NULL)
		return NULL;
	*hc = n;
	n = &(*hc)[*nhc];
	n->root = strdup(root);
	if (n->root == NULL)
		return NULL;
	/* "-" is the live system */
	n->r = cg_open(&n->h, strcmp(root, "-") ? root : NULL, err,
		       sizeof(err));
	if (n->r < 0)
		say(rep, "%s", err);
	(*nhc)++;
	return n;
}

int
burst_restore_journal(struct burst_journal *j, struct burst_journal *m,
		      bool force, struct burst_report *rep)
{
	struct hier_cache *hc = NULL, *c;
	size_t nhc = 0, i, k;
	char err[512];
	int r;

	for (i = 0; i < j->n; i++) {
		struct burst_entry *e = &j->v[i];

		if (e->deleted)
			continue;
		if (!force && burst_owner_alive(e)) {
			if (rep->verbose)
				say(rep, "'%s' belongs to running process %ld; "
				    "left to it", e->group, (long)e->pid);
			continue;
		}
		c = hier_get(&hc, &nhc, e->root, rep);
		if (c == NULL) {
			say(rep, "out of memory");
			rep->status = BURST_FAILED;
			break;
		}
		if (c->r == -ENOENT && strcmp(e->root, "-")) {
			/* the tree is gone, and its groups with it */
			say(rep, "'%s' is gone; dropped from the journal",
			    e->group);
			unregister(m, e);
			burst_journal_del(j, i);
			continue;
		}
		if (c->r < 0 || burst_restore_entry(rep, &c->h, e) < 0) {
			rep->status = BURST_FAILED;
			continue;
		}
		unregister(m, e);
		burst_journal_del(j, i);
	}
	r = burst_journal_commit(j, err, sizeof(err));
	if (r == 0 && m != NULL)
		r = burst_journal_commit(m, err, sizeof(err));
	if (r < 0) {
		say(rep, "%s", err);
		rep->status = BURST_FAILED;
	}
	for (k = 0; k < nhc; k++) {
		if (hc[k].r == 0)
			cg_close(&hc[k].h);
		free(hc[k].root);
	}
	free(hc);
	return rep->status;
}
