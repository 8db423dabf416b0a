// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Quantities and conversions.  Expected values come from the Kubernetes
 * sources' own arithmetic (worked by hand from helpers_linux.go and
 * quantity.go) and from the published shares-to-weight table, never from
 * cpm's output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kube/quantity.h"
#include "unit.h"

static void
check_milli(const char *s, int64_t want, bool want_rounded)
{
	char name[128], err[128];
	int64_t got = -99;
	bool rounded = !want_rounded;
	int r = cpu_quantity_parse(s, true, &got, &rounded, err, sizeof(err));

	snprintf(name, sizeof(name), "'%s' is %lld millicpu", s,
		 (long long)want);
	CHECK(name, r == 0 && got == want && rounded == want_rounded);
}

static void
check_bad(const char *s, int want_r, const char *want_err)
{
	char name[128], err[128] = "";
	int64_t got = -99;
	int r = cpu_quantity_parse(s, false, &got, NULL, err, sizeof(err));

	snprintf(name, sizeof(name), "'%s' is refused: %s", s, want_err);
	CHECK(name, r == want_r && got == -99 && strstr(err, want_err));
}

static void
test_parse(void)
{
	/* the grammar as CPU uses it */
	check_milli("0", 0, false);
	check_milli("000", 0, false);
	check_milli("0m", 0, false);
	check_milli("1m", 1, false);
	check_milli("250m", 250, false);
	check_milli("0.5", 500, false);
	check_milli(".5", 500, false);
	check_milli("5.", 5000, false);
	check_milli("+2", 2000, false);
	check_milli("1.5", 1500, false);
	check_milli("2", 2000, false);
	check_milli("1e3m", 1000, false);
	check_milli("1e3", 1000000, false);
	check_milli("1E3", 1000000, false);
	check_milli("1e-3", 1, false);
	check_milli("1E+0", 1000, false);
	check_milli("2500u", 3, true);
	check_milli("1000000n", 1, false);
	check_milli("1n", 1, true);
	check_milli("1k", 1000000, false);
	check_milli("1Ki", 1024000, false);
	check_milli("0.5Ki", 512000, false);
	check_milli("max", MILLICPU_MAX, false);
	/* MilliValue rounds up: ceil(q * 1000) */
	check_milli("0.0001", 1, true);
	check_milli("1.0001", 1001, true);
	check_milli("0.9999", 1000, true);
	check_milli("1.000000000000000000000000000000000000001", 1001, true);
	check_milli("0.00000000000000000000000000000000000000000001", 1, true);
	check_milli("1.0000000000000000000000000000000000000000", 1000, false);
	check_milli("9223372036854775.807", INT64_MAX, false);

	check_bad("", -EINVAL, "empty");
	check_bad("abc", -EINVAL, "not a number");
	check_bad(".", -EINVAL, "not a number");
	check_bad("+", -EINVAL, "not a number");
	check_bad("1x", -EINVAL, "suffix 'x'");
	check_bad("1K", -EINVAL, "suffix 'K'");
	check_bad("1e", -EINVAL, "suffix 'e'");
	check_bad("1.5.5", -EINVAL, "suffix '.5'");
	check_bad("1 ", -EINVAL, "suffix ' '");
	check_bad(" 1", -EINVAL, "not a number");
	check_bad("1mm", -EINVAL, "suffix 'mm'");
	check_bad("1e3x", -EINVAL, "suffix 'e3x'");
	check_bad("-1", -EINVAL, "negative");
	check_bad("max", -EINVAL, "not a number");
	check_bad("1E", -ERANGE, "too large");
	check_bad("9223372036854775.808", -ERANGE, "too large");
	check_bad("1e99999999", -ERANGE, "exponent");
	{
		int64_t v;

		CHECK("'-0' is zero", cpu_quantity_parse("-0", false, &v, NULL,
							 NULL, 0) == 0 && v == 0);
		CHECK("memory '128Mi' is 134217728 bytes",
		      mem_quantity_parse("128Mi", &v, NULL, 0) == 0 &&
		      v == 134217728);
		CHECK("memory '1G' is 10^9 bytes",
		      mem_quantity_parse("1G", &v, NULL, 0) == 0 &&
		      v == 1000000000);
		CHECK("memory '0.5Gi' is 536870912 bytes",
		      mem_quantity_parse("0.5Gi", &v, NULL, 0) == 0 &&
		      v == 536870912);
		CHECK("memory '1.5' rounds up to 2 bytes",
		      mem_quantity_parse("1.5", &v, NULL, 0) == 0 && v == 2);
	}
}

static void
test_kubelet(void)
{
	/* MilliCPUToShares: 0 -> 2, m*1024/1000 clamped to [2, 262144] */
	CHECK("0 is 2 shares", millicpu_to_shares(0) == 2);
	CHECK("1m is 2 shares", millicpu_to_shares(1) == 2);
	CHECK("9m is 9 shares", millicpu_to_shares(9) == 9);
	CHECK("10m is 10 shares", millicpu_to_shares(10) == 10);
	CHECK("100m is 102 shares", millicpu_to_shares(100) == 102);
	CHECK("250m is 256 shares", millicpu_to_shares(250) == 256);
	CHECK("999m is 1022 shares", millicpu_to_shares(999) == 1022);
	CHECK("1 is 1024 shares", millicpu_to_shares(1000) == 1024);
	CHECK("1.5 is 1536 shares", millicpu_to_shares(1500) == 1536);
	CHECK("256 is 262144 shares", millicpu_to_shares(256000) == 262144);
	CHECK("257 is clamped to 262144", millicpu_to_shares(257000) == 262144);
	CHECK("huge is clamped to 262144",
	      millicpu_to_shares(INT64_MAX) == 262144);
	CHECK("max is 262144 shares", millicpu_to_shares(MILLICPU_MAX) == 262144);

	/* MilliCPUToQuota at 100ms: 0 unset, at least 1000 */
	CHECK("quota of 0 is 0 (unset)", millicpu_to_quota(0, 100000) == 0);
	CHECK("quota of 1m is raised to 1000",
	      millicpu_to_quota(1, 100000) == 1000);
	CHECK("quota of 9m is raised to 1000",
	      millicpu_to_quota(9, 100000) == 1000);
	CHECK("quota of 10m is 1000", millicpu_to_quota(10, 100000) == 1000);
	CHECK("quota of 999m is 99900", millicpu_to_quota(999, 100000) == 99900);
	CHECK("quota of 1.5 is 150000",
	      millicpu_to_quota(1500, 100000) == 150000);
	CHECK("quota of 250m at 10ms is 2500",
	      millicpu_to_quota(250, 10000) == 2500);
	CHECK("quota of max is -1",
	      millicpu_to_quota(MILLICPU_MAX, 100000) == -1);
	CHECK("exact quota of 5m is 500",
	      millicpu_to_quota_exact(5, 100000) == 500);

	/* back: sharesToMilliCPU = ceil(s*1000/1024), quotaToMilliCPU */
	CHECK("256 shares is 250m", shares_to_millicpu(256) == 250);
	CHECK("102 shares is 100m", shares_to_millicpu(102) == 100);
	CHECK("1024 shares is 1000m", shares_to_millicpu(1024) == 1000);
	CHECK("2 shares is 2m", shares_to_millicpu(2) == 2);
	CHECK("1 share is 0", shares_to_millicpu(1) == 0);
	CHECK("quota 150000/100000 is 1500m",
	      quota_to_millicpu(150000, 100000) == 1500);
	CHECK("quota 33333/100000 truncates to 333m",
	      quota_to_millicpu(33333, 100000) == 333);
	CHECK("quota -1 is no limit",
	      quota_to_millicpu(-1, 100000) == MILLICPU_MAX);
	{
		int64_t m;
		int bad = 0;

		/*
		 * Every request's shares read back as the smallest request
		 * with those shares (not every shares value is reachable:
		 * 42 shares come from no request).
		 */
		for (m = 3; m <= 256000; m++) {	/* below 3: clamped to 2 */
			uint64_t s = millicpu_to_shares(m);
			int64_t back = shares_to_millicpu(s);

			if (back > m || millicpu_to_shares(back) != s ||
			    (back > 1 && millicpu_to_shares(back - 1) == s))
				bad++;
		}
		CHECK("shares survive a round trip through millicpu", bad == 0);
	}
}

static void
test_weight(void)
{
	static const struct {
		uint64_t shares, old, quad;
	} table[] = {
		/* reference table: kubelet shares, KEP-2254 linear, runc/crun */
		{ 2, 1, 1 }, { 10, 1, 4 }, { 102, 4, 17 }, { 256, 10, 35 },
		{ 512, 20, 59 }, { 1024, 39, 100 }, { 2048, 79, 174 },
		{ 4096, 157, 303 }, { 16384, 625, 942 }, { 262144, 10000, 10000 },
	};
	size_t i;
	char name[96];

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		snprintf(name, sizeof(name), "%llu shares: linear weight %llu",
			 (unsigned long long)table[i].shares,
			 (unsigned long long)table[i].old);
		CHECK(name, shares_to_weight(table[i].shares, WEIGHT_KUBELET) ==
		      table[i].old);
		snprintf(name, sizeof(name), "%llu shares: runc weight %llu",
			 (unsigned long long)table[i].shares,
			 (unsigned long long)table[i].quad);
		CHECK(name, shares_to_weight(table[i].shares, WEIGHT_RUNC) ==
		      table[i].quad);
	}
	CHECK("runc weight of 0 shares is 0 (unset)",
	      shares_to_weight(0, WEIGHT_RUNC) == 0);
	CHECK("runc weight above 262144 shares is 10000",
	      shares_to_weight(1000000, WEIGHT_RUNC) == 10000);
	CHECK("systemd weight of 1024 shares is 100",
	      shares_to_weight(1024, WEIGHT_SYSTEMD) == 100);
	CHECK("systemd weight of 2 shares is 1",
	      shares_to_weight(2, WEIGHT_SYSTEMD) == 1);
	CHECK("runc weight 100 reads back as 1 CPU",
	      weight_to_millicpu(100, WEIGHT_RUNC) == 1000);
	CHECK("linear weight 39 reads back as 1 CPU",
	      weight_to_millicpu(39, WEIGHT_KUBELET) == 1000);
	CHECK("runc weight 35 reads back as 250m",
	      weight_to_millicpu(35, WEIGHT_RUNC) == 250);
	CHECK("weight 1 reads back as 0", weight_to_millicpu(1, WEIGHT_RUNC) == 0);
	CHECK("weight 10000 reads back as 256 CPUs",
	      weight_to_millicpu(10000, WEIGHT_KUBELET) == 256000 &&
	      weight_to_millicpu(10000, WEIGHT_RUNC) == 256000);
	{
		uint64_t w;
		int bad = 0;
		enum weight_formula f;

		/* every reachable weight maps back to a request giving it */
		for (f = WEIGHT_RUNC; f <= WEIGHT_SYSTEMD; f++)
			for (w = 1; w <= 10000; w++) {
				int64_t m = weight_to_millicpu(w, f);
				uint64_t back = shares_to_weight(
					millicpu_to_shares(m), f);

				/* unreachable weights give the next one up */
				if (back < w || (back > w && m > 0 &&
				    shares_to_weight(millicpu_to_shares(m - 1),
						     f) >= w))
					bad++;
			}
		CHECK("weight_to_millicpu finds a request giving the weight",
		      bad == 0);
	}
}

static void
test_text(void)
{
	char buf[64];
	int64_t q;
	uint64_t p;

	cpu_max_format(25000, 100000, buf, sizeof(buf));
	CHECK_STR("cpu.max of 25000/100000", buf, "25000 100000");
	cpu_max_format(-1, 100000, buf, sizeof(buf));
	CHECK_STR("cpu.max without a limit", buf, "max 100000");
	CHECK("cpu.max 'max 100000' parses",
	      cpu_max_parse("max 100000\n", &q, &p) == 0 && q == -1 &&
	      p == 100000);
	CHECK("cpu.max '5000 10000' parses",
	      cpu_max_parse("5000 10000", &q, &p) == 0 && q == 5000 &&
	      p == 10000);
	CHECK("cpu.max 'max' alone is refused",
	      cpu_max_parse("max", &q, &p) == -EINVAL);
	CHECK("cpu.max '5000  10000' is refused",
	      cpu_max_parse("5000  10000", &q, &p) == -EINVAL);
	CHECK("cpu.max 'x 10000' is refused",
	      cpu_max_parse("x 10000", &q, &p) == -EINVAL);
	CHECK("cpu.max '0 10000' (a quota the kernel never prints) is refused",
	      cpu_max_parse("0 10000", &q, &p) == -EINVAL);
	CHECK("cpu.max 'max 0' is refused",
	      cpu_max_parse("max 0", &q, &p) == -EINVAL);
	CHECK("cpu.max ' 5000 10000' is refused",
	      cpu_max_parse(" 5000 10000", &q, &p) == -EINVAL);
	CHECK("cpu.max '5000 10000 x' is refused",
	      cpu_max_parse("5000 10000 x", &q, &p) == -EINVAL);
	millicpu_format(250, buf, sizeof(buf));
	CHECK_STR("250m prints as 0.25", buf, "0.25");
	millicpu_format(1500, buf, sizeof(buf));
	CHECK_STR("1500m prints as 1.5", buf, "1.5");
	millicpu_format(2000, buf, sizeof(buf));
	CHECK_STR("2000m prints as 2", buf, "2");
	millicpu_format(1, buf, sizeof(buf));
	CHECK_STR("1m prints as 0.001", buf, "0.001");
	millicpu_format(MILLICPU_MAX, buf, sizeof(buf));
	CHECK_STR("no limit prints as max", buf, "max");
}

static void
test_convert(void)
{
	struct cpu_conversion cv;
	char err[160] = "";

	CHECK("250m converts", cpu_convert(250, 100000, &cv, err,
					   sizeof(err)) == 0);
	CHECK("250m: the kubelet's shares, weights and quota",
	      cv.millicpu == 250 && cv.shares == 256 && cv.weight == 10 &&
	      cv.weight_runc == 35 && cv.quota_us == 25000 &&
	      cv.period_us == 100000);
	CHECK_STR("250m: cpu.max", cv.cpu_max, "25000 100000");
	CHECK("max converts", cpu_convert(MILLICPU_MAX, 100000, &cv, err,
					  sizeof(err)) == 0 &&
	      cv.quota_us == CFS_QUOTA_UNLIMITED && cv.shares == 262144);
	CHECK_STR("max: cpu.max says max", cv.cpu_max, "max 100000");
	/* (2^44 - 1) us is 17592186044415: at 100ms, 175921860444m fits */
	CHECK("the largest quantity whose quota the kernel takes converts",
	      cpu_convert(INT64_C(175921860444), 100000, &cv, err,
			  sizeof(err)) == 0 &&
	      cv.quota_us == INT64_C(17592186044400));
	CHECK("one millicpu more needs a quota above the kernel's largest",
	      cpu_convert(INT64_C(175921860445), 100000, &cv, err,
			  sizeof(err)) == -ERANGE);
	CHECK_STR("the refusal names the kernel's largest quota and the period",
		  err, "needs a quota above the kernel's largest, "
		  "17592186044415us per 100000us period");
	CHECK("a longer period refuses a smaller quantity",
	      cpu_convert(INT64_C(17592186045), 1000000, &cv, err,
			  sizeof(err)) == -ERANGE &&
	      cpu_convert(INT64_C(17592186044), 1000000, &cv, err,
			  sizeof(err)) == 0);
}

int
main(void)
{
	test_parse();
	test_convert();
	test_kubelet();
	test_weight();
	test_text();
	return unit_failed;
}
