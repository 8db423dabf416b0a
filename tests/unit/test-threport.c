// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A throttle report's decisions: the snapshot's hierarchy, the window,
 * the pinned-but-throttled flag and --fail-above, on a cgroup v2 file
 * tree built here (plain files, not the kernel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "threport.h"
#include "unit.h"

static char tmp[] = "/tmp/cpm-test-threport-XXXXXX";

static void
mkgroup(const char *group, const char *partition)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmp, group);
	mkdir(path, 0755);
	unit_put(path, "cgroup.controllers", "cpu cpuset\n");
	if (partition)
		unit_put(path, "cpuset.cpus.partition", partition);
}

int
main(void)
{
	struct thr_snap old, cur;
	struct thr_row rows[2];
	struct cg_hier h;
	char err[512], cmd[128];

	if (!mkdtemp(tmp)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	unit_put(tmp, "cgroup.controllers", "cpu cpuset memory\n");
	mkgroup("pinned", "root\n");
	mkgroup("iso", "isolated\n");
	mkgroup("member", "member\n");
	if (cg_open(&h, tmp, err, sizeof(err)) < 0) {
		printf("not ok - cannot open the tree: %s\n", err);
		return 1;
	}

	thr_snap_init(&old);
	thr_snap_init(&cur);
	old.version = 2;
	snprintf(old.hier, sizeof(old.hier), "%s", h.ctrl[CG_CPU].path);
	CHECK("a snapshot of this hierarchy is its own", thr_snap_of(&old, &h));
	old.version = 1;
	CHECK("one of another cgroup version is not", !thr_snap_of(&old, &h));
	old.version = 2;
	snprintf(old.hier, sizeof(old.hier), "%s", tmp);
	old.hier[strlen(old.hier) - 1] ^= 1;
	CHECK("nor one of another directory", !thr_snap_of(&old, &h));

	old.mono_us = 1000;
	cur.mono_us = 251000;
	old.realtime_us = 5000000;
	cur.realtime_us = 65000000;
	CHECK("sampled in one run: the monotonic time between samples",
	      thr_window_us(&old, &cur, true) == 250000);
	CHECK("between runs: the wall-clock time",
	      thr_window_us(&old, &cur, false) == 60000000);
	cur.realtime_us = 4000000;
	CHECK("a wall clock gone back gives no window",
	      thr_window_us(&old, &cur, false) == 0);

	memset(rows, 0, sizeof(rows));
	rows[0].group = "pinned";
	rows[0].limit = 1.5;
	rows[0].throttled = 3;
	CHECK("an exclusive group throttled by its quota is flagged",
	      thr_pinned_throttled(&h, &rows[0]));
	rows[0].group = "iso";
	CHECK("an isolated partition counts as exclusive",
	      thr_pinned_throttled(&h, &rows[0]));
	rows[0].group = "member";
	CHECK("a member partition does not",
	      !thr_pinned_throttled(&h, &rows[0]));
	rows[0].group = "pinned";
	rows[0].throttled = 0;
	CHECK("nor a group never throttled",
	      !thr_pinned_throttled(&h, &rows[0]));
	rows[0].throttled = 3;
	rows[0].limit = -1;
	CHECK("nor one without a quota", !thr_pinned_throttled(&h, &rows[0]));

	rows[0].ratio = 0.25;
	rows[1].ratio = 0.5;
	CHECK("a ratio above the threshold crosses it",
	      thr_crossed(rows, 2, 0.4));
	CHECK("a ratio equal to it does not", !thr_crossed(rows, 2, 0.5));
	CHECK("no threshold is never crossed", !thr_crossed(rows, 2, -1));
	CHECK("rows past n do not count", !thr_crossed(rows, 1, 0.4));

	cg_close(&h);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return unit_failed;
}
