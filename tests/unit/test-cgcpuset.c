// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Giving a group a cpuset, on cgroup trees (--cgroup-root: plain files,
 * no kernel) and a generated machine of 4 CPUs: node 0 (CPUs 0-1) has
 * memory, node 1 (CPUs 2-3) has none.  What was written is read back
 * with stdio, not through cpm.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroup/cgcpuset.h"
#include "pin/pingroup.h"
#include "machine.h"
#include "unit.h"

static const char spec[] =
	"node 0 mem_kb=1048576\nnode 1 mem_kb=0\n"
	"cpu 0 core=0 socket=0 node=0\n"
	"cpu 1 core=1 socket=0 node=0\n"
	"cpu 2 core=2 socket=0 node=1\n"
	"cpu 3 core=3 socket=0 node=1\n";

static struct topo t;

static int
plan(struct cg_hier *h, const char *group, const char *cpus, bool create,
     bool exclusive, struct cgcpuset_plan *p, char *err, size_t errlen)
{
	static struct cgcpuset_request rq;
	static struct cpuset set;
	char e[128];

	cpuset_parse_list(cpus, &set, e, sizeof(e));
	memset(&rq, 0, sizeof(rq));
	rq.group = group;
	rq.cpus = &set;
	rq.create = create;
	rq.exclusive = exclusive;
	return cgcpuset_plan(h, &t, &rq, p, err, errlen);
}

static void
test_files(void)
{
	struct cgcpuset_files f;

	cgcpuset_files(1, &f);
	CHECK_STR("files v1: effective CPUs", f.eff_cpus,
		  "cpuset.effective_cpus");
	CHECK_STR("files v1: exclusive switch", f.exclusive,
		  "cpuset.cpu_exclusive");
	cgcpuset_files(2, &f);
	CHECK_STR("files v2: effective memory nodes", f.eff_mems,
		  "cpuset.mems.effective");
	CHECK_STR("files v2: a root partition", f.exclusive_on, "root");
}

static void
test_v2(void)
{
	char dir[256], gdir[300], err[1024];
	struct cg_hier h;
	struct cgcpuset_plan p;
	struct cpuset s = CPUSET_INIT;
	int r;

	snprintf(dir, sizeof(dir), "%s/v2", unit_tmp);
	mkdir(dir, 0755);
	unit_put(dir, "cgroup.controllers", "cpuset cpu\n");
	unit_put(dir, "cgroup.subtree_control", "");
	unit_put(dir, "cpuset.cpus.effective", "0-2\n");
	unit_put(dir, "cpuset.mems.effective", "0\n");
	r = cg_open(&h, dir, err, sizeof(err));
	CHECK("v2: the tree opens", r == 0);
	if (r < 0)
		return;

	r = plan(&h, "a", "0-1", false, false, &p, err, sizeof(err));
	CHECK("v2: a missing group without create", r == -ENOENT);
	CHECK_STR("v2: says so", err,
		  "cgroup 'a' does not exist (--create makes it)");
	cgcpuset_plan_free(&p);

	r = plan(&h, "a", "1-3", true, false, &p, err, sizeof(err));
	CHECK("v2: CPUs beyond the parent's effective set do not fit",
	      r == -EINVAL);
	CHECK("v2: the message names the CPUs and the parent",
	      strstr(err, "3") && strstr(err, "cgroup '/'"));
	cgcpuset_plan_free(&p);

	r = plan(&h, "a/b", "0-1", true, true, &p, err, sizeof(err));
	CHECK("v2: a new nested group fits", r == 0 && !p.exists &&
	      p.version == 2);
	CHECK_STR("v2: the memory nodes default to the CPUs' nodes with "
		  "memory", unit_list(&p.mems), "0");
	r = cgcpuset_apply(&h, NULL, &p, err, sizeof(err));
	CHECK("v2: applied", r == 0);
	cgcpuset_plan_free(&p);
	snprintf(gdir, sizeof(gdir), "%s/a/b", dir);
	CHECK_STR("v2: cpuset.cpus written", unit_get(gdir, "cpuset.cpus"), "0-1");
	CHECK_STR("v2: cpuset.mems written", unit_get(gdir, "cpuset.mems"), "0");
	CHECK_STR("v2: a root partition", unit_get(gdir, "cpuset.cpus.partition"),
		  "root");

	r = plan(&h, "a/b", "2", false, false, &p, err, sizeof(err));
	CHECK("v2: CPUs of a memoryless node alone have no memory nodes",
	      r == -EINVAL);
	cgcpuset_plan_free(&p);

	unit_put(gdir, "cpuset.cpus", "zero\n");
	r = cgcpuset_read_list(&h, "a/b", "cpuset.cpus", &s, err,
			       sizeof(err));
	CHECK("v2: a file that holds no list", r == -EBADMSG);
	CHECK_STR("v2: is named", err,
		  "cpuset.cpus of cgroup 'a/b' holds 'zero', not a list");
	cpuset_free(&s);
	cg_close(&h);
}

static void
test_v1(void)
{
	char dir[256], sub[300], err[1024];
	struct cg_hier h;
	struct cgcpuset_plan p;
	int r;

	snprintf(dir, sizeof(dir), "%s/v1", unit_tmp);
	mkdir(dir, 0755);
	snprintf(sub, sizeof(sub), "%s/cpu", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/cpuset", dir);
	mkdir(sub, 0755);
	r = cg_open(&h, dir, err, sizeof(err));
	CHECK("v1: the tree opens", r == 0);
	if (r < 0)
		return;
	r = plan(&h, "job", "1", true, true, &p, err, sizeof(err));
	CHECK("v1: a tree without effective files bounds by the machine only",
	      r == 0 && p.version == 1);
	r = cgcpuset_apply(&h, NULL, &p, err, sizeof(err));
	CHECK("v1: applied", r == 0);
	cgcpuset_plan_free(&p);
	snprintf(sub, sizeof(sub), "%s/cpuset/job", dir);
	CHECK_STR("v1: cpuset.cpus written", unit_get(sub, "cpuset.cpus"), "1");
	CHECK_STR("v1: exclusive", unit_get(sub, "cpuset.cpu_exclusive"), "1");
	r = plan(&h, "job", "4", false, false, &p, err, sizeof(err));
	CHECK("v1: a CPU the machine lacks does not fit", r == -EINVAL);
	cgcpuset_plan_free(&p);
	cg_close(&h);
}

/*
 * The CPUs groups below a slice are pinned to: a v2 tree of plain files
 * standing for systemd's (a slice, a service with AllowedCPUs=2, one
 * with every CPU, one with none of its own, one with a list that is not
 * one).
 */
static void
pin_group(const char *dir, const char *group, const char *cpus)
{
	char d[320], text[32];

	snprintf(d, sizeof(d), "%s/%s", dir, group);
	mkdir(d, 0755);
	snprintf(text, sizeof(text), "%s\n", cpus ? cpus : "");
	if (cpus)
		unit_put(d, "cpuset.cpus", text);
}

static void
test_pinned_below(void)
{
	char dir[256], err[256];
	struct cpuset all = CPUSET_INIT, got = CPUSET_INIT;
	struct cg_hier h;
	int r;

	snprintf(dir, sizeof(dir), "%s/pin", unit_tmp);
	mkdir(dir, 0755);
	unit_put(dir, "cgroup.controllers", "cpuset cpu\n");
	unit_put(dir, "cpuset.cpus.effective", "0-3\n");
	pin_group(dir, "system.slice", "1-3");	/* its own: not below */
	pin_group(dir, "system.slice/pinned.service", "2");
	pin_group(dir, "system.slice/every.service", "0-3");
	pin_group(dir, "system.slice/every.service/odd", "two");
	pin_group(dir, "system.slice/plain.service", "");
	pin_group(dir, "user.slice", NULL);
	cpuset_parse_list("0-3", &all, NULL, 0);
	if (cg_open(&h, dir, err, sizeof(err)) < 0) {
		CHECK("pinned below: the tree opens", false);
		return;
	}
	r = cgcpuset_pinned_below(&h, "system.slice", &all, &got, err,
				  sizeof(err));
	CHECK("pinned below: a service's own CPUs, not the slice's, nor "
	      "every CPU, nor none", r == 0 && strcmp(unit_list(&got), "2") == 0);
	r = cgcpuset_pinned_below(&h, "user.slice", &all, &got, err,
				  sizeof(err));
	CHECK("pinned below: nothing below", r == 0 && cpuset_empty(&got));
	r = cgcpuset_pinned_below(&h, "machine.slice", &all, &got, err,
				  sizeof(err));
	CHECK("pinned below: a slice not there holds nothing",
	      r == 0 && cpuset_empty(&got));
	cg_close(&h);
	cpuset_free(&all);
	cpuset_free(&got);
}

int
main(void)
{
	unit_machine(spec, 0, &t, NULL);
	test_files();
	test_v2();
	test_pinned_below();
	test_v1();
	unit_machine_remove();
	topo_free(&t);
	return unit_failed;
}
