/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd unit properties for cpm's values, as systemd's D-Bus API takes
 * them (SetUnitProperties, StartTransientUnit).  Pure encoding: nothing
 * here talks to a bus, so each rule is tested on its own.
 *
 *   CPUQuotaPerSecUSec  t   CPU time per second of wall time, in us:
 *                           quota * 1000000 / period; UINT64_MAX ("infinity")
 *                           for no limit.  systemd writes cpu.max as
 *                           MAX(persec * period / 1000000, 1000) and its
 *                           runtime drop-in keeps persec only to 100 us
 *                           (CPUQuota=NN.NN%), so the value is chosen to
 *                           come back as the same quota both ways.
 *   CPUQuotaPeriodUSec  t   the period, us
 *   CPUWeight           t   cpu.weight, 1..10000
 *   AllowedCPUs         ay  a bitmask, CPU n is bit n%8 of byte n/8
 *   AllowedMemoryNodes  ay  the same for nodes
 */
#ifndef CPM_SDPROP_H
#define CPM_SDPROP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpuset.h"

#define SDPROP_INFINITY UINT64_MAX
#define SDPROP_MAX 8

struct sdprop {
	const char *name;
	char type;			/* 't' (uint64) or 'y' (byte array) */
	uint64_t u;
	unsigned char *bytes;		/* 'y': malloc'ed, may be NULL if n 0 */
	size_t nbytes;
};

struct sdprops {
	struct sdprop v[SDPROP_MAX];
	size_t n;
};

void sdprops_init(struct sdprops *p);
void sdprops_free(struct sdprops *p);

/* Append a uint64 property.  Returns 0 or -ENOSPC. */
int sdprops_add_u64(struct sdprops *p, const char *name, uint64_t v);

/*
 * Append a cpuset property (AllowedCPUs, AllowedMemoryNodes) as systemd's
 * byte array; an empty set is an empty array (no restriction).
 * Returns 0, -ENOSPC or -ENOMEM.
 */
int sdprops_add_set(struct sdprops *p, const char *name,
		    const struct cpuset *s);

/* The property called name, or NULL. */
const struct sdprop *sdprops_find(const struct sdprops *p, const char *name);

/* Remove the property called name, when there. */
void sdprops_drop(struct sdprops *p, const char *name);

/*
 * A set as systemd's byte array: *out malloc'ed (NULL for an empty set),
 * *n bytes, just enough for the highest member.  Returns 0 or -ENOMEM.
 */
int sdprop_set_bytes(const struct cpuset *s, unsigned char **out, size_t *n);

/* The inverse, for reading systemd's answers back.  Returns 0 or -ENOMEM. */
int sdprop_bytes_set(const unsigned char *b, size_t n, struct cpuset *s);

/*
 * CPUQuotaPerSecUSec for quota_us per period_us (quota_us < 0: no limit,
 * SDPROP_INFINITY).  The smallest value that systemd turns back into
 * quota_us, preferring a multiple of 100 us so that its runtime drop-in
 * (read again on daemon-reload) gives the same; 0 when quota_us is not
 * positive or period_us is 0.
 */
uint64_t sdprop_quota_per_sec(int64_t quota_us, uint64_t period_us);

/* What systemd writes into cpu.max for persec and period (the quota). */
uint64_t sdprop_quota_of(uint64_t persec, uint64_t period_us);

/* persec as systemd's runtime drop-in keeps it (CPUQuota=NN.NN%). */
uint64_t sdprop_dropin_round(uint64_t persec);

/*
 * The properties for the cgroup v2 files cpm-quota set would write:
 * "cpu.weight" W, "cpu.max" "Q P" or "max P".  Other files are not
 * systemd's; *other is set when file is none of these.
 * Returns 0, -EINVAL for a value that does not parse, -ENOSPC.
 */
int sdprops_add_cpu_file(struct sdprops *p, const char *file,
			 const char *value, bool *other);

#endif
