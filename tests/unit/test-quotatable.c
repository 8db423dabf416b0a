// SPDX-License-Identifier: GPL-2.0-or-later
/* cpm-quota's reports: convert, class and get rows as key=value and JSON. */
#include <errno.h>
#include <string.h>

#include "base/strbuf.h"
#include "quota/quotatable.h"
#include "unit.h"

/* The table as key=value lines, or as its row's JSON object; freed. */
static char *
show(struct table *tab, bool json)
{
	struct strbuf sb;

	strbuf_init(&sb);
	if (json) {
		struct json j;

		json_init(&j, &sb);
		table_json_row(tab, 0, &j);
	} else {
		table_print(tab, TABLE_PAIRS, false, &sb);
	}
	strbuf_add(&sb, "", 1);
	table_free(tab);
	return sb.buf;
}

#define SHOW(name, tab, json, want) do {				\
	char *s_ = show(tab, json);					\
	CHECK_STR(name, s_, want);					\
	free(s_);							\
} while (0)

static void
test_convert(void)
{
	struct cpu_conversion cv;
	struct table tab;
	char err[160];

	cpu_convert(250, 100000, &cv, err, sizeof(err));
	CHECK("convert's row", quota_convert_table(&cv, &tab) == 0);
	SHOW("convert as key=value", &tab, false,
	     "millicpu=250\nshares=256\nweight=10\nweight_runc=35\n"
	     "quota_us=25000\nperiod_us=100000\ncpu_max=25000 100000\n");
	quota_convert_table(&cv, &tab);
	SHOW("convert as JSON", &tab, true,
	     "{\"millicpu\":250,\"shares\":256,\"weight\":10,"
	     "\"weight_runc\":35,\"quota_us\":25000,\"period_us\":100000,"
	     "\"cpu_max\":\"25000 100000\"}");
	cpu_convert(MILLICPU_MAX, 20000, &cv, err, sizeof(err));
	quota_convert_table(&cv, &tab);
	SHOW("max: millicpu=max and quota -1", &tab, false,
	     "millicpu=max\nshares=262144\nweight=10000\nweight_runc=10000\n"
	     "quota_us=-1\nperiod_us=20000\ncpu_max=max 20000\n");
	quota_convert_table(&cv, &tab);
	SHOW("max: millicpu is null in JSON", &tab, true,
	     "{\"millicpu\":null,\"shares\":262144,\"weight\":10000,"
	     "\"weight_runc\":10000,\"quota_us\":-1,\"period_us\":20000,"
	     "\"cpu_max\":\"max 20000\"}");
}

static void
test_class(void)
{
	struct qos_class q = { .name = "Guaranteed", .cpus = 2,
			       .reason = "integer CPUs" };
	struct table tab;

	quota_class_table(&q, &tab);
	SHOW("class as key=value", &tab, false,
	     "class=Guaranteed\nexclusive=yes\ncpus=2\nreason=integer CPUs\n");
	q.cpus = 0;
	quota_class_table(&q, &tab);
	SHOW("no exclusive CPUs: false in JSON", &tab, true,
	     "{\"class\":\"Guaranteed\",\"exclusive\":false,\"cpus\":0,"
	     "\"reason\":\"integer CPUs\"}");
}

static void
test_group(void)
{
	struct quota_group_view v = {
		.group = "pod/c1", .version = 2,
		.cur = { .quota_us = 150000, .period_us = 100000,
			 .burst_us = 50000, .has_burst = true, .weight = 35 },
		.owner = { .kind = CGOWNER_UNMANAGED },
		.formula = WEIGHT_RUNC,
	};
	struct table tab;

	CHECK("get's row", quota_group_table(&v, false, &tab) == 0);
	SHOW("v2 get as key=value: CPUs, then weight, owner and unit", &tab,
	     false, "request=0.25\nlimit=1.5\nperiod_us=100000\nburst=0.5\n"
	     "quota_us=150000\nburst_us=50000\nweight=35\nowner=unmanaged\n"
	     "unit=-\n");
	quota_group_table(&v, true, &tab);
	SHOW("v2 get as JSON: cgroup and version first, unit null", &tab,
	     true, "{\"cgroup\":\"pod/c1\",\"version\":2,\"request\":0.25,"
	     "\"limit\":1.5,\"period_us\":100000,\"burst\":0.5,"
	     "\"quota_us\":150000,\"burst_us\":50000,\"weight\":35,"
	     "\"owner\":\"unmanaged\",\"unit\":null}");

	v.formula = WEIGHT_KUBELET;
	v.cur.weight = 0;
	v.cur.quota_us = -1;
	quota_group_table(&v, true, &tab);
	SHOW("no weight file is the default weight 100; no quota: null limit",
	     &tab, true, "{\"cgroup\":\"pod/c1\",\"version\":2,"
	     "\"request\":2.54,\"limit\":null,\"period_us\":100000,"
	     "\"burst\":0.5,\"quota_us\":-1,\"burst_us\":50000,\"weight\":0,"
	     "\"owner\":\"unmanaged\",\"unit\":null}");

	v.version = 1;
	v.group = "";
	v.cur.shares = 512;
	v.cur.burst_us = 0;
	quota_group_table(&v, false, &tab);
	SHOW("v1 get as key=value: shares, no owner", &tab, false,
	     "request=0.5\nlimit=max\nperiod_us=100000\nburst=0\n"
	     "quota_us=-1\nburst_us=0\nshares=512\n");
	quota_group_table(&v, true, &tab);
	SHOW("v1 get as JSON: the root is '/'", &tab, true,
	     "{\"cgroup\":\"/\",\"version\":1,\"request\":0.5,\"limit\":null,"
	     "\"period_us\":100000,\"burst\":0,\"quota_us\":-1,\"burst_us\":0,"
	     "\"shares\":512}");
}

int
main(void)
{
	test_convert();
	test_class();
	test_group();
	return unit_failed;
}
