// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * systemd property encoding: the AllowedCPUs byte array of a cpuset, and
 * CPUQuotaPerSecUSec of a quota and period, checked against systemd
 * 252's own arithmetic (cpu_set_to_dbus(); cpu.max = MAX(persec * period
 * / 1s, 1ms); the runtime drop-in keeps persec to 100 us).
 */
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup/sdapply.h"
#include "cgroup/sdprop.h"
#include "unit.h"

static void
test_bytes(void)
{
	struct cpuset s = CPUSET_INIT, back = CPUSET_INIT;
	unsigned char *b;
	size_t n;
	char *l;

	cpuset_parse_list("0,2-3,9", &s, NULL, 0);
	sdprop_set_bytes(&s, &b, &n);
	CHECK("0,2-3,9 takes two bytes", n == 2);
	CHECK("0,2-3,9 is 0x0d 0x02 (CPU n is bit n%8 of byte n/8)",
	      n == 2 && b[0] == 0x0d && b[1] == 0x02);
	sdprop_bytes_set(b, n, &back);
	CHECK("the bytes read back as the same set", cpuset_equal(&s, &back));
	free(b);

	cpuset_zero(&s);
	sdprop_set_bytes(&s, &b, &n);
	CHECK("an empty set is an empty array", n == 0 && b == NULL);

	cpuset_zero(&s);
	cpuset_set(&s, 63);
	cpuset_set(&s, 64);
	sdprop_set_bytes(&s, &b, &n);
	CHECK("63,64 spans bytes 7 and 8", n == 9 && b[7] == 0x80 &&
	      b[8] == 0x01 && b[0] == 0);
	sdprop_bytes_set(b, n, &back);
	l = cpuset_to_list(&back);
	CHECK_STR("63,64 reads back", l, "63-64");
	free(l);
	free(b);
	cpuset_free(&s);
	cpuset_free(&back);
}

static void
test_quota(void)
{
	static const struct { int64_t q; uint64_t p; } cases[] = {
		{ 150000, 100000 }, { 50000, 100000 }, { 33333, 100000 },
		{ 1000, 1000 }, { 1000, 1000000 }, { 2500, 50000 },
		{ 7, 1000 }, { 123457, 333333 }, { 999999, 1000000 },
		{ 15000, 10000 }, { 1000, 999999 },
	};
	char name[160];
	size_t i;

	CHECK("1.5 CPUs is 1500000 us per second",
	      sdprop_quota_per_sec(150000, 100000) == 1500000);
	CHECK("250m at a 10ms period is 250000 us per second",
	      sdprop_quota_per_sec(2500, 10000) == 250000);
	CHECK("no limit is infinity",
	      sdprop_quota_per_sec(-1, 100000) == SDPROP_INFINITY);
	CHECK("systemd writes at least 1ms",
	      sdprop_quota_of(1, 100000) == 1000);
	CHECK("the drop-in keeps 100us steps",
	      sdprop_dropin_round(333339) == 333300);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ps = sdprop_quota_per_sec(cases[i].q, cases[i].p);
		uint64_t want = cases[i].q < 1000 ? 1000 : (uint64_t)cases[i].q;

		snprintf(name, sizeof(name), "quota %lld per %llu comes back "
			 "from systemd as the same cpu.max",
			 (long long)cases[i].q, (unsigned long long)cases[i].p);
		CHECK(name, sdprop_quota_of(ps, cases[i].p) == want);
	}
	/* Quotas cpm makes from millicpu survive daemon-reload too. */
	for (i = 1; i <= 4000; i += 37) {
		uint64_t p = 100000, q = i * p / 1000;
		uint64_t ps = sdprop_quota_per_sec((int64_t)q, p);

		if (q < 1000)
			continue;
		if (sdprop_quota_of(sdprop_dropin_round(ps), p) != q) {
			snprintf(name, sizeof(name), "%llum survives the "
				 "runtime drop-in", (unsigned long long)i);
			CHECK(name, 0);
			return;
		}
	}
	CHECK("every millicpu quota survives the runtime drop-in", 1);
}

static void
test_files(void)
{
	struct sdprops p;
	bool other;

	sdprops_init(&p);
	CHECK("cpu.max '150000 100000' is accepted",
	      sdprops_add_cpu_file(&p, "cpu.max", "150000 100000", &other) == 0
	      && !other);
	CHECK("... as CPUQuotaPerSecUSec 1500000",
	      sdprops_find(&p, "CPUQuotaPerSecUSec") &&
	      sdprops_find(&p, "CPUQuotaPerSecUSec")->u == 1500000);
	CHECK("... and CPUQuotaPeriodUSec 100000",
	      sdprops_find(&p, "CPUQuotaPeriodUSec") &&
	      sdprops_find(&p, "CPUQuotaPeriodUSec")->u == 100000);
	CHECK("cpu.max 'max 20000' is infinity",
	      sdprops_add_cpu_file(&p, "cpu.max", "max 20000", &other) == 0 &&
	      sdprops_find(&p, "CPUQuotaPerSecUSec")->u == SDPROP_INFINITY &&
	      sdprops_find(&p, "CPUQuotaPeriodUSec")->u == 20000);
	CHECK("a second cpu.max replaces the first", p.n == 2);
	CHECK("cpu.weight 35 is CPUWeight 35",
	      sdprops_add_cpu_file(&p, "cpu.weight", "35", &other) == 0 &&
	      sdprops_find(&p, "CPUWeight")->u == 35);
	CHECK("cpu.max.burst is no property of systemd's",
	      sdprops_add_cpu_file(&p, "cpu.max.burst", "5000", &other) == 0 &&
	      other && p.n == 3);
	CHECK("cpu.weight 0 is refused",
	      sdprops_add_cpu_file(&p, "cpu.weight", "0", &other) == -EINVAL);
	CHECK("cpu.max without a period is refused",
	      sdprops_add_cpu_file(&p, "cpu.max", "5000", &other) == -EINVAL);
	sdprops_free(&p);
}

static void
test_plan(void)
{
	struct quota_plan plan;
	struct sdprops p;
	bool direct;

	memset(&plan, 0, sizeof(plan));
	plan.op[0].file = "cpu.max.burst";
	snprintf(plan.op[0].value, sizeof(plan.op[0].value), "0");
	plan.op[1].file = "cpu.max";
	snprintf(plan.op[1].value, sizeof(plan.op[1].value), "50000 100000");
	plan.op[2].file = "cpu.weight";
	snprintf(plan.op[2].value, sizeof(plan.op[2].value), "59");
	plan.n = 3;
	sdprops_init(&p);
	CHECK("a set plan becomes properties",
	      sdapply_quota_props(&plan, &p, &direct) == 0);
	CHECK("... with cpu.max.burst written directly", direct);
	CHECK("... two properties: no period that was not asked for",
	      p.n == 2 &&
	      sdprops_find(&p, "CPUQuotaPerSecUSec")->u == 500000 &&
	      sdprops_find(&p, "CPUQuotaPeriodUSec") == NULL &&
	      sdprops_find(&p, "CPUWeight")->u == 59);
	sdprops_free(&p);
	plan.period_asked = true;
	sdprops_init(&p);
	CHECK("... with --period, three properties",
	      sdapply_quota_props(&plan, &p, &direct) == 0 && p.n == 3 &&
	      sdprops_find(&p, "CPUQuotaPeriodUSec")->u == 100000 &&
	      sdprops_find(&p, "CPUWeight")->u == 59);
	sdprops_free(&p);
}

static void
test_scope_name(void)
{
	char out[256], err[256];

	CHECK("no --unit names the scope after the pid",
	      sdapply_scope_name(NULL, 42, out, sizeof(out), err,
				 sizeof(err)) == 0 &&
	      strcmp(out, "cpm-pin-42.scope") == 0);
	CHECK("--unit db gets .scope",
	      sdapply_scope_name("db", 1, out, sizeof(out), err,
				 sizeof(err)) == 0 && strcmp(out, "db.scope") == 0);
	CHECK("--unit db.scope stays",
	      sdapply_scope_name("db.scope", 1, out, sizeof(out), err,
				 sizeof(err)) == 0 && strcmp(out, "db.scope") == 0);
	CHECK("--unit db.service is refused",
	      sdapply_scope_name("db.service", 1, out, sizeof(out), err,
				 sizeof(err)) == -EINVAL);
	CHECK("--unit 'a b' is refused",
	      sdapply_scope_name("a b", 1, out, sizeof(out), err,
				 sizeof(err)) == -EINVAL);
	CHECK("--unit '' is refused",
	      sdapply_scope_name("", 1, out, sizeof(out), err,
				 sizeof(err)) == -EINVAL);
}

int
main(void)
{
	test_bytes();
	test_quota();
	test_files();
	test_plan();
	test_scope_name();
	return unit_failed;
}
