// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thrwatch on a v2 file tree made here: every snapshot must equal what
 * thr_collect() takes of the same tree, while groups are made, removed,
 * renamed and their files rewritten or replaced; and unchanged rounds
 * must not walk.  (The kernel's side, cgroupfs answering ENODEV for a
 * removed group's files, is t-throttle-live's.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cgroup/cgroup.h"
#include "throttle/throttle.h"
#include "throttle/thrwatch.h"
#include "unit.h"

static char tmp[] = "/tmp/cpm-unit-thrwatch.XXXXXX";

static void
group(const char *name, int quota, int nr)
{
	char dir[512], text[256];

	snprintf(dir, sizeof(dir), "%s/%s", tmp, name);
	mkdir(dir, 0755);
	snprintf(text, sizeof(text), "%d 100000\n", quota);
	unit_put(dir, "cpu.max", quota < 0 ? "max 100000\n" : text);
	snprintf(text, sizeof(text),
		 "usage_usec %d\nuser_usec 0\nsystem_usec 0\nnr_periods %d\n"
		 "nr_throttled %d\nthrottled_usec %d\n", nr * 7, nr, nr / 2, nr * 3);
	unit_put(dir, "cpu.stat", text);
}

/* Same groups, inodes and counters (the clocks differ). */
static bool
same_snap(const struct thr_snap *a, const struct thr_snap *b)
{
	if (a->n != b->n || a->version != b->version ||
	    strcmp(a->hier, b->hier) != 0)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct thr_sample *x = &a->v[i], *y = &b->v[i];

		if (strcmp(x->group, y->group) != 0 || x->ino != y->ino ||
		    x->quota_us != y->quota_us || x->period_us != y->period_us ||
		    x->has_limit != y->has_limit ||
		    x->nr_periods != y->nr_periods ||
		    x->nr_throttled != y->nr_throttled ||
		    x->throttled_ns != y->throttled_ns ||
		    x->usage_ns != y->usage_ns || x->has_usage != y->has_usage)
			return false;
	}
	return true;
}

/* One round of w, checked against thr_collect(). */
static bool
round_ok(struct thr_watch *w, const struct cg_hier *h,
	 const struct thr_select *sel)
{
	struct thr_snap a, b;
	char err[256];
	bool ok;

	thr_snap_init(&a);
	thr_snap_init(&b);
	ok = thr_watch_collect(w, &a, err, sizeof(err)) == 0 &&
	     thr_collect(h, sel, &b, err, sizeof(err)) == 0 &&
	     same_snap(&a, &b);
	if (!ok)
		printf("# watch %zu groups, walk %zu\n", a.n, b.n);
	thr_snap_free(&a);
	thr_snap_free(&b);
	return ok;
}

static bool
has(struct thr_watch *w, const char *name)
{
	struct thr_snap s;
	char err[256];
	bool found;

	thr_snap_init(&s);
	found = thr_watch_collect(w, &s, err, sizeof(err)) == 0 &&
		thr_snap_find(&s, name) != NULL;
	thr_snap_free(&s);
	return found;
}

static void
run(size_t budget, const char *what)
{
	struct thr_select sel = { NULL, 0, false, false, 0, NULL };
	struct thr_watch *w;
	struct cg_hier h;
	char err[256], name[128], a[512], b[512];
	unsigned long walks;
	bool ok = true;

	CHECK("open the tree", cg_open(&h, tmp, err, sizeof(err)) == 0);
	w = thr_watch_new(&h, &sel, budget, 5);
	CHECK("a watch", w != NULL);

	snprintf(name, sizeof(name), "%s: first round = a walk", what);
	CHECK(name, round_ok(w, &h, &sel));
	walks = thr_watch_walks(w);
	ok = round_ok(w, &h, &sel) && round_ok(w, &h, &sel);
	snprintf(name, sizeof(name), "%s: unchanged rounds equal a walk", what);
	CHECK(name, ok);
	if (budget > 100) {
		snprintf(name, sizeof(name), "%s: ... and do not walk", what);
		CHECK(name, thr_watch_walks(w) == walks);
	}

	/* counters rewritten in place: read again through the kept file */
	group("p/c1", 50000, 900);
	snprintf(name, sizeof(name), "%s: rewritten counters are read", what);
	CHECK(name, round_ok(w, &h, &sel));

	/* a new group, and one below a group, at the next round */
	group("p/c9", 20000, 5);
	group("p/c1/sub", 10000, 6);
	snprintf(name, sizeof(name), "%s: new groups at the next round", what);
	CHECK(name, round_ok(w, &h, &sel));

	/* cpu.stat replaced by rename (another inode) */
	snprintf(a, sizeof(a), "%s/p/c2/cpu.stat.new", tmp);
	snprintf(b, sizeof(b), "%s/p/c2/cpu.stat", tmp);
	unit_put(tmp, "p/c2/cpu.stat.new", "nr_periods 77\nnr_throttled 70\nthrottled_usec 1\n");
	rename(a, b);
	snprintf(name, sizeof(name), "%s: a replaced file is read anew", what);
	CHECK(name, round_ok(w, &h, &sel));

	/* a limit lifted: the group leaves the report */
	unit_put(tmp, "p/c3/cpu.max", "max 100000\n");
	snprintf(name, sizeof(name), "%s: a lifted limit drops the group", what);
	CHECK(name, round_ok(w, &h, &sel));

	/* removed, renamed, removed and recreated in one round */
	snprintf(a, sizeof(a), "rm -rf %s/p/c1 && mv %s/p/c4 %s/p/c44 && "
		 "rm -rf %s/p/c5", tmp, tmp, tmp, tmp);
	CHECK("change the tree", system(a) == 0);
	group("p/c5", 30000, 8);
	snprintf(name, sizeof(name), "%s: removed, renamed, recreated", what);
	CHECK(name, round_ok(w, &h, &sel) && has(w, "p/c44") &&
	      !has(w, "p/c4") && !has(w, "p/c1/sub"));

	walks = thr_watch_walks(w);
	for (int i = 0; i < 5; i++)
		round_ok(w, &h, &sel);
	if (budget > 100) {
		snprintf(name, sizeof(name), "%s: a walk every 5th round", what);
		CHECK(name, thr_watch_walks(w) >= walks + 1);
	}
	thr_watch_free(w);
	cg_close(&h);
}

int
main(void)
{
	char cmd[256];

	if (mkdtemp(tmp) == NULL)
		return 1;
	unit_put(tmp, "cgroup.controllers", "cpu cpuset memory\n");
	mkdir(strcat(strcpy(cmd, tmp), "/p"), 0755);
	group("p/c1", 50000, 100);
	group("p/c2", 50000, 200);
	group("p/c3", 20000, 300);
	group("p/c4", 20000, 400);
	group("p/c5", -1, 500);
	group("q", 10000, 1);
	run(1000, "kept files");
	/* a budget too small for the groups: walked every round, same answers */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/p/c*", tmp);
	system(cmd);
	group("p/c1", 50000, 100);
	group("p/c2", 50000, 200);
	group("p/c3", 20000, 300);
	group("p/c4", 20000, 400);
	group("p/c5", -1, 500);
	run(3, "three descriptors");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	system(cmd);
	return unit_failed;
}
