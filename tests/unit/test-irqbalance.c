// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqbalance's socket names, and what it bans of its own accord, on a
 * fake tree.  Talking to the socket needs a running irqbalance:
 * tests/t-isolate-host.sh starts Debian's and checks the ban and its
 * restore there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/irqbalance.h"
#include "machine/sysroot.h"
#include "unit.h"

static char dir[] = "/tmp/cpm-unit-irqb.XXXXXX";

static const char *
own(struct sysroot *root, int pid)
{
	static char buf[64];
	struct cpuset s = CPUSET_INIT;
	char *l;

	if (irqb_own(root, pid, &s) < 0)
		return "error";
	l = cpuset_to_list(&s);
	snprintf(buf, sizeof(buf), "%s", l ? l : "?");
	free(l);
	cpuset_free(&s);
	return buf;
}

int
main(void)
{
	struct sysroot root;
	char path[128], cmd[256];
	pid_t pids[4];

	irqb_sock_path(1234, path, sizeof(path));
	CHECK_STR("a socket path", path, "/run/irqbalance/irqbalance1234.sock");
	CHECK("its PID", irqb_sock_pid(path) == 1234);
	CHECK("a relative one", irqb_sock_pid("run/irqbalance/irqbalance7.sock") == 7);
	CHECK("not a socket", irqb_sock_pid("irqbalance12.pid") == 0);
	CHECK("no PID", irqb_sock_pid("irqbalance.sock") == 0);
	CHECK("not a number", irqb_sock_pid("irqbalancex1.sock") == 0);
	CHECK("a workqueue mask is not one",
	      irqb_sock_pid("sys/devices/virtual/workqueue/cpumask") == 0);

	if (mkdtemp(dir) == NULL)
		return 99;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc/5 %s/proc/6 %s/proc/7 "
		 "%s/sys/devices/system/cpu", dir, dir, dir, dir);
	if (system(cmd) != 0)
		return 99;
	unit_put(dir, "proc/5/environ", "PATH=/bin");
	unit_put(dir, "proc/6/environ", "IRQBALANCE_BANNED_CPULIST=2-3");
	/* both: the mask wins, as in irqbalance */
	{
		FILE *f;

		snprintf(path, sizeof(path), "%s/proc/7/environ", dir);
		f = fopen(path, "w");
		if (f == NULL)
			return 99;
		fwrite("IRQBALANCE_BANNED_CPULIST=1\0IRQBALANCE_BANNED_CPUS=30\0",
		       1, 55, f);
		fclose(f);
	}
	unit_put(dir, "sys/devices/system/cpu/isolated", "4\n");
	unit_put(dir, "sys/devices/system/cpu/nohz_full", "(null)\n");
	if (sysroot_open(&root, dir) < 0)
		return 99;
	CHECK_STR("without a setting: the isolated CPUs", own(&root, 5), "4");
	CHECK_STR("IRQBALANCE_BANNED_CPULIST", own(&root, 6), "2-3");
	CHECK_STR("IRQBALANCE_BANNED_CPUS first", own(&root, 7), "4-5");
	CHECK_STR("no such process", own(&root, 8), "error");
	CHECK("below a replayed tree, no daemon", irqb_find(&root, pids, 4) == 0);
	sysroot_close(&root);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 99;
	return unit_failed;
}
