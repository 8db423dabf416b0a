// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Quota planning: target values, the kernel's limits, the order of the
 * writes, and the undoing of a refused plan on a v1 tree (read back with
 * stdio).  Expected values are worked out by hand from the kernel's rules
 * (tg_set_cfs_bandwidth) and the kubelet's conversions.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "quota/quota.h"
#include "unit.h"

static char tmp[] = "/tmp/cpm-test-quota-XXXXXX";

/* The plan's writes as "file value; ...". */
static const char *
writes(const struct quota_plan *p)
{
	static char buf[512];
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < p->n && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s %s",
				      i ? "; " : "", p->op[i].file,
				      p->op[i].value);
	return buf;
}

static void
limit(struct cg_cpu_limit *c, int64_t quota, uint64_t period, uint64_t burst)
{
	quota_new_group(c);
	c->quota_us = quota;
	c->period_us = period;
	c->burst_us = burst;
}

static void
test_check(void)
{
	struct quota_request rq;
	char err[256] = "";

	memset(&rq, 0, sizeof(rq));
	rq.have_request = rq.have_limit = true;
	rq.request_m = 2000;
	rq.limit_m = 1500;
	rq.request_text = "2";
	rq.limit_text = "1500m";
	CHECK("a request above the limit is refused",
	      quota_request_check(&rq, "pod/c1", err, sizeof(err)) == -EINVAL);
	CHECK_STR("quoting both as given", err,
		  "CPU request '2' exceeds the CPU limit '1500m'");
	rq.limit_m = 2000;
	CHECK("a request equal to the limit is fine",
	      quota_request_check(&rq, "pod/c1", err, sizeof(err)) == 0);
	rq.limit_m = MILLICPU_MAX;
	rq.limit_text = "max";
	CHECK("no limit takes any request",
	      quota_request_check(&rq, "pod/c1", err, sizeof(err)) == 0);
	CHECK("the root group has no limits to set",
	      quota_request_check(&rq, "", err, sizeof(err)) == -EINVAL);
	CHECK_STR("and says so", err, "the root group has no CPU limits to set");
	rq.have_request = false;
	rq.limit_m = 0;
	rq.limit_text = "0";
	CHECK("a limit of no CPU time is refused",
	      quota_request_check(&rq, "pod", err, sizeof(err)) == -EINVAL);
	CHECK_STR("pointing at max", err,
		  "--limit '0' allows no CPU time; use 'max' for no limit");
	rq.have_limit = false;
	rq.have_burst = true;
	CHECK("a burst alone is checked later, against the group",
	      quota_request_check(&rq, "pod", err, sizeof(err)) == 0);
}

static void
test_order(void)
{
	struct quota_request rq;
	struct cg_cpu_limit cur;
	struct quota_plan p;
	char err[256];
	int r;

	/* 2 CPUs at 100ms to 1 CPU at 50ms: the quota first (0.5 CPU in
	 * between), not the period (4 CPUs in between). */
	limit(&cur, 200000, 100000, 0);
	memset(&rq, 0, sizeof(rq));
	rq.have_limit = true;
	rq.limit_m = 1000;
	rq.period_us = 50000;
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("v1: a lower limit writes the quota before the period",
		  r == 0 ? writes(&p) : err,
		  "cpu.cfs_quota_us 50000; cpu.cfs_period_us 50000");
	CHECK_STR("v1: the old quota is kept to undo", p.op[0].old, "200000");

	/* 0.5 CPU at 100ms to 4 CPUs at 200ms: the period first. */
	limit(&cur, 50000, 100000, 0);
	rq.limit_m = 4000;
	rq.period_us = 200000;
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("v1: a higher limit writes the period before the quota",
		  r == 0 ? writes(&p) : err,
		  "cpu.cfs_period_us 200000; cpu.cfs_quota_us 800000");

	/* v2: burst goes down before the quota. */
	limit(&cur, 50000, 100000, 20000);
	memset(&rq, 0, sizeof(rq));
	rq.have_limit = true;
	rq.limit_m = 100;
	rq.have_burst = true;
	rq.burst_m = 50;
	r = quota_plan_make(2, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("v2: burst down, then cpu.max", r == 0 ? writes(&p) : err,
		  "cpu.max.burst 5000; cpu.max 10000 100000");
	CHECK_STR("v2: cpu.max's old value", p.op[1].old, "50000 100000");

	/* ... and up after it. */
	limit(&cur, 10000, 100000, 0);
	rq.limit_m = 1000;
	rq.burst_m = 500;
	r = quota_plan_make(2, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("v2: cpu.max, then burst up", r == 0 ? writes(&p) : err,
		  "cpu.max 100000 100000; cpu.max.burst 50000");

	/* A request: 1 CPU is 1024 shares, weight 39 by the kubelet. */
	quota_new_group(&cur);
	memset(&rq, 0, sizeof(rq));
	rq.have_request = true;
	rq.request_m = 1000;
	rq.formula = WEIGHT_KUBELET;
	r = quota_plan_make(2, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("v2: a request is a weight", r == 0 ? writes(&p) : err,
		  "cpu.weight 39");
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("v1: a request is shares", r == 0 ? writes(&p) : err,
		  "cpu.shares 1024");
	rq.request_m = 300000;
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK("v1: 300 CPUs are above the maximum shares: clamped",
	      r == 0 && p.request_clamped);
	CHECK_STR("v1: to 262144", writes(&p), "cpu.shares 262144");
}

static void
test_limits(void)
{
	struct quota_request rq;
	struct cg_cpu_limit cur;
	struct quota_plan p;
	char err[256];
	int r;

	quota_new_group(&cur);
	memset(&rq, 0, sizeof(rq));
	rq.have_limit = true;
	rq.limit_m = 5;
	rq.limit_text = "5m";
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("limits: a quota below 1ms", r == -EINVAL ? err : "",
		  "a limit of 5m CPU at period 100000us is a quota of 500us, "
		  "below the kernel's minimum of 1000us");

	limit(&cur, 50000, 100000, 20000);
	memset(&rq, 0, sizeof(rq));
	rq.have_limit = true;
	rq.limit_m = 100;
	r = quota_plan_make(2, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("limits: the kept burst above a lowered quota",
		  r == -EINVAL ? err : "", "a burst of 20000us is above the "
		  "quota of 10000us; lower it with --burst");

	quota_new_group(&cur);
	memset(&rq, 0, sizeof(rq));
	rq.have_burst = true;
	rq.burst_m = 100;
	r = quota_plan_make(2, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("limits: a burst without a limit", r == -EINVAL ? err : "",
		  "--burst needs a CPU limit");
	cur.has_burst = false;
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK("limits: a kernel without burst", r == -EOPNOTSUPP);

	limit(&cur, -1, 2000000, 0);
	memset(&rq, 0, sizeof(rq));
	rq.have_request = true;
	rq.request_m = 100;
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("limits: a group's period outside 1ms..1s",
		  r == -EINVAL ? err : "", "the period of 'g' is 2000000us, "
		  "outside the kernel's range 1ms..1s; give --period");

	quota_new_group(&cur);
	memset(&rq, 0, sizeof(rq));
	rq.have_limit = true;
	rq.limit_m = INT64_C(200000000000);
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK("limits: a quota above 2^44-1us", r == -EINVAL &&
	      strstr(err, "above the kernel's maximum"));
}

static void
test_apply(void)
{
	char dir[256], g[300], err[512];
	struct quota_request rq;
	struct cg_cpu_limit cur;
	struct quota_plan p;
	struct cg_hier h;
	struct stat sb;
	int r;

	snprintf(dir, sizeof(dir), "%s/cpu", tmp);
	mkdir(dir, 0755);
	snprintf(g, sizeof(g), "%s/cpu/g", tmp);
	mkdir(g, 0755);
	/* A group whose kernel has no burst file. */
	unit_put(g, "cpu.shares", "1024\n");
	unit_put(g, "cpu.cfs_quota_us", "-1\n");
	unit_put(g, "cpu.cfs_period_us", "100000\n");
	if (cg_open(&h, tmp, err, sizeof(err)) < 0) {
		printf("not ok - cg_open: %s\n", err);
		unit_failed = 1;
		return;
	}
	r = quota_current(&h, "g", true, false, &cur, err, sizeof(err));
	CHECK("current: a group's own limits",
	      r == 0 && cur.quota_us == -1 && cur.period_us == 100000 &&
	      cur.shares == 1024 && !cur.has_burst);
	snprintf(g, sizeof(g), "%s/cpu/bare", tmp);
	mkdir(g, 0755);
	CHECK("current: a group without its files cannot be read",
	      quota_current(&h, "bare", true, false, &cur, err,
			    sizeof(err)) == -ENOENT);
	cur.quota_us = 5;
	CHECK("current: a unit's group without cpu.max has the defaults",
	      quota_current(&h, "bare", true, true, &cur, err,
			    sizeof(err)) == 0 && cur.quota_us == -1 &&
	      cur.period_us == 100000 && cur.weight == 100);
	cur.quota_us = 5;
	CHECK("current: so has a group to be made",
	      quota_current(&h, "none", false, false, &cur, err,
			    sizeof(err)) == 0 && cur.quota_us == -1);
	rmdir(g);
	snprintf(g, sizeof(g), "%s/cpu/g", tmp);

	quota_new_group(&cur);
	memset(&rq, 0, sizeof(rq));
	rq.have_request = rq.have_limit = rq.have_burst = true;
	rq.request_m = 2000;
	rq.limit_m = 1000;
	rq.burst_m = 100;
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	CHECK_STR("apply: the plan", r == 0 ? writes(&p) : err,
		  "cpu.shares 2048; cpu.cfs_quota_us 100000; "
		  "cpu.cfs_burst_us 10000");
	r = quota_plan_apply(&h, "g", false, &p, err, sizeof(err));
	CHECK("apply: the burst write is refused", r < 0 &&
	      strstr(err, "cpu.cfs_burst_us"));
	CHECK_STR("apply: the quota is put back",
		  unit_get(g, "cpu.cfs_quota_us"), "-1");
	CHECK_STR("apply: the shares are put back", unit_get(g, "cpu.shares"),
		  "1024");

	rq.have_burst = false;
	r = quota_plan_make(1, "g", &cur, &rq, &p, err, sizeof(err));
	r = r == 0 ? quota_plan_apply(&h, "g", false, &p, err, sizeof(err)) : r;
	CHECK("apply: without burst it goes through", r == 0);
	CHECK_STR("apply: the quota", unit_get(g, "cpu.cfs_quota_us"), "100000");
	CHECK_STR("apply: the shares", unit_get(g, "cpu.shares"), "2048");

	r = quota_plan_apply(&h, "new", true, &p, err, sizeof(err));
	snprintf(g, sizeof(g), "%s/cpu/new", tmp);
	CHECK("apply: a new group is created", r == 0 && stat(g, &sb) == 0);
	CHECK_STR("apply: and given its quota", unit_get(g, "cpu.cfs_quota_us"),
		  "100000");
	cg_close(&h);
}

/* True when tmp/rel is a directory. */
static bool
isdir(const char *root, const char *rel)
{
	char path[512];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/*
 * cpu and cpuacct mounted apart (v1 trees of plain directories, NOT the
 * kernel): create makes the group in both, and a refused write removes
 * it, and the parents made for it, from both; co-mounted (a link), once.
 */
static void
test_apply_apart(void)
{
	char root[300], path[400], err[512];
	struct quota_request rq;
	struct cg_cpu_limit cur;
	struct quota_plan p;
	struct cg_hier h;
	int r;

	snprintf(root, sizeof(root), "%s/apart", tmp);
	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/cpu", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cpu/kept", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cpuacct", root);
	mkdir(path, 0755);
	if (cg_open(&h, root, err, sizeof(err)) < 0) {
		printf("not ok - cg_open: %s\n", err);
		unit_failed = 1;
		return;
	}
	quota_new_group(&cur);
	memset(&rq, 0, sizeof(rq));
	rq.have_limit = true;
	rq.limit_m = 500;
	r = quota_plan_make(1, "a/g", &cur, &rq, &p, err, sizeof(err));
	r = r == 0 ? quota_plan_apply(&h, "a/g", true, &p, err, sizeof(err)) : r;
	CHECK("apart: create makes the group in cpu and in cpuacct",
	      r == 0 && isdir(root, "cpu/a/g") && isdir(root, "cpuacct/a/g") &&
	      strcmp(unit_get(root, "cpu/a/g/cpu.cfs_quota_us"), "50000") == 0);
	r = quota_plan_apply(&h, "a/g", true, &p, err, sizeof(err));
	CHECK("apart: a group that is there in both is not an error", r == 0);
	/* a write refused: the tree has no such file */
	p.op[p.n - 1].file = "cpu.missing";
	r = quota_plan_apply(&h, "kept/x/y", true, &p, err, sizeof(err));
	CHECK("apart: a refused write removes the group and the parents made, "
	      "in both", r < 0 && strstr(err, "cpu.missing") &&
	      !isdir(root, "cpu/kept/x") && !isdir(root, "cpuacct/kept") &&
	      isdir(root, "cpu/kept"));
	cg_close(&h);

	/* co-mounted: cpuacct is a link to cpu */
	snprintf(root, sizeof(root), "%s/comount", tmp);
	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/cpu", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cpuacct", root);
	if (symlink("cpu", path) < 0 || cg_open(&h, root, err, sizeof(err)) < 0) {
		printf("not ok - co-mounted tree\n");
		unit_failed = 1;
		return;
	}
	r = quota_plan_make(1, "a", &cur, &rq, &p, err, sizeof(err));
	r = r == 0 ? quota_plan_apply(&h, "a", true, &p, err, sizeof(err)) : r;
	CHECK("co-mounted: the group is made once", r == 0 &&
	      isdir(root, "cpu/a"));
	cg_close(&h);
}

int
main(void)
{
	char cmd[128];

	test_check();
	test_order();
	test_limits();
	if (!mkdtemp(tmp)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	test_apply();
	test_apply_apart();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return unit_failed;
}
