// SPDX-License-Identifier: GPL-2.0-or-later
/* Setting a group's CPU share, quota, period and burst: see quota.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/macros.h"
#include "quota/quota.h"

static void
plan_add(struct quota_plan *p, const char *file, const char *old,
	 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
plan_add(struct quota_plan *p, const char *file, const char *old,
	 const char *fmt, ...)
{
	struct quota_write *o = &p->op[p->n++];
	va_list ap;

	o->file = file;
	va_start(ap, fmt);
	vsnprintf(o->value, sizeof(o->value), fmt, ap);
	va_end(ap);
	snprintf(o->old, sizeof(o->old), "%s", old);
}

/* Ratio a/b < c/d with -1 meaning infinity (unlimited quota). */
static bool
ratio_less(int64_t a, uint64_t b, int64_t c, uint64_t d)
{
	if (a < 0)
		return false;
	if (c < 0)
		return true;
	return (__int128)a * d < (__int128)c * b;
}

int
quota_request_check(const struct quota_request *rq, const char *group,
		    char *err, size_t errlen)
{
	if (group[0] == '\0')
		return err_ret(err, errlen, -EINVAL, "the root group has no "
			       "CPU limits to set");
	if (rq->have_limit && rq->limit_m == 0)
		return err_ret(err, errlen, -EINVAL, "--limit '%s' allows no "
			       "CPU time; use 'max' for no limit",
			       rq->limit_text);
	if (rq->have_request && rq->have_limit &&
	    rq->limit_m != MILLICPU_MAX && rq->request_m > rq->limit_m)
		return err_ret(err, errlen, -EINVAL, "CPU request '%s' exceeds "
			       "the CPU limit '%s'", rq->request_text,
			       rq->limit_text);
	return 0;
}

void
quota_new_group(struct cg_cpu_limit *cur)
{
	memset(cur, 0, sizeof(*cur));
	cur->quota_us = CFS_QUOTA_UNLIMITED;
	cur->period_us = CFS_PERIOD_DEFAULT_US;
	cur->has_burst = true;
	cur->shares = 1024;
	cur->weight = 100;
}

int
quota_current(const struct cg_hier *h, const char *group, bool exists,
	      bool via_systemd, struct cg_cpu_limit *cur, char *err,
	      size_t errlen)
{
	char probe[8];

	if (!exists || (via_systemd &&
			cg_read(h, CG_CPU, group, "cpu.max", probe,
				sizeof(probe), NULL, 0) == -ENOENT)) {
		quota_new_group(cur);
		return 0;
	}
	return cg_cpu_limit_read(h, group, -1, cur, err, errlen);
}

/* The target values and the kernel's limits (tg_set_cfs_bandwidth). */
static int
targets(const char *group, const struct cg_cpu_limit *cur,
	const struct quota_request *rq, struct quota_plan *p,
	uint64_t *periodp, int64_t *quotap, uint64_t *burstp, char *err,
	size_t errlen)
{
	uint64_t period = rq->period_us ? rq->period_us : cur->period_us,
		burst;
	int64_t quota;

	if (period < CFS_PERIOD_MIN_US || period > CFS_PERIOD_MAX_US)
		return err_ret(err, errlen, -EINVAL, "the period of '%s' is %lluus, "
			   "outside the kernel's range 1ms..1s; give --period",
			   group, (unsigned long long)cur->period_us);
	if (rq->have_limit)
		quota = millicpu_to_quota_exact(rq->limit_m, period);
	else if (cur->quota_us < 0)
		quota = CFS_QUOTA_UNLIMITED;
	else
		quota = (int64_t)((__int128)cur->quota_us * period /
				  cur->period_us);
	if (rq->have_burst)
		burst = (uint64_t)millicpu_to_quota_exact(rq->burst_m, period);
	else if (rq->have_limit && quota == CFS_QUOTA_UNLIMITED)
		/* A burst allows nothing without a limit, and a later
		 * --limit below it would be refused: --limit max clears it,
		 * as the kubelet leaves no burst on an unlimited group. */
		burst = 0;
	else
		burst = (uint64_t)((__int128)cur->burst_us * period /
				   cur->period_us);
	if (quota != CFS_QUOTA_UNLIMITED && quota < CFS_QUOTA_MIN_US) {
		if (rq->have_limit)
			return err_ret(err, errlen, -EINVAL, "a limit of %s CPU at "
				   "period %lluus is a quota of %lldus, below "
				   "the kernel's minimum of 1000us",
				   rq->limit_text, (unsigned long long)period,
				   (long long)quota);
		return err_ret(err, errlen, -EINVAL, "the group's limit at period "
			   "%lluus is a quota of %lldus, below the kernel's "
			   "minimum of 1000us", (unsigned long long)period,
			   (long long)quota);
	}
	if (rq->have_request && (__int128)rq->request_m * CPU_SHARES_PER_CPU /
	    1000 > CPU_SHARES_MAX)
		p->request_clamped = true;
	if (quota > CFS_QUOTA_MAX_US)
		return err_ret(err, errlen, -EINVAL, "a quota of %lldus is above the "
			   "kernel's maximum of %lldus", (long long)quota,
			   (long long)CFS_QUOTA_MAX_US);
	if (rq->have_burst && !cur->has_burst)
		return err_ret(err, errlen, -EOPNOTSUPP, "this kernel has no CPU "
			   "burst control");
	if (rq->have_burst && burst > 0 && quota == CFS_QUOTA_UNLIMITED)
		return err_ret(err, errlen, -EINVAL, "--burst needs a CPU limit");
	if (quota != CFS_QUOTA_UNLIMITED && burst > (uint64_t)quota)
		return err_ret(err, errlen, -EINVAL, "a burst of %lluus is above the "
			   "quota of %lldus%s", (unsigned long long)burst,
			   (long long)quota, rq->have_burst ? "" :
			   "; lower it with --burst");
	if (quota != CFS_QUOTA_UNLIMITED &&
	    burst + (uint64_t)quota > (uint64_t)CFS_QUOTA_MAX_US)
		return err_ret(err, errlen, -EINVAL, "quota plus burst is above the "
			   "kernel's maximum of %lldus",
			   (long long)CFS_QUOTA_MAX_US);
	*periodp = period;
	*quotap = quota;
	*burstp = burst;
	return 0;
}

static void
plan_v2(const struct cg_cpu_limit *cur, const struct quota_request *rq,
	uint64_t period, int64_t quota, uint64_t burst, struct quota_plan *p)
{
	char old[64], curmax[64];

	cpu_max_format(cur->quota_us, cur->period_us, curmax, sizeof(curmax));
	if (rq->have_request) {
		snprintf(old, sizeof(old), "%llu",
			 (unsigned long long)cur->weight);
		plan_add(p, "cpu.weight", old, "%llu", (unsigned long long)
			 shares_to_weight(millicpu_to_shares(rq->request_m),
					  rq->formula));
	}
	snprintf(old, sizeof(old), "%llu", (unsigned long long)cur->burst_us);
	if (burst < cur->burst_us)
		plan_add(p, "cpu.max.burst", old, "%llu",
			 (unsigned long long)burst);
	if (rq->have_limit || rq->period_us || quota != cur->quota_us) {
		char v[64];

		cpu_max_format(quota, period, v, sizeof(v));
		plan_add(p, "cpu.max", curmax, "%s", v);
	}
	if (burst > cur->burst_us || (rq->have_burst && burst == cur->burst_us))
		plan_add(p, "cpu.max.burst", old, "%llu",
			 (unsigned long long)burst);
}

static void
plan_v1(const struct cg_cpu_limit *cur, const struct quota_request *rq,
	uint64_t period, int64_t quota, uint64_t burst, struct quota_plan *p)
{
	bool wq = rq->have_limit || quota != cur->quota_us;
	bool wp = rq->period_us != 0;
	char old[64], oldq[32], oldp[32];

	if (rq->have_request) {
		snprintf(old, sizeof(old), "%llu",
			 (unsigned long long)cur->shares);
		plan_add(p, "cpu.shares", old, "%llu", (unsigned long long)
			 millicpu_to_shares(rq->request_m));
	}
	snprintf(old, sizeof(old), "%llu", (unsigned long long)cur->burst_us);
	if (burst < cur->burst_us)
		plan_add(p, "cpu.cfs_burst_us", old, "%llu",
			 (unsigned long long)burst);
	snprintf(oldq, sizeof(oldq), "%lld", (long long)cur->quota_us);
	snprintf(oldp, sizeof(oldp), "%llu", (unsigned long long)cur->period_us);
	if (wq && wp && ratio_less(cur->quota_us, period, quota,
				   cur->period_us)) {
		plan_add(p, "cpu.cfs_period_us", oldp, "%llu",
			 (unsigned long long)period);
		plan_add(p, "cpu.cfs_quota_us", oldq, "%lld", (long long)quota);
	} else {
		if (wq)
			plan_add(p, "cpu.cfs_quota_us", oldq, "%lld",
				 (long long)quota);
		if (wp)
			plan_add(p, "cpu.cfs_period_us", oldp, "%llu",
				 (unsigned long long)period);
	}
	if (burst > cur->burst_us || (rq->have_burst && burst == cur->burst_us))
		plan_add(p, "cpu.cfs_burst_us", old, "%llu",
			 (unsigned long long)burst);
}

int
quota_plan_make(int version, const char *group,
		const struct cg_cpu_limit *cur, const struct quota_request *rq,
		struct quota_plan *p, char *err, size_t errlen)
{
	uint64_t period = 0, burst = 0;
	int64_t quota = 0;
	int r;

	memset(p, 0, sizeof(*p));
	p->period_asked = rq->period_us != 0;
	r = targets(group, cur, rq, p, &period, &quota, &burst, err, errlen);
	if (r < 0)
		return r;
	if (version == 2)
		plan_v2(cur, rq, period, quota, burst, p);
	else
		plan_v1(cur, rq, period, quota, burst, p);
	return 0;
}

/* The hierarchies a CPU limit's group lives in (cpuacct: when apart). */
static const enum cg_ctrl served[] = { CG_CPU, CG_CPUACCT };

/* Remove what make_groups() made, the last hierarchy first. */
static void
unmake_groups(const struct cg_hier *h, const char *group, const bool *made,
	      const size_t *keep)
{
	size_t k = ARRAY_SIZE(served);

	while (k-- > 0)
		if (made[k])
			cg_remove_made(h, served[k], group, keep[k]);
}

/*
 * Make group where it is missing in each hierarchy of served[] that is
 * there and not the cpu one's; made[] and keep[] say what was made.  On
 * failure, what was made is removed again.
 */
static int
make_groups(const struct cg_hier *h, const char *group, bool *made,
	    size_t *keep, char *err, size_t errlen)
{
	size_t k;
	int r;

	for (k = 0; k < ARRAY_SIZE(served); k++) {
		enum cg_ctrl c = served[k];

		made[k] = false;
		if (!cg_has(h, c) || (c != CG_CPU && cg_same_hier(h, CG_CPU, c)) ||
		    cg_exists(h, c, group))
			continue;
		keep[k] = cg_existing_prefix(h, c, group);
		r = cg_create(h, c, group, err, errlen);
		/* a partial create leaves parents: removed with the rest */
		made[k] = true;
		if (r < 0) {
			unmake_groups(h, group, made, keep);
			return r;
		}
	}
	return 0;
}

int
quota_plan_apply(const struct cg_hier *h, const char *group, bool create,
		 const struct quota_plan *p, char *err, size_t errlen)
{
	bool made[ARRAY_SIZE(served)] = { false };
	size_t keep[ARRAY_SIZE(served)] = { 0 };
	int i, r = 0;

	if (create) {
		r = make_groups(h, group, made, keep, err, errlen);
		if (r < 0)
			return r;
	}
	for (i = 0; i < p->n; i++) {
		r = cg_write(h, CG_CPU, group, p->op[i].file, p->op[i].value,
			     err, errlen);
		if (r < 0)
			break;
	}
	if (i == p->n)
		return 0;
	/* Refused: undo what was written, newest first. */
	while (--i >= 0)
		cg_write(h, CG_CPU, group, p->op[i].file, p->op[i].old, NULL, 0);
	unmake_groups(h, group, made, keep);
	return r;
}
