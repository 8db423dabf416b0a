/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU and memory quantities in the Kubernetes resource.Quantity grammar,
 * and the conversions the kubelet and the OCI runtimes apply to them.
 *
 * Terminology:
 *   millicpu  1/1000 of a CPU; "250m" = 0.25 CPU = 250 millicpu.
 *   shares    cgroup v1 cpu.shares, a relative weight in [2, 262144];
 *             the kubelet gives 1024 per CPU.
 *   weight    cgroup v2 cpu.weight in [1, 10000] (default 100); derived
 *             from shares by one of three formulas (enum weight_formula).
 *   quota     CFS bandwidth: the group may run quota_us every period_us
 *             (v1 cpu.cfs_quota_us / cpu.cfs_period_us, v2 cpu.max);
 *             -1 (v1) or "max" (v2) means no limit.
 *   burst     unused quota the group may carry into later periods
 *             (v1 cpu.cfs_burst_us, v2 cpu.max.burst), in microseconds.
 *
 * The weight formulas (shares_to_weight(), weight_to_millicpu(),
 * cpu_convert()) are in weight.c, the only part that needs libm.
 * Nothing here prints or exits.
 */
#ifndef CPM_QUANTITY_H
#define CPM_QUANTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/cgfiles.h"

/* The kernel's and the kubelet's limits (reference: kubelet helpers_linux.go). */
#define CPU_SHARES_MIN		2
#define CPU_SHARES_MAX		262144
#define CPU_SHARES_PER_CPU	1024
#define CPU_WEIGHT_MIN		1
#define CPU_WEIGHT_MAX		10000
#define CFS_PERIOD_DEFAULT_US	100000
#define CFS_PERIOD_MIN_US	1000
#define CFS_PERIOD_MAX_US	1000000
#define CFS_QUOTA_MIN_US	1000
/* The kernel's MAX_BW: 2^44 - 1 microseconds (about 203 days). */
#define CFS_QUOTA_MAX_US	((INT64_C(1) << 44) - 1)

/* A CPU quantity of "max": no limit. */
#define MILLICPU_MAX		INT64_C(-1)

enum weight_formula {
	WEIGHT_RUNC,		/* log-quadratic: runc >= 1.3.2, crun >= 1.23 */
	WEIGHT_KUBELET,		/* linear 1 + (s-2)*9999/262142 (KEP-2254) */
	WEIGHT_SYSTEMD,		/* linear s*100/1024, the kernel's own ratio */
};

/*
 * Parse s in the Kubernetes quantity grammar (sign, digits with an
 * optional fraction, then a decimal SI suffix n u m k M G T P E, a binary
 * suffix Ki..Ei, or an exponent e3 / E-2, which cpm also lets a decimal
 * SI suffix follow: "1e3m") and store the value in units of 10^-scale,
 * rounded up as Quantity.ScaledValue does (scale 3 gives MilliValue, 0
 * gives Value).  *rounded (optional) tells whether rounding changed the
 * value.  Negative values are refused.  Returns 0, -EINVAL (junk; err
 * names the bad part) or -ERANGE (too large for int64).
 */
int quantity_parse(const char *s, unsigned int scale, int64_t *out,
		   bool *rounded, char *err, size_t errlen);

/*
 * Parse a CPU quantity into millicpu (rounding up like MilliValue).  With
 * allow_max, "max" gives MILLICPU_MAX.  Returns 0, -EINVAL or -ERANGE
 * with a message in err.
 */
int cpu_quantity_parse(const char *s, bool allow_max, int64_t *millicpu,
		       bool *rounded, char *err, size_t errlen);

/*
 * Parse a memory quantity into bytes (rounded up).  Returns 0, -EINVAL or
 * -ERANGE with a message in err.
 */
int mem_quantity_parse(const char *s, int64_t *bytes, char *err,
		       size_t errlen);

/* Parse a weight formula name: runc (quadratic), kubelet (linear), systemd. */
int weight_formula_parse(const char *s, enum weight_formula *f);

/*
 * The kubelet's MilliCPUToShares: 0 gives 2, else m*1024/1000 clamped to
 * [2, 262144].  MILLICPU_MAX gives 262144.
 */
uint64_t millicpu_to_shares(int64_t millicpu);

/* The kubelet's sharesToMilliCPU: ceil(shares*1000/1024); below 2 gives 0. */
int64_t shares_to_millicpu(uint64_t shares);

/*
 * cgroup v2 weight for v1 shares by formula f; shares 0 ("unset") gives 0
 * for WEIGHT_RUNC, as crun does.  Results are within [1, 10000] otherwise.
 */
uint64_t shares_to_weight(uint64_t shares, enum weight_formula f);

/*
 * The request that a v2 weight stands for under formula f: of all the
 * millicpu values whose weight is exactly weight, the roundest (1000m
 * rather than 989m: a multiple of the largest power of ten), the
 * smallest among equals.  A weight no request gives maps to the smallest
 * request giving more.  weight is clamped to [1, 10000].
 */
int64_t weight_to_millicpu(uint64_t weight, enum weight_formula f);

/*
 * The kubelet's MilliCPUToQuota: 0 gives 0 ("unset"), MILLICPU_MAX gives
 * CFS_QUOTA_UNLIMITED, else m*period/1000 raised to at least 1000.
 */
int64_t millicpu_to_quota(int64_t millicpu, uint64_t period_us);

/*
 * Exact quota for a limit: m*period/1000 without the kubelet's minimum,
 * saturating at INT64_MAX; MILLICPU_MAX gives CFS_QUOTA_UNLIMITED.
 */
int64_t millicpu_to_quota_exact(int64_t millicpu, uint64_t period_us);

/*
 * The kubelet's quotaToMilliCPU: -1 gives MILLICPU_MAX here (no limit),
 * else quota*1000/period (truncating).  period 0 gives 0.
 */
int64_t quota_to_millicpu(int64_t quota_us, uint64_t period_us);

/*
 * Format millicpu in CPUs: 250 -> "0.25", 1500 -> "1.5", 2000 -> "2",
 * MILLICPU_MAX -> "max".  Returns the snprintf length.
 */
int millicpu_format(int64_t millicpu, char *buf, size_t len);

/* What a CPU quantity becomes in the kubelet's cgroup values. */
struct cpu_conversion {
	int64_t millicpu;		/* MILLICPU_MAX: no limit */
	uint64_t shares;		/* cgroup v1 cpu.shares */
	uint64_t weight;		/* v2 cpu.weight, the kubelet's formula */
	uint64_t weight_runc;		/* v2 cpu.weight, runc's formula */
	int64_t quota_us;		/* CFS_QUOTA_UNLIMITED for max */
	uint64_t period_us;
	char cpu_max[64];		/* v2 cpu.max text */
};

/*
 * Convert millicpu at period_us into cv.  Returns 0, or -ERANGE when the
 * quota would exceed the kernel's largest, CFS_QUOTA_MAX_US (err says
 * so; cv is then unusable).
 */
int cpu_convert(int64_t millicpu, uint64_t period_us,
		struct cpu_conversion *cv, char *err, size_t errlen);

#endif
