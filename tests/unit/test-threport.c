// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A throttle report's decisions: the snapshot's hierarchy, the window,
 * the pinned-but-throttled flag and --fail-above, on a cgroup v2 file
 * tree built here (plain files, not the kernel).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "throttle/threport.h"
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

/* Whether r's group, throttled under a quota, is flagged. */
static bool
flagged(const struct cg_hier *h, struct thr_row *r, const char *group,
	struct thr_pins *pins)
{
	r->group = group;
	return thr_pinned_throttled(h, r, pins);
}

/*
 * v2: a parent whose cgroup.subtree_control does not enable cpuset is
 * looked at once, when a child's partition file is missing; its other
 * children are then answered without a read (a partition file planted
 * in one afterwards, which the kernel would not make, goes unseen).  A
 * parent that enables cpuset, or whose subtree_control cannot be read
 * (the root here), is not remembered; nor is one named like it.
 */
static void
parents_v2(const struct cg_hier *h, struct thr_row *r)
{
	struct thr_pins pins = { 0 };
	char path[512];

	mkgroup("off", NULL);
	unit_put(strcat(strcpy(path, tmp), "/off"), "cgroup.subtree_control",
		 "cpu memory\n");
	mkgroup("off/x", NULL);
	mkgroup("off/y", NULL);
	mkgroup("on", NULL);
	unit_put(strcat(strcpy(path, tmp), "/on"), "cgroup.subtree_control",
		 "cpu cpuset\n");
	mkgroup("on/x", NULL);
	mkgroup("on/y", "root\n");
	mkgroup("of", NULL);
	unit_put(strcat(strcpy(path, tmp), "/of"), "cgroup.subtree_control",
		 "cpuset\n");
	mkgroup("of/p", "root\n");

	CHECK("a child without a partition file is not flagged",
	      !flagged(h, r, "off/x", &pins));
	CHECK("its parent, cpuset not enabled below it, is remembered",
	      pins.n == 1 && strcmp(pins.gone[0], "off") == 0);
	mkgroup("off/y", "root\n");
	CHECK("a sibling is answered from that, without a read",
	      !flagged(h, r, "off/y", &pins));
	CHECK("read, the sibling would be flagged",
	      flagged(h, r, "off/y", NULL));
	CHECK("a child without a partition file under a parent enabling "
	      "cpuset: not flagged", !flagged(h, r, "on/x", &pins));
	CHECK("its sibling in a partition is still read and flagged",
	      flagged(h, r, "on/y", &pins));
	CHECK("a parent named like a remembered one is not taken for it",
	      flagged(h, r, "of/p", &pins));
	CHECK("a top-level group without a partition file is not flagged",
	      !flagged(h, r, "member2", &pins));
	CHECK("only the parent without cpuset is remembered",
	      pins.n == 1 && strcmp(pins.gone[0], "off") == 0);
	thr_pins_free(&pins);
	CHECK("thr_pins_free() empties the list",
	      pins.n == 0 && pins.gone == NULL);
}

/*
 * v1: a parent missing from the cpuset hierarchy has no children
 * there; one that is there is asked child by child.
 */
static void
parents_v1(struct thr_row *r)
{
	struct thr_pins pins = { 0 };
	struct cg_hier h;
	char root[600], err[512];
	static const char *const dirs[] = {
		"cpu", "cpu/gone", "cpu/gone/a", "cpu/gone/b", "cpu/here",
		"cpu/here/a", "cpu/here/b", "cpuset", "cpuset/here",
		"cpuset/here/b",
	};

	snprintf(root, sizeof(root), "%s/v1", tmp);
	mkdir(root, 0755);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char d[700];

		snprintf(d, sizeof(d), "%s/%s", root, dirs[i]);
		mkdir(d, 0755);
	}
	unit_put(strcat(strcpy(err, root), "/cpuset/here/b"),
		 "cpuset.cpu_exclusive", "1\n");
	if (cg_open(&h, root, err, sizeof(err)) < 0) {
		printf("not ok - cannot open the v1 tree: %s\n", err);
		unit_failed++;
		return;
	}
	CHECK("v1: a group missing from the cpuset hierarchy is not flagged",
	      !flagged(&h, r, "gone/a", &pins));
	CHECK("v1: its parent, missing there too, is remembered",
	      pins.n == 1 && strcmp(pins.gone[0], "gone") == 0);
	CHECK("v1: a group missing under a parent that is there: not "
	      "flagged", !flagged(&h, r, "here/a", &pins));
	CHECK("v1: its exclusive sibling is flagged",
	      flagged(&h, r, "here/b", &pins));
	CHECK("v1: a parent that is there is not remembered", pins.n == 1);
	thr_pins_free(&pins);
	cg_close(&h);
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
	      thr_pinned_throttled(&h, &rows[0], NULL));
	rows[0].group = "iso";
	CHECK("an isolated partition counts as exclusive",
	      thr_pinned_throttled(&h, &rows[0], NULL));
	rows[0].group = "member";
	CHECK("a member partition does not",
	      !thr_pinned_throttled(&h, &rows[0], NULL));
	rows[0].group = "pinned";
	rows[0].throttled = 0;
	CHECK("nor a group never throttled",
	      !thr_pinned_throttled(&h, &rows[0], NULL));
	rows[0].throttled = 3;
	rows[0].limit = -1;
	CHECK("nor one without a quota",
	      !thr_pinned_throttled(&h, &rows[0], NULL));
	rows[0].limit = 1.5;
	parents_v2(&h, &rows[0]);

	rows[0].ratio = 0.25;
	rows[1].ratio = 0.5;
	CHECK("a ratio above the threshold crosses it",
	      thr_crossed(rows, 2, 0.4));
	CHECK("a ratio equal to it does not", !thr_crossed(rows, 2, 0.5));
	CHECK("no threshold is never crossed", !thr_crossed(rows, 2, -1));
	CHECK("rows past n do not count", !thr_crossed(rows, 1, 0.4));

	cg_close(&h);
	parents_v1(&rows[0]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return unit_failed;
}
