/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpm-quota's reports as tables of one row: what convert computes of a
 * quantity, what get reads of a group and what class decides of a
 * container, each field defined once and printed as key=value lines
 * (TABLE_PAIRS) or as one JSON object (table_json_row()).
 *
 * Text shows CPUs without trailing zeros and "max" or "-" where JSON has
 * null.
 */
#ifndef CPM_QUOTATABLE_H
#define CPM_QUOTATABLE_H

#include <stdbool.h>

#include "base/table.h"
#include "cgroup/cgctrl.h"
#include "cgroup/cgowner.h"
#include "kube/qos.h"
#include "kube/quantity.h"

/*
 * convert's row: millicpu, shares, weight, weight_runc, quota_us,
 * period_us, cpu_max.  Returns 0 or -ENOMEM (tab is then freed).
 */
int quota_convert_table(const struct cpu_conversion *cv, struct table *tab);
/* The same for n conversions, a row each (convert with several
 * quantities); 0 or -ENOMEM with tab freed. */
int quota_convert_rows(const struct cpu_conversion *cv, size_t n,
		       struct table *tab);

/* class's row: class, exclusive, cpus, reason. */
int quota_class_table(const struct qos_class *q, struct table *tab);

/* What get reads of a group. */
struct quota_group_view {
	const char *group;		/* canonical path, "" for the root */
	int version;			/* of the cpu hierarchy: 1 or 2 */
	struct cg_cpu_limit cur;
	struct cgowner owner;		/* v2 only */
	enum weight_formula formula;	/* v2: weight to request */
};

/*
 * get's row, its request, limit and burst in CPUs: request, limit,
 * period_us, burst, quota_us, burst_us, then v1 shares, v2 weight, owner
 * and unit; JSON starts with cgroup and version.  A v2 weight of 0 (no
 * file) is the kernel's default, 100.  Returns 0 or -ENOMEM.
 */
int quota_group_table(const struct quota_group_view *v, bool json,
		      struct table *tab);

#endif
