// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * systemd unit properties for cpm's values; see sdprop.h.  The formulas
 * mirror systemd 252's src/core/cgroup.c (cgroup_apply_unified_cpu_quota)
 * and its cpu_set_to_dbus().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "cgroup/sdprop.h"

#define USEC_PER_SEC 1000000ULL
#define USEC_PER_MSEC 1000ULL

void
sdprops_init(struct sdprops *p)
{
	memset(p, 0, sizeof(*p));
}

void
sdprops_free(struct sdprops *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].bytes);
	sdprops_init(p);
}

static struct sdprop *
slot(struct sdprops *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].name, name) == 0) {
			free(p->v[i].bytes);
			memset(&p->v[i], 0, sizeof(p->v[i]));
			p->v[i].name = name;
			return &p->v[i];
		}
	if (p->n == SDPROP_MAX)
		return NULL;
	memset(&p->v[p->n], 0, sizeof(p->v[p->n]));
	p->v[p->n].name = name;
	return &p->v[p->n++];
}

int
sdprops_add_u64(struct sdprops *p, const char *name, uint64_t v)
{
	struct sdprop *s = slot(p, name);

	if (s == NULL)
		return -ENOSPC;
	s->type = 't';
	s->u = v;
	return 0;
}

int
sdprop_set_bytes(const struct cpuset *s, unsigned char **out, size_t *n)
{
	int last = cpuset_last(s), i;

	*out = NULL;
	*n = 0;
	if (last < 0)
		return 0;
	*n = (size_t)last / 8 + 1;
	*out = calloc(*n, 1);
	if (*out == NULL)
		return -ENOMEM;
	for (i = cpuset_first(s); i >= 0; i = cpuset_next(s, i))
		(*out)[i / 8] |= (unsigned char)(1u << (i % 8));
	return 0;
}

int
sdprop_bytes_set(const unsigned char *b, size_t n, struct cpuset *s)
{
	size_t i;
	int r;

	cpuset_zero(s);
	for (i = 0; i < n * 8; i++)
		if (b[i / 8] & (1u << (i % 8))) {
			r = cpuset_set(s, (unsigned int)i);
			if (r < 0)
				return r;
		}
	return 0;
}

int
sdprops_add_set(struct sdprops *p, const char *name, const struct cpuset *set)
{
	struct sdprop *s = slot(p, name);

	if (s == NULL)
		return -ENOSPC;
	s->type = 'y';
	return sdprop_set_bytes(set, &s->bytes, &s->nbytes);
}

const struct sdprop *
sdprops_find(const struct sdprops *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].name, name) == 0)
			return &p->v[i];
	return NULL;
}

void
sdprops_drop(struct sdprops *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].name, name) == 0) {
			free(p->v[i].bytes);
			memmove(&p->v[i], &p->v[i + 1],
				(p->n - i - 1) * sizeof(p->v[i]));
			p->n--;
			return;
		}
}

uint64_t
sdprop_quota_of(uint64_t persec, uint64_t period_us)
{
	uint64_t q;

	if (persec == SDPROP_INFINITY)
		return SDPROP_INFINITY;
	q = persec * period_us / USEC_PER_SEC;
	return q < USEC_PER_MSEC ? USEC_PER_MSEC : q;
}

uint64_t
sdprop_dropin_round(uint64_t persec)
{
	if (persec == SDPROP_INFINITY)
		return persec;
	return persec / 100 * 100;
}

uint64_t
sdprop_quota_per_sec(int64_t quota_us, uint64_t period_us)
{
	uint64_t q, persec, r;

	if (quota_us < 0)
		return SDPROP_INFINITY;
	if (quota_us == 0 || period_us == 0)
		return 0;
	q = (uint64_t)quota_us;
	/* ceil(q * 1e6 / period): floor(persec * period / 1e6) is then q. */
	persec = (q * USEC_PER_SEC + period_us - 1) / period_us;
	r = (persec + 99) / 100 * 100;
	if (sdprop_quota_of(r, period_us) == q)
		return r;
	return persec;
}

int
sdprops_add_cpu_file(struct sdprops *p, const char *file, const char *value,
		     bool *other)
{
	char qtext[32];
	uint64_t v, period;
	int64_t quota;
	int r;

	*other = false;
	if (strcmp(file, "cpu.weight") == 0) {
		if (parse_u64(value, 10000, &v) < 0 || v == 0)
			return -EINVAL;
		return sdprops_add_u64(p, "CPUWeight", v);
	}
	if (strcmp(file, "cpu.max") != 0) {
		*other = true;
		return 0;
	}
	{
		const char *sp = strchr(value, ' ');
		size_t ql;

		if (sp == NULL || (ql = (size_t)(sp - value)) >= sizeof(qtext))
			return -EINVAL;
		memcpy(qtext, value, ql);
		qtext[ql] = '\0';
		if (parse_u64(sp + 1, USEC_PER_SEC, &period) < 0 || period == 0)
			return -EINVAL;
	}
	if (strcmp(qtext, "max") == 0)
		quota = -1;
	else if (parse_i64(qtext, 1, INT64_MAX / (int64_t)USEC_PER_SEC,
			   &quota) < 0)
		return -EINVAL;
	r = sdprops_add_u64(p, "CPUQuotaPerSecUSec",
			    sdprop_quota_per_sec(quota, period));
	if (r < 0)
		return r;
	return sdprops_add_u64(p, "CPUQuotaPeriodUSec", period);
}
