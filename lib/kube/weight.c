// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup v2 weights for v1 shares and back (see quantity.h), apart from
 * the rest of quantity.c because crun's formula takes libm's log2 and
 * pow: only the programs that convert weights link this file, and only
 * they load libm.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kube/quantity.h"

uint64_t
shares_to_weight(uint64_t shares, enum weight_formula f)
{
	double l, x;
	uint64_t w;

	switch (f) {
	case WEIGHT_KUBELET:
		if (shares >= CPU_SHARES_MAX)
			return CPU_WEIGHT_MAX;
		if (shares < CPU_SHARES_MIN)
			shares = CPU_SHARES_MIN;
		return 1 + ((shares - 2) * 9999) / 262142;
	case WEIGHT_SYSTEMD:
		if (shares > CPU_SHARES_MAX)
			shares = CPU_SHARES_MAX;
		w = shares * 100 / 1024;
		return w < CPU_WEIGHT_MIN ? CPU_WEIGHT_MIN : w;
	case WEIGHT_RUNC:
	default:
		/* crun's convert_shares_to_weight, term for term */
		if (shares == 0)
			return 0;
		if (shares <= 2)
			return 1;
		if (shares >= CPU_SHARES_MAX)
			return CPU_WEIGHT_MAX;
		l = log2((double)shares);
		x = (l * l + 125 * l) / 612.0 - 7.0 / 34.0;
		return (uint64_t)ceil(pow(10, x));
	}
}

/* The smallest millicpu whose weight under f is at least weight. */
static int64_t
weight_lower_bound(uint64_t weight, enum weight_formula f)
{
	int64_t lo = 0, hi = (int64_t)CPU_SHARES_MAX * 1000 / CPU_SHARES_PER_CPU;

	/* every formula is monotonic in millicpu: bisect */
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (shares_to_weight(millicpu_to_shares(mid), f) >= weight)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int64_t
weight_to_millicpu(uint64_t weight, enum weight_formula f)
{
	int64_t lo, hi, step;

	if (weight < CPU_WEIGHT_MIN)
		weight = CPU_WEIGHT_MIN;
	if (weight > CPU_WEIGHT_MAX)
		weight = CPU_WEIGHT_MAX;
	lo = weight_lower_bound(weight, f);
	hi = weight < CPU_WEIGHT_MAX ? weight_lower_bound(weight + 1, f) - 1 :
	     (int64_t)CPU_SHARES_MAX * 1000 / CPU_SHARES_PER_CPU;
	if (hi < lo)		/* weight is unreachable: the next one up */
		return lo;
	/* the roundest request in [lo, hi]: 1 CPU rather than 989m */
	for (step = 1000000; step > 1; step /= 10) {
		int64_t m = (lo + step - 1) / step * step;

		if (m <= hi)
			return m;
	}
	return lo;
}

int
cpu_convert(int64_t millicpu, uint64_t period_us, struct cpu_conversion *cv,
	    char *err, size_t errlen)
{
	memset(cv, 0, sizeof(*cv));
	cv->millicpu = millicpu;
	cv->period_us = period_us;
	cv->shares = millicpu_to_shares(millicpu);
	cv->weight = shares_to_weight(cv->shares, WEIGHT_KUBELET);
	cv->weight_runc = shares_to_weight(cv->shares, WEIGHT_RUNC);
	cv->quota_us = millicpu_to_quota(millicpu, period_us);
	if (cv->quota_us != CFS_QUOTA_UNLIMITED &&
	    cv->quota_us > CFS_QUOTA_MAX_US) {
		snprintf(err, errlen, "needs a quota above the kernel's "
			 "largest, %lldus per %lluus period",
			 (long long)CFS_QUOTA_MAX_US,
			 (unsigned long long)period_us);
		return -ERANGE;
	}
	cpu_max_format(cv->quota_us, period_us, cv->cpu_max,
		       sizeof(cv->cpu_max));
	return 0;
}
