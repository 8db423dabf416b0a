// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>

#include "cgroup/cgroup.h"
#include "quota/quotatable.h"

enum { CV_MILLICPU, CV_SHARES, CV_WEIGHT, CV_WEIGHT_RUNC, CV_QUOTA,
       CV_PERIOD, CV_CPU_MAX, CV_NCOLS };

static const struct table_column convert_columns[] = {
	[CV_MILLICPU] = { "MILLICPU", "millicpu", TABLE_RIGHT, 0 },
	[CV_SHARES] = { "SHARES", "shares", TABLE_RIGHT, 0 },
	[CV_WEIGHT] = { "WEIGHT", "weight", TABLE_RIGHT, 0 },
	[CV_WEIGHT_RUNC] = { "WEIGHT_RUNC", "weight_runc", TABLE_RIGHT, 0 },
	[CV_QUOTA] = { "QUOTA_US", "quota_us", TABLE_RIGHT, 0 },
	[CV_PERIOD] = { "PERIOD_US", "period_us", TABLE_RIGHT, 0 },
	[CV_CPU_MAX] = { "CPU_MAX", "cpu_max", 0, 0 },
};

enum { CL_CLASS, CL_EXCLUSIVE, CL_CPUS, CL_REASON, CL_NCOLS };

static const struct table_column class_columns[] = {
	[CL_CLASS] = { "CLASS", "class", 0, 0 },
	[CL_EXCLUSIVE] = { "EXCLUSIVE", "exclusive", 0, 0 },
	[CL_CPUS] = { "CPUS", "cpus", TABLE_RIGHT, 0 },
	[CL_REASON] = { "REASON", "reason", 0, 0 },
};

enum { G_CGROUP, G_VERSION, G_REQUEST, G_LIMIT, G_PERIOD, G_BURST, G_QUOTA,
       G_BURST_US, G_SHARES, G_WEIGHT, G_OWNER, G_UNIT, G_NCOLS };

static const struct table_column group_columns[] = {
	[G_CGROUP] = { "CGROUP", "cgroup", 0, 0 },
	[G_VERSION] = { "VERSION", "version", TABLE_RIGHT, 0 },
	[G_REQUEST] = { "REQUEST", "request", TABLE_RIGHT, 0 },
	[G_LIMIT] = { "LIMIT", "limit", TABLE_RIGHT, 0 },
	[G_PERIOD] = { "PERIOD_US", "period_us", TABLE_RIGHT, 0 },
	[G_BURST] = { "BURST", "burst", TABLE_RIGHT, 0 },
	[G_QUOTA] = { "QUOTA_US", "quota_us", TABLE_RIGHT, 0 },
	[G_BURST_US] = { "BURST_US", "burst_us", TABLE_RIGHT, 0 },
	[G_SHARES] = { "SHARES", "shares", TABLE_RIGHT, 0 },
	[G_WEIGHT] = { "WEIGHT", "weight", TABLE_RIGHT, 0 },
	[G_OWNER] = { "OWNER", "owner", 0, 0 },
	[G_UNIT] = { "UNIT", "unit", 0, 0 },
};

/* The one row's table, or -ENOMEM with tab freed. */
static int
one_row(struct table *tab, const struct table_column *cols, size_t ncols)
{
	table_init(tab, cols, ncols, " ");
	if (table_add_row(tab) < 0) {
		table_free(tab);
		return -ENOMEM;
	}
	return 0;
}

static int
done(struct table *tab)
{
	if (tab->oom) {
		table_free(tab);
		return -ENOMEM;
	}
	return 0;
}

int
quota_convert_table(const struct cpu_conversion *cv, struct table *tab)
{
	return quota_convert_rows(cv, 1, tab);
}

int
quota_convert_rows(const struct cpu_conversion *cv, size_t n,
		   struct table *tab)
{
	size_t i;

	table_init(tab, convert_columns, CV_NCOLS, " ");
	for (i = 0; i < n; i++, cv++) {
		if (table_add_row(tab) < 0) {
			table_free(tab);
			return -ENOMEM;
		}
		if (cv->millicpu == MILLICPU_MAX)
			table_set(tab, i, CV_MILLICPU, "max", NULL);
		else
			table_set_int(tab, i, CV_MILLICPU, cv->millicpu);
		table_set_uint(tab, i, CV_SHARES, cv->shares);
		table_set_uint(tab, i, CV_WEIGHT, cv->weight);
		table_set_uint(tab, i, CV_WEIGHT_RUNC, cv->weight_runc);
		table_set_int(tab, i, CV_QUOTA, cv->quota_us);
		table_set_uint(tab, i, CV_PERIOD, cv->period_us);
		table_set_str(tab, i, CV_CPU_MAX, cv->cpu_max);
	}
	return done(tab);
}

int
quota_class_table(const struct qos_class *q, struct table *tab)
{
	if (one_row(tab, class_columns, CL_NCOLS) < 0)
		return -ENOMEM;
	table_set_str(tab, 0, CL_CLASS, q->name);
	table_set_bool(tab, 0, CL_EXCLUSIVE, q->cpus > 0);
	table_set_int(tab, 0, CL_CPUS, q->cpus);
	table_set_str(tab, 0, CL_REASON, q->reason);
	return done(tab);
}

/* millicpu as CPUs, the same text and JSON number; null when null_max. */
static void
set_cpus(struct table *tab, size_t col, int64_t m, bool null_max)
{
	char buf[32];

	millicpu_format(m, buf, sizeof(buf));
	table_set(tab, 0, col, buf, null_max && m == MILLICPU_MAX ? NULL : buf);
}

int
quota_group_table(const struct quota_group_view *v, bool json,
		  struct table *tab)
{
	static const char *const select[2][2] = {
		{ "REQUEST,LIMIT,PERIOD_US,BURST,QUOTA_US,BURST_US,SHARES",
		  "REQUEST,LIMIT,PERIOD_US,BURST,QUOTA_US,BURST_US,WEIGHT,"
		  "OWNER,UNIT" },
		{ "CGROUP,VERSION,REQUEST,LIMIT,PERIOD_US,BURST,QUOTA_US,"
		  "BURST_US,SHARES",
		  "CGROUP,VERSION,REQUEST,LIMIT,PERIOD_US,BURST,QUOTA_US,"
		  "BURST_US,WEIGHT,OWNER,UNIT" },
	};
	const struct cg_cpu_limit *cur = &v->cur;
	bool v2 = v->version == 2;
	int64_t req_m;
	char err[128];

	if (one_row(tab, group_columns, G_NCOLS) < 0)
		return -ENOMEM;
	if (v2)
		req_m = weight_to_millicpu(cur->weight ? cur->weight : 100,
					   v->formula);
	else
		req_m = shares_to_millicpu(cur->shares);
	table_set_str(tab, 0, G_CGROUP, cg_display(v->group));
	table_set_int(tab, 0, G_VERSION, v->version);
	set_cpus(tab, G_REQUEST, req_m, false);
	set_cpus(tab, G_LIMIT, quota_to_millicpu(cur->quota_us,
						 cur->period_us), true);
	table_set_uint(tab, 0, G_PERIOD, cur->period_us);
	set_cpus(tab, G_BURST, quota_to_millicpu((int64_t)cur->burst_us,
						 cur->period_us), false);
	table_set_int(tab, 0, G_QUOTA, cur->quota_us);
	table_set_uint(tab, 0, G_BURST_US, cur->burst_us);
	table_set_uint(tab, 0, G_SHARES, cur->shares);
	table_set_uint(tab, 0, G_WEIGHT, cur->weight);
	table_set_str(tab, 0, G_OWNER, cgowner_kind_name(v->owner.kind));
	table_set_str(tab, 0, G_UNIT, v->owner.unit[0] ? v->owner.unit : NULL);
	table_select(tab, select[json][v2], err, sizeof(err));
	return done(tab);
}
