// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The /proc parsers on a made-up tree (a process whose name holds ") ",
 * a zombie, a process gone), on texts of proc/PID/cgroup and proc/mounts
 * as v1, v2 and hybrid machines print them, and on this process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/proc.h"
#include "unit.h"

static char tmp[] = "/tmp/cpm-test-proc-XXXXXX";

static void
put(const char *rel, const char *text)
{
	unit_put(tmp, rel, text);
}

static void
mk(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	mkdir(path, 0755);
}

static void
test_tree(void)
{
	struct sysroot root;
	struct cpuset s = CPUSET_INIT;
	uint64_t start = 7;
	char buf[256];
	char *l;

	mk("proc");
	mk("proc/42");
	mk("proc/43");
	mk("proc/45");
	/* Fields 3..22: state, then 18 fields, then the start time. */
	put("proc/42/stat", "42 (a) b (c) S 1 42 42 0 -1 4194560 100 0 0 0 "
	    "1 2 0 0 20 0 1 0 987654321 1000 10 18446744073709551615\n");
	put("proc/43/stat", "43 (dead) Z 1 43 43 0 -1 4194560 0 0 0 0 0 0 0 0 "
	    "20 0 1 0 555 0 0 0\n");
	put("proc/45/stat", "45 (short) S 1 45\n");
	put("proc/42/status", "Name:\ta\nCpus_allowed:\tff\n"
	    "Cpus_allowed_list:\t0-3,6\nMems_allowed_list:\t0\n");
	put("proc/42/cpuset", "/kubepods/pod1\n");
	if (sysroot_open(&root, tmp) < 0) {
		printf("not ok - open the tree\n");
		unit_failed = 1;
		return;
	}
	CHECK("stat: the start time after a name holding ') '",
	      proc_start_time(&root, 42, &start) == 0 && start == 987654321);
	CHECK("stat: a zombie has gone", proc_start_time(&root, 43, &start) ==
	      -ESRCH);
	CHECK("stat: a missing process has gone",
	      proc_start_time(&root, 44, &start) == -ESRCH);
	CHECK("stat: a short line is malformed",
	      proc_start_time(&root, 45, &start) == -EBADMSG);
	CHECK("status: Cpus_allowed_list",
	      proc_status_list(&root, 42, "Cpus_allowed_list", &s) == 0);
	l = cpuset_to_list(&s);
	CHECK_STR("status: its value", l, "0-3,6");
	free(l);
	CHECK("status: Cpus_allowed is not Cpus_allowed_list",
	      proc_status_list(&root, 42, "Cpus_allowed_lis", &s) == -ENOENT);
	CHECK("status: a missing process",
	      proc_status_list(&root, 44, "Cpus_allowed_list", &s) == -ESRCH);
	CHECK("cpuset: read", proc_cpuset(&root, 42, buf, sizeof(buf)) > 0);
	CHECK_STR("cpuset: without its newline", buf, "/kubepods/pod1");
	cpuset_free(&s);
	sysroot_close(&root);
}

static void
test_texts(void)
{
	static const char hybrid[] =
		"12:cpuset:/kubepods/pod1\n"
		"4:cpu,cpuacct:/kubepods\n"
		"1:name=systemd:/init.scope\n"
		"0::/init.scope\n";
	static const char mounts[] =
		"sysfs /sys sysfs rw 0 0\n"
		"cgroup2 /sys/fs/cgroup/unified cgroup2 rw,nsdelegate 0 0\n"
		"cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\n"
		"cgroup /sys/fs/cgroup/cpuset cgroup rw,cpuset,noprefix 0 0\n";
	char out[256];
	bool noprefix = false;

	CHECK("cgroup: the cpuset line", proc_cgroup_group(hybrid, "cpuset",
							  out, sizeof(out)) == 0);
	CHECK_STR("cgroup: its group", out, "/kubepods/pod1");
	CHECK("cgroup: cpu in a co-mounted line",
	      proc_cgroup_group(hybrid, "cpu", out, sizeof(out)) == 0);
	CHECK_STR("cgroup: its group", out, "/kubepods");
	CHECK("cgroup: the v2 line", proc_cgroup_group(hybrid, "", out,
						      sizeof(out)) == 0);
	CHECK_STR("cgroup: its group", out, "/init.scope");
	CHECK("cgroup: cpuacc is not cpuacct",
	      proc_cgroup_group(hybrid, "cpuacc", out, sizeof(out)) == -ENOENT);
	CHECK("cgroup: a group too long for out",
	      proc_cgroup_group(hybrid, "cpuset", out, 4) == -ENAMETOOLONG);

	CHECK("mounts: cgroup2", proc_cgroup_mount(mounts, "", out, sizeof(out),
						   &noprefix) == 0);
	CHECK_STR("mounts: without the leading slash", out,
		  "sys/fs/cgroup/unified");
	CHECK("mounts: cpuacct in a co-mount",
	      proc_cgroup_mount(mounts, "cpuacct", out, sizeof(out),
				&noprefix) == 0 && !noprefix);
	CHECK_STR("mounts: its directory", out, "sys/fs/cgroup/cpu,cpuacct");
	CHECK("mounts: a noprefix cpuset",
	      proc_cgroup_mount(mounts, "cpuset", out, sizeof(out),
				&noprefix) == 0 && noprefix);
	noprefix = false;
	CHECK("mounts: no memory hierarchy",
	      proc_cgroup_mount(mounts, "memory", out, sizeof(out),
				&noprefix) == -ENOENT);
	CHECK("mounts: the old cpuset file system",
	      proc_cgroup_mount("none /dev/cpuset cpuset rw 0 0\n", "cpuset",
				out, sizeof(out), &noprefix) == 0 && noprefix);
}

static void
test_live(void)
{
	struct sysroot root;
	uint64_t mine = 0, again = 0;
	struct cpuset s = CPUSET_INIT;

	if (sysroot_open(&root, "/") < 0)
		return;
	CHECK("live: this process has a start time",
	      proc_start_time(&root, getpid(), &mine) == 0 && mine > 0);
	CHECK("live: self is this process",
	      proc_start_time(&root, 0, &again) == 0 && again == mine);
	CHECK("live: this process has allowed CPUs",
	      proc_status_list(&root, 0, "Cpus_allowed_list", &s) == 0 &&
	      !cpuset_empty(&s));
	cpuset_free(&s);
	sysroot_close(&root);
}

/* proc/stat's "cpu" line: the node's idle and total CPU time. */
static void
test_cpu_times(void)
{
	struct proc_cpu_times a, b;
	struct sysroot root;

	/* user nice system idle iowait irq softirq steal guest guest_nice */
	CHECK("cpu times: a 6.x line",
	      proc_cpu_times_parse("cpu  100 5 50 800 20 3 2 10 40 0\n"
				   "cpu0 50 2 25 400 10 1 1 5 20 0\n", &a) == 0 &&
	      a.idle == 820 && a.total == 990);
	CHECK("cpu times: an old kernel's line of seven fields",
	      proc_cpu_times_parse("cpu 10 0 10 70 5 3 2", &a) == 0 &&
	      a.idle == 75 && a.total == 100);
	CHECK("cpu times: a CPU's line is not the node's",
	      proc_cpu_times_parse("cpu0 1 2 3 4 5 6 7\n", &a) == -EBADMSG);
	CHECK("cpu times: a line too short is refused",
	      proc_cpu_times_parse("cpu 1 2 3\n", &a) == -EBADMSG);
	CHECK("cpu times: a word is refused",
	      proc_cpu_times_parse("cpu 1 2 x 4 5\n", &a) == -EBADMSG);
	a = (struct proc_cpu_times){ .idle = 1000, .total = 4000 };
	b = (struct proc_cpu_times){ .idle = 1300, .total = 5000 };
	CHECK("cpu idle: 300 of 1000 ticks idle is 300 thousandths",
	      proc_cpu_idle_pm(&a, &b) == 300);
	CHECK("cpu idle: no time passed is unknown",
	      proc_cpu_idle_pm(&a, &a) == -1);
	CHECK("cpu idle: counters that went back are unknown",
	      proc_cpu_idle_pm(&b, &a) == -1);
	put("proc/stat", "cpu  10 0 10 70 5 3 2 0 0 0\nintr 5\n");
	if (sysroot_open(&root, tmp) == 0) {
		CHECK("cpu times: read below a root",
		      proc_cpu_times(&root, &a) == 0 && a.idle == 75 &&
		      a.total == 100);
		sysroot_close(&root);
	}
	if (sysroot_open(&root, NULL) == 0) {
		CHECK("cpu times: the live node's", proc_cpu_times(&root, &a) ==
		      0 && a.total > 0 && a.idle <= a.total);
		sysroot_close(&root);
	}
}

int
main(void)
{
	char cmd[128], path[64];

	proc_path(path, sizeof(path), 0, "status");
	CHECK_STR("pid 0 is this process's files", path, "proc/self/status");
	proc_path(path, sizeof(path), 42, "numa_maps");
	CHECK_STR("another pid's files", path, "proc/42/numa_maps");

	if (!mkdtemp(tmp)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	test_tree();
	test_texts();
	test_cpu_times();
	test_live();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return unit_failed;
}
