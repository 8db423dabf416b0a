// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/macros.h"
#include "base/numfmt.h"
#include "base/strbuf.h"
#include "base/timeutil.h"
#include "throttle/throttle.h"


void
thr_snap_init(struct thr_snap *s)
{
	memset(s, 0, sizeof(*s));
	/* 10,000 names of some twenty bytes in a few blocks, not in
	 * 10,000 allocations of 32 */
	s->names.block_size = 32 << 10;
}

void
thr_snap_free(struct thr_snap *s)
{
	arena_free(&s->names);
	free(s->v);
	thr_snap_init(s);
}

struct thr_sample *
thr_snap_add(struct thr_snap *s, const char *group)
{
	struct thr_sample *x;
	size_t len = strlen(group) + 1;

	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		struct thr_sample *nv = realloc(s->v, ncap * sizeof(*nv));

		if (nv == NULL)
			return NULL;
		s->v = nv;
		s->cap = ncap;
	}
	x = &s->v[s->n];
	memset(x, 0, sizeof(*x));
	x->group = arena_alloc(&s->names, len, 1);
	if (x->group == NULL)
		return NULL;
	memcpy(x->group, group, len);
	s->n++;
	return x;
}

static int
cmp_sample(const void *a, const void *b)
{
	return strcmp(((const struct thr_sample *)a)->group,
		      ((const struct thr_sample *)b)->group);
}

/* Sort by group and drop duplicates (overlapping GROUP arguments). */
static void
snap_sort(struct thr_snap *s)
{
	size_t w = 0, k = 1;

	/* A walk yields the groups nearly always in order already (and
	 * then without duplicates). */
	while (k < s->n && strcmp(s->v[k - 1].group, s->v[k].group) < 0)
		k++;
	if (k >= s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp_sample);
	for (size_t i = 0; i < s->n; i++) {
		if (w > 0 && strcmp(s->v[w - 1].group, s->v[i].group) == 0)
			continue;
		s->v[w++] = s->v[i];
	}
	s->n = w;
}

const struct thr_sample *
thr_snap_find(const struct thr_snap *s, const char *group)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(group, s->v[mid].group);

		if (c == 0)
			return &s->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool
below(const char *group, const char *top)
{
	size_t n = strlen(top);

	if (n == 0)
		return true;
	return strncmp(group, top, n) == 0 &&
	       (group[n] == '\0' || group[n] == '/');
}

int
thr_snap_keep_outside(struct thr_snap *s, const struct thr_snap *old,
		      const char *const *groups, size_t ngroups)
{
	for (size_t i = 0; i < old->n; i++) {
		const struct thr_sample *o = &old->v[i];
		struct thr_sample *x;
		bool inside = false;
		char *name;

		for (size_t k = 0; k < ngroups && !inside; k++)
			inside = below(o->group, groups[k]);
		if (inside)
			continue;
		x = thr_snap_add(s, o->group);
		if (x == NULL)
			return -ENOMEM;
		name = x->group;
		*x = *o;
		x->group = name;
	}
	snap_sort(s);
	return 0;
}

/* ---- collecting ---- */

struct collect {
	const struct cg_hier *h;
	const struct thr_select *sel;
	struct thr_snap *s;
	char *err;
	size_t errlen;
	/*
	 * v1 with cpuacct mounted apart: usage comes from the group of the
	 * same path there.  acct_gone is a group found missing from that
	 * hierarchy ("" with acct_known false: none yet); nothing below it
	 * can be there either, so the walk does not look.
	 */
	bool acct_apart;
	bool acct_known;
	char acct_gone[CG_PATH_MAX];
};

int
thr_sample(const struct cg_hier *h, const struct thr_select *sel,
	   struct thr_snap *s, const char *group, const struct cg_at *at,
	   uint64_t ino, struct cg_cpu_fds *fds, char *err, size_t errlen)
{
	bool all = sel->all || sel->ngroups > 0;
	struct cg_cpu_stat st;
	struct thr_sample *x;
	struct stat sb;
	int64_t quota;
	uint64_t period;
	int r;

	r = cg_cpu_quota_read_fds(h, group, at, fds, &quota, &period, err,
				  errlen);
	if (r == -EBADMSG || r == -ESTALE)
		return r;
	if (r < 0) {
		/* v2: no cpu controller here; vanished: nothing to report. */
		if (!all)
			return 0;
		quota = -1;
		period = 100000;
	}
	if (!all && quota < 0)
		return 0;
	r = cg_cpu_stat_read_fds(h, group, at, !sel->cumulative, fds, &st,
				 err, errlen);
	if (r == -EBADMSG || r == -ESTALE)
		return r;
	if (r < 0)
		memset(&st, 0, sizeof(st));
	x = thr_snap_add(s, group);
	if (x == NULL) {
		err_set(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (!sel->cumulative) {
		/* a leaf handed over by name comes with its stat (ino) */
		if (ino == 0 && at->sub == NULL && fstat(at->fd, &sb) == 0)
			ino = (uint64_t)sb.st_ino;
		x->ino = ino;
	}
	x->has_limit = quota >= 0;
	x->quota_us = quota;
	x->period_us = period;
	x->has_bandwidth = st.has_bandwidth;
	x->nr_periods = st.nr_periods;
	x->nr_throttled = st.nr_throttled;
	x->throttled_ns = st.throttled_ns;
	x->has_usage = st.has_usage;
	x->usage_ns = st.usage_ns;
	x->has_burst = st.has_burst;
	x->nr_bursts = st.nr_bursts;
	x->burst_ns = st.burst_ns;
	for (int i = 0; i < THR_PSI_NRES; i++) {
		if (!(sel->psi & (1u << i)))
			continue;
		r = thr_psi_read_at(at, (enum thr_psi_res)i, group, &x->psi[i],
				    err, errlen);
		/* vanished, or none: no pressure to report */
		if (r == -EBADMSG) {
			s->n--;
			return r;
		}
	}
	return 0;
}

int
thr_snap_node(const struct thr_select *sel, struct thr_snap *s, char *err,
	      size_t errlen)
{
	int r;

	if (sel->psi == 0) {
		memset(s->node, 0, sizeof(s->node));
		return 0;
	}
	r = thr_psi_read_node(sel->proc_root, s->node, err, errlen);
	return r == -EBADMSG ? r : 0;
}

static int
collect_one(const char *group, const struct cg_at *at, const struct stat *st,
	    void *arg)
{
	struct collect *c = arg;
	uint64_t ino = st ? (uint64_t)st->st_ino : 0;	/* 0: fstat it */
	struct cg_cpu_fds f;
	size_t n = c->s->n;
	bool gone;
	int r;

	if (!c->acct_apart || c->sel->cumulative)
		return thr_sample(c->h, c->sel, c->s, group, at, ino, NULL,
				  c->err, c->errlen);
	/* No descriptors kept (no budget); usage maybe known absent. */
	cg_cpu_fds_init(&f, NULL);
	gone = c->acct_known && below(group, c->acct_gone);
	if (gone)
		f.usage = CG_FD_ABSENT;
	r = thr_sample(c->h, c->sel, c->s, group, at, ino, &f, c->err,
		       c->errlen);
	/*
	 * A sample without usage, not already explained: is the group
	 * missing from the cpuacct hierarchy (then so is all below it),
	 * or only its cpuacct.usage file?
	 */
	if (r == 0 && !gone && c->s->n > n && !c->s->v[n].has_usage &&
	    !cg_exists(c->h, CG_CPUACCT, group)) {
		snprintf(c->acct_gone, sizeof(c->acct_gone), "%s", group);
		c->acct_known = true;
	}
	return r;
}

void
thr_snap_start(const struct cg_hier *h, struct thr_snap *s)
{
	struct timespec ts;

	/* Its memory kept for the samples to come (--watch rounds). */
	s->n = 0;
	arena_reset(&s->names);
	s->version = cg_version(h, CG_CPU);
	snprintf(s->hier, sizeof(s->hier), "%s", h->ctrl[CG_CPU].path);
	clock_gettime(CLOCK_REALTIME, &ts);
	s->realtime_us = (uint64_t)ts.tv_sec * 1000000 +
			 (uint64_t)ts.tv_nsec / 1000;
	s->mono_us = now_us();
}

void
thr_snap_finish(struct thr_snap *s)
{
	snap_sort(s);
}

int
thr_walk(const struct cg_hier *h, const struct thr_select *sel, cg_walk_fn fn,
	 void *arg, char *err, size_t errlen)
{
	int r = 0;

	if (sel->ngroups == 0)
		return cg_walk(h, CG_CPU, "", fn, arg, err, errlen);
	for (size_t i = 0; i < sel->ngroups && r == 0; i++)
		r = cg_walk(h, CG_CPU, sel->groups[i], fn, arg, err, errlen);
	return r;
}

int
thr_collect(const struct cg_hier *h, const struct thr_select *sel,
	    struct thr_snap *s, char *err, size_t errlen)
{
	struct collect c = { h, sel, s, err, errlen, false, false, "" };
	int r = 0;

	c.acct_apart = cg_version(h, CG_CPU) == 1 && cg_has(h, CG_CPUACCT) &&
		       !cg_same_hier(h, CG_CPU, CG_CPUACCT);

	thr_snap_start(h, s);
	r = thr_snap_node(sel, s, err, errlen);
	if (r < 0)
		return r;
	r = thr_walk(h, sel, collect_one, &c, err, errlen);
	if (r < 0)
		return r;
	snap_sort(s);
	return 0;
}

/* ---- Kubernetes paths ---- */

static void
copy_field(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static bool
qos_name(const char *s, size_t n, struct thr_k8s *k)
{
	if (n == 9 && memcmp(s, "burstable", 9) == 0) {
		strcpy(k->qos, "Burstable");
		return true;
	}
	if (n == 10 && memcmp(s, "besteffort", 10) == 0) {
		strcpy(k->qos, "BestEffort");
		return true;
	}
	return false;
}

/* Pod UID from "pod<uid>" (n bytes); underscores become dashes. */
static void
pod_uid(const char *s, size_t n, struct thr_k8s *k)
{
	copy_field(k->pod, sizeof(k->pod), s + 3, n - 3);
	for (char *p = k->pod; *p; p++)
		if (*p == '_')
			*p = '-';
}

bool
thr_k8s_parse(const char *group, struct thr_k8s *k)
{
	const char *comp[5];
	size_t len[5], nc = 0;
	const char *p = group;
	bool systemd = false, found = false;

	memset(k, 0, sizeof(*k));
	/* Find the kubepods component, then keep the next four. */
	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (!found) {
			if (n == 8 && memcmp(p, "kubepods", 8) == 0) {
				found = true;
			} else if (n == 14 && memcmp(p, "kubepods.slice", 14) == 0) {
				found = true;
				systemd = true;
			}
		} else if (nc < ARRAY_SIZE(comp)) {
			comp[nc] = p;
			len[nc++] = n;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	if (!found)
		return false;
	if (!systemd) {
		size_t i = 0;

		if (nc > 0 && qos_name(comp[0], len[0], k))
			i = 1;
		else if (nc > 0 && len[0] > 3 && memcmp(comp[0], "pod", 3) == 0)
			strcpy(k->qos, "Guaranteed");
		if (i < nc && len[i] > 3 && memcmp(comp[i], "pod", 3) == 0) {
			pod_uid(comp[i], len[i], k);
			if (i + 1 < nc)
				copy_field(k->container, sizeof(k->container),
					   comp[i + 1], len[i + 1]);
		}
		return true;
	}
	/* systemd: kubepods-burstable.slice/kubepods-burstable-pod<u>.slice */
	for (size_t i = 0; i < nc; i++) {
		const char *s = comp[i];
		size_t n = len[i];

		if (n > 6 && memcmp(s + n - 6, ".slice", 6) == 0 &&
		    n > 9 && memcmp(s, "kubepods-", 9) == 0) {
			const char *q = s + 9;
			size_t qn = n - 9 - 6;
			const char *dash = memchr(q, '-', qn);

			if (dash != NULL && qos_name(q, (size_t)(dash - q), k)) {
				qn -= (size_t)(dash - q) + 1;
				q = dash + 1;
			} else if (qos_name(q, qn, k)) {
				continue;
			}
			if (qn > 3 && memcmp(q, "pod", 3) == 0) {
				if (k->qos[0] == '\0')
					strcpy(k->qos, "Guaranteed");
				pod_uid(q, qn, k);
			}
		} else if (n > 6 && memcmp(s + n - 6, ".scope", 6) == 0 &&
			   k->pod[0] != '\0') {
			/* cri-containerd-<id>.scope, crio-<id>.scope, docker-<id>.scope */
			const char *id = s;
			size_t idn = n - 6;

			for (size_t j = 0; j < idn; j++)
				if (s[j] == '-') {
					id = s + j + 1;
				}
			idn = (size_t)(s + n - 6 - id);
			copy_field(k->container, sizeof(k->container), id, idn);
			break;
		}
	}
	return true;
}

/* ---- rows ---- */

static uint64_t
cum32(int64_t v)
{
	/* The kernel prints an int that may have wrapped negative. */
	if (v < 0 && v >= INT32_MIN)
		return (uint64_t)v + ((uint64_t)1 << 32);
	return v < 0 ? 0 : (uint64_t)v;
}

/* Counter difference; false when it must be a reset. */
static bool
delta32(int64_t old, int64_t cur, uint64_t bound, uint64_t *d)
{
	if (old >= INT32_MIN && old <= INT32_MAX &&
	    cur >= INT32_MIN && cur <= INT32_MAX)
		*d = (uint32_t)((uint64_t)cur - (uint64_t)old);
	else if (cur >= old)
		*d = (uint64_t)(cur - old);
	else
		return false;
	return *d <= bound;
}

static int
cmp_row(const void *a, const void *b)
{
	const struct thr_row *x = a, *y = b;

	if (x->ratio != y->ratio)
		return x->ratio > y->ratio ? -1 : 1;
	/* the snapshot's order, which is the groups' */
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* True when rows are in cmp_row() order already (all one ratio, say). */
static bool
rows_sorted(const struct thr_row *rows, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (rows[i].ratio > rows[i - 1].ratio)
			return false;
	return true;
}

/*
 * The burst counters and pressure of row r, sample x against o (NULL:
 * none, or reset: cumulative).  A burst counter that went backwards
 * counts from 0, as a reset does.
 */
static void
rows_extra(struct thr_row *r, const struct thr_sample *o,
	   const struct thr_sample *x, bool reset, uint64_t bound,
	   uint64_t window_us)
{
	uint64_t db;

	r->has_burst = x->has_burst;
	r->cum_bursts = cum32(x->nr_bursts);
	r->cum_burst_s = (double)x->burst_ns / 1e9;
	if (o != NULL && !reset && o->has_burst && x->has_burst &&
	    delta32(o->nr_bursts, x->nr_bursts, bound, &db) &&
	    x->burst_ns >= o->burst_ns) {
		r->bursts = db;
		r->burst_s = (double)(x->burst_ns - o->burst_ns) / 1e9;
	} else {
		r->bursts = r->cum_bursts;
		r->burst_s = r->cum_burst_s;
	}
	for (int k = 0; k < THR_PSI_NRES; k++) {
		const struct thr_psi *p = &x->psi[k];
		const struct thr_psi *op = o != NULL && !reset ? &o->psi[k]
							       : NULL;
		/* a reset inside the window: the totals since it */
		static const struct thr_psi zero = {
			.has = THR_PSI_SOME | THR_PSI_FULL
		};

		if (o != NULL && reset && window_us > 0)
			op = &zero;
		r->psi_some[k] = thr_psi_share(op, p, false, window_us);
		r->psi_full[k] = thr_psi_share(op, p, true, window_us);
		r->psi_some_s[k] = (double)p->some_us / 1e6;
		r->psi_full_s[k] = (double)p->full_us / 1e6;
	}
}

int
thr_rows(const struct thr_snap *old, const struct thr_snap *cur,
	 uint64_t window_us, struct thr_row **rowsp, size_t *nrows)
{
	struct thr_row *rows;
	/*
	 * A 32-bit difference of 2^31 or more is a counter that went
	 * backwards, not 24 days of 1 ms periods between two samples.
	 */
	uint64_t bound = ((uint64_t)1 << 31) - 1;
	size_t next = 0;	/* in old, after the last sample found */

	*rowsp = NULL;
	*nrows = 0;
	rows = calloc(cur->n ? cur->n : 1, sizeof(*rows));
	if (rows == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < cur->n; i++) {
		const struct thr_sample *x = &cur->v[i], *o = NULL;
		struct thr_row *r = &rows[i];
		uint64_t dp = 0, dt = 0, dns = 0, du = 0;
		bool reset = false;

		r->group = x->group;
		r->seq = i;
		r->limit = x->has_limit && x->period_us > 0
				   ? (double)x->quota_us / (double)x->period_us
				   : -1.0;
		r->usage = -1.0;
		r->cum_periods = cum32(x->nr_periods);
		r->cum_throttled = cum32(x->nr_throttled);
		r->cum_throttled_s = (double)x->throttled_ns / 1e9;
		if (old != NULL) {
			/*
			 * Both snapshots are sorted by group, and mostly
			 * hold the same groups: the sample after the last
			 * one found is nearly always this group's.
			 */
			if (next < old->n &&
			    strcmp(old->v[next].group, x->group) == 0)
				o = &old->v[next];
			else
				o = thr_snap_find(old, x->group);
			if (o != NULL)
				next = (size_t)(o - old->v) + 1;
			if (o == NULL || o->ino != x->ino)
				reset = true;
			else if (!delta32(o->nr_periods, x->nr_periods, bound, &dp) ||
				 !delta32(o->nr_throttled, x->nr_throttled, bound, &dt) ||
				 dt > dp || x->throttled_ns < o->throttled_ns ||
				 (x->has_usage && o->has_usage &&
				  x->usage_ns < o->usage_ns))
				reset = true;
			if (!reset) {
				dns = x->throttled_ns - o->throttled_ns;
				if (x->has_usage && o->has_usage)
					du = x->usage_ns - o->usage_ns;
			}
		}
		if (old == NULL || reset) {
			dp = r->cum_periods;
			dt = r->cum_throttled;
			if (dt > dp)
				dt = dp;
			dns = x->throttled_ns;
			du = x->usage_ns;
		}
		rows_extra(r, o, x, reset, bound, window_us);
		r->reset = old != NULL && reset;
		r->periods = dp;
		r->throttled = dt;
		r->ratio = dp ? (double)dt / (double)dp : 0.0;
		r->throttled_s = (double)dns / 1e9;
		if (old != NULL && window_us > 0 && x->has_usage &&
		    (reset || o->has_usage))
			r->usage = (double)du / 1000.0 / (double)window_us;
	}
	if (cur->n > 1 && !rows_sorted(rows, cur->n))
		qsort(rows, cur->n, sizeof(*rows), cmp_row);
	*rowsp = rows;
	*nrows = cur->n;
	return 0;
}

/* ---- Prometheus ---- */

static void
prom_value(struct strbuf *sb, const char *value)
{
	for (const char *p = value; *p; p++) {
		if (*p == '\\')
			strbuf_puts(sb, "\\\\");
		else if (*p == '"')
			strbuf_puts(sb, "\\\"");
		else if (*p == '\n')
			strbuf_puts(sb, "\\n");
		else
			strbuf_add(sb, p, 1);
	}
}

static void
prom_label(struct strbuf *sb, const char *name, const char *value,
	   bool *first)
{
	strbuf_puts(sb, *first ? "{" : ",");
	*first = false;
	strbuf_puts(sb, name);
	strbuf_puts(sb, "=\"");
	prom_value(sb, value);
	strbuf_puts(sb, "\"");
}

const struct thr_ident *
thr_row_ident(const struct thr_row *r)
{
	static const struct thr_ident none;

	return r->ident ? r->ident : &none;
}

static void
prom_labels(struct strbuf *sb, const struct thr_row *r, bool k8s)
{
	const struct thr_ident *id = thr_row_ident(r);
	bool first = true;

	prom_label(sb, "cgroup", cg_display(r->group), &first);
	/*
	 * cAdvisor's "id": the path from the hierarchy's root with a
	 * leading slash, so that cpm's series join container_cpu_cfs_*.
	 */
	strbuf_puts(sb, ",id=\"/");
	prom_value(sb, r->group);
	strbuf_puts(sb, "\"");
	if (k8s) {
		if (id->k8s.qos[0])
			prom_label(sb, "qos", id->k8s.qos, &first);
		if (id->k8s.pod[0]) {
			prom_label(sb, "pod", id->k8s.pod, &first);
			/* kube-state-metrics' kube_pod_info{uid} */
			prom_label(sb, "uid", id->k8s.pod, &first);
		}
		if (id->k8s.container[0])
			prom_label(sb, "container", id->k8s.container, &first);
	}
	if (id->unit[0])
		prom_label(sb, "unit", id->unit, &first);
	strbuf_puts(sb, "}");
}

static int
cmp_row_name(const void *a, const void *b)
{
	return strcmp((*(const struct thr_row *const *)a)->group,
		      (*(const struct thr_row *const *)b)->group);
}

enum prom_what { P_PERIODS, P_THROTTLED, P_SECONDS, P_LIMIT, P_RATIO,
		 P_BURSTS, P_BURST_S, P_PSI };

static const struct {
	const char *name, *type, *help;
} prom_m[] = {
	[P_PERIODS] = { "cpm_cpu_cfs_periods_total", "counter",
			"Elapsed CFS enforcement periods of the cgroup." },
	[P_THROTTLED] = { "cpm_cpu_cfs_throttled_periods_total", "counter",
			  "CFS enforcement periods in which the cgroup was throttled." },
	[P_SECONDS] = { "cpm_cpu_cfs_throttled_seconds_total", "counter",
			"Total time the cgroup's runqueues were throttled, summed over CPUs." },
	[P_LIMIT] = { "cpm_cpu_cfs_limit_cpus", "gauge",
		      "CPU limit of the cgroup (CFS quota / period) in CPUs." },
	[P_RATIO] = { "cpm_cpu_cfs_throttled_ratio", "gauge",
		      "Throttled periods / periods over the last sampling window." },
	[P_BURSTS] = { "cpm_cpu_cfs_bursts_total", "counter",
		       "CFS enforcement periods in which the cgroup used its burst." },
	[P_BURST_S] = { "cpm_cpu_cfs_burst_seconds_total", "counter",
			"Total CPU time the cgroup ran beyond its quota on its burst." },
};

/* The pressure families: RES x waiting ("some") and stalled ("full"). */
static void
psi_family(char *name, size_t size, const char *prefix, int res, bool full)
{
	snprintf(name, size, "%s_pressure_%s_%s_seconds_total", prefix,
		 thr_psi_name[res], full ? "stalled" : "waiting");
}

static void
psi_help(struct strbuf *sb, const char *name, int res, bool full,
	 const char *whose)
{
	strbuf_printf(sb, "# HELP %s Total time in which %s tasks of %s waited for %s (PSI %s).\n# TYPE %s counter\n",
		      name, full ? "all non-idle" : "some", whose,
		      res == THR_PSI_CPU ? "CPU" : res == THR_PSI_MEMORY
		      ? "memory" : "I/O", full ? "full" : "some", name);
}

/* Whether row r has what family w (P_PSI + 2 * res + full) shows. */
static bool
prom_has(const struct thr_row *r, size_t w)
{
	size_t k;

	if (w == P_LIMIT)
		return r->limit >= 0;
	if (w == P_BURSTS || w == P_BURST_S)
		return r->has_burst;
	if (w < P_PSI)
		return true;
	k = (w - P_PSI) / 2;
	return ((w - P_PSI) % 2 ? r->psi_full[k] : r->psi_some[k]) >= 0;
}

static void
prom_value_of(struct strbuf *sb, const struct thr_row *r, size_t w)
{
	char num[NUMFMT_MAX + 2];

	switch (w) {
	case P_PERIODS:
		num[0] = ' ';
		numfmt_u64(num + 1, r->cum_periods);
		strbuf_puts(sb, num);
		break;
	case P_THROTTLED:
		num[0] = ' ';
		numfmt_u64(num + 1, r->cum_throttled);
		strbuf_puts(sb, num);
		break;
	case P_SECONDS:
		strbuf_printf(sb, " %.9f", r->cum_throttled_s);
		break;
	case P_LIMIT:
		strbuf_printf(sb, " %.6g", r->limit);
		break;
	case P_RATIO:
		strbuf_printf(sb, " %.6f", r->ratio);
		break;
	case P_BURSTS:
		num[0] = ' ';
		numfmt_u64(num + 1, r->cum_bursts);
		strbuf_puts(sb, num);
		break;
	case P_BURST_S:
		strbuf_printf(sb, " %.9f", r->cum_burst_s);
		break;
	default:
		strbuf_printf(sb, " %.6f", (w - P_PSI) % 2
			      ? r->psi_full_s[(w - P_PSI) / 2]
			      : r->psi_some_s[(w - P_PSI) / 2]);
	}
	strbuf_puts(sb, "\n");
}

void
thr_prom(const struct thr_row *rows, size_t n, bool windowed, bool k8s,
	 struct strbuf *sb)
{
	const struct thr_row **v;

	v = malloc((n ? n : 1) * sizeof(*v));
	if (v == NULL) {
		sb->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = &rows[i];
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_row_name);
	for (size_t w = 0; w < P_PSI + 2 * THR_PSI_NRES; w++) {
		char psi[96];
		const char *name = psi;
		bool any = false;

		if (w == P_RATIO && !windowed)
			continue;
		if (w < P_PSI)
			name = prom_m[w].name;
		else
			psi_family(psi, sizeof(psi), "cpm",
				   (int)(w - P_PSI) / 2, (w - P_PSI) % 2);
		for (size_t i = 0; i < n; i++) {
			const struct thr_row *r = v[i];

			if (!prom_has(r, w))
				continue;
			if (!any && w < P_PSI)
				strbuf_printf(sb, "# HELP %s %s\n# TYPE %s %s\n",
					      name, prom_m[w].help, name,
					      prom_m[w].type);
			else if (!any)
				psi_help(sb, name, (int)(w - P_PSI) / 2,
					 (w - P_PSI) % 2, "the cgroup");
			any = true;
			strbuf_puts(sb, name);
			prom_labels(sb, r, k8s);
			prom_value_of(sb, r, w);
		}
	}
	free(v);
}

void
thr_prom_node(const struct thr_snap *cur, uint64_t window_us,
	      struct strbuf *sb)
{
	for (int k = 0; k < THR_PSI_NRES; k++)
		for (int full = 0; full < 2; full++) {
			const struct thr_psi *p = &cur->node[k];
			char name[96];

			if (!(p->has & (full ? THR_PSI_FULL : THR_PSI_SOME)))
				continue;
			psi_family(name, sizeof(name), "cpm_node", k, full);
			psi_help(sb, name, k, full, "the node");
			strbuf_printf(sb, "%s %.6f\n", name,
				      (double)(full ? p->full_us : p->some_us) /
				      1e6);
		}
	strbuf_puts(sb, "# HELP cpm_throttle_last_run_timestamp_seconds When cpm-throttle took this report, in seconds since the epoch.\n"
		    "# TYPE cpm_throttle_last_run_timestamp_seconds gauge\n");
	strbuf_printf(sb, "cpm_throttle_last_run_timestamp_seconds %.6f\n",
		      (double)cur->realtime_us / 1e6);
	if (window_us > 0) {
		strbuf_puts(sb, "# HELP cpm_throttle_window_seconds The window this report covers: the time since the previous snapshot or sample.\n"
			    "# TYPE cpm_throttle_window_seconds gauge\n");
		strbuf_printf(sb, "cpm_throttle_window_seconds %.6f\n",
			      (double)window_us / 1e6);
	}
}

bool
thr_warned_once(struct thr_warned *w, const char *group)
{
	char *copy;
	size_t i;

	for (i = 0; i < w->n; i++)
		if (strcmp(w->name[i], group) == 0)
			return true;
	if (w->name == NULL) {
		w->name = calloc(THR_WARNED_MAX, sizeof(*w->name));
		if (w->name == NULL)
			return false;
	}
	copy = strdup(group);
	if (copy == NULL)
		return false;
	if (w->n < THR_WARNED_MAX) {
		w->name[w->n++] = copy;
	} else {
		free(w->name[w->next]);
		w->name[w->next] = copy;
		w->next = (w->next + 1) % THR_WARNED_MAX;
	}
	return false;
}

void
thr_warned_free(struct thr_warned *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->name[i]);
	free(w->name);
	memset(w, 0, sizeof(*w));
}

int
thr_ratio_parse(const char *s, double *out)
{
	size_t n = strlen(s), i = 0, digits = 0;
	bool pct = false;
	char buf[64];
	double v;

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == '%') {
		pct = true;
		buf[--n] = '\0';
	}
	while (i < n && buf[i] >= '0' && buf[i] <= '9')
		i++, digits++;
	if (i < n && buf[i] == '.') {
		i++;
		while (i < n && buf[i] >= '0' && buf[i] <= '9')
			i++, digits++;
	}
	if (i != n || digits == 0)
		return -EINVAL;
	v = strtod(buf, NULL);
	if (pct)
		v /= 100.0;
	if (!(v >= 0.0 && v <= 1.0))
		return -ERANGE;
	*out = v;
	return 0;
}

size_t
thr_filter(struct thr_row *rows, size_t n, double min_ratio, size_t top)
{
	return thr_filter_psi(rows, n, min_ratio, -1.0, top);
}

size_t
thr_filter_psi(struct thr_row *rows, size_t n, double min_ratio,
	       double min_pressure, size_t top)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++) {
		if (min_ratio >= 0 && rows[i].ratio < min_ratio)
			continue;
		if (min_pressure >= 0 &&
		    !(rows[i].psi_some[THR_PSI_CPU] >= min_pressure))
			continue;
		rows[w++] = rows[i];
	}
	if (top > 0 && w > top)
		w = top;
	return w;
}
