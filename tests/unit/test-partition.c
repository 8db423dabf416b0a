// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup v2 partitions: parsing cpuset.cpus.partition as the kernel
 * writes it, and making a partition on cgroup trees (--cgroup-root: plain
 * files, no kernel).  A tree computes nothing, so these tests check the
 * files cpm writes and puts back; whether the kernel accepts them is
 * proven in the VM tests (tests/vm/guest/t-pin.sh, t-systemd.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroup/partition.h"
#include "machine.h"
#include "unit.h"

static void
test_parse(void)
{
	struct part_state st;

	CHECK("parse: member", part_parse("member\n", &st) == 0 &&
	      st.type == PART_MEMBER && st.valid);
	CHECK("parse: root", part_parse("root", &st) == 0 &&
	      st.type == PART_ROOT && st.valid && !st.reason[0]);
	CHECK("parse: isolated", part_parse("isolated\n", &st) == 0 &&
	      st.type == PART_ISOLATED && st.valid);
	CHECK("parse: an invalid root with the kernel's reason",
	      part_parse("root invalid (Parent is not a partition root)\n",
			 &st) == 0 && st.type == PART_ROOT && !st.valid);
	CHECK_STR("parse: the reason, without parentheses", st.reason,
		  "Parent is not a partition root");
	CHECK("parse: an invalid isolated partition",
	      part_parse("isolated invalid (Cpu list in cpuset.cpus not "
			 "exclusive)", &st) == 0 &&
	      st.type == PART_ISOLATED && !st.valid);
	CHECK_STR("parse: its reason", st.reason,
		  "Cpu list in cpuset.cpus not exclusive");
	CHECK("parse: invalid without a reason (older kernels)",
	      part_parse("root invalid\n", &st) == 0 && !st.valid &&
	      !st.reason[0]);
	CHECK("parse: refuses another word", part_parse("rooted", &st) ==
	      -EBADMSG);
	CHECK("parse: refuses an empty file", part_parse("", &st) ==
	      -EBADMSG);
	CHECK("parse: refuses an unclosed reason",
	      part_parse("root invalid (oops", &st) == -EBADMSG);
	CHECK("parse: refuses a reason on a valid partition",
	      part_parse("root (why)", &st) == -EBADMSG);
	CHECK("parse: refuses trailing words",
	      part_parse("root invalid (x) y", &st) == -EBADMSG);
	CHECK_STR("names", part_type_name(PART_ISOLATED), "isolated");
}

/* A v2 tree: a (member) / b (member) / c, and p (root) / q. */
static int
tree(struct cg_hier *h, char *dir, size_t size, bool exclusive_files)
{
	static int n;
	static const char *groups[] = { "a", "a/b", "a/b/c", "p", "p/q" };
	char g[512];
	size_t i;

	snprintf(dir, size, "%s/v2-%d", unit_tmp, n++);
	mkdir(dir, 0755);
	unit_put(dir, "cgroup.controllers", "cpuset cpu\n");
	unit_put(dir, "cpuset.cpus.effective", "0-7\n");
	unit_put(dir, "cpuset.mems.effective", "0\n");
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		snprintf(g, sizeof(g), "%s/%s", dir, groups[i]);
		mkdir(g, 0755);
		unit_put(g, "cpuset.cpus", "\n");
		unit_put(g, "cpuset.cpus.partition",
		    strcmp(groups[i], "p") ? "member\n" : "root\n");
		if (exclusive_files)
			unit_put(g, "cpuset.cpus.exclusive", "\n");
	}
	if (exclusive_files) {
		snprintf(g, sizeof(g), "%s/a", dir);
		unit_put(g, "cpuset.cpus.exclusive", "6\n");
	}
	return cg_open(h, dir, NULL, 0);
}

static void
test_make(void)
{
	char dir[256], a[300], b[300], c[300], q[300], p[300], err[1024];
	struct cg_hier h;
	struct part_undo u;
	struct part_state st;
	struct cpuset cpus = CPUSET_INIT;
	int r;

	cpuset_parse_list("2-3", &cpus, NULL, 0);
	r = tree(&h, dir, sizeof(dir), true);
	CHECK("remote: the tree opens", r == 0);
	if (r < 0)
		return;
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/a/b", dir);
	snprintf(c, sizeof(c), "%s/a/b/c", dir);
	snprintf(p, sizeof(p), "%s/p", dir);
	snprintf(q, sizeof(q), "%s/p/q", dir);

	CHECK("read: the root group is a valid root",
	      part_read(&h, "", &st, err, sizeof(err)) == 0 &&
	      st.type == PART_ROOT && st.valid);
	r = part_make(&h, "a/b/c", PART_ISOLATED, &cpus, &u, err, sizeof(err));
	CHECK("remote: made", r == 0);
	CHECK_STR("remote: the top ancestor adds the CPUs to its exclusive "
		  "ones", unit_get(a, "cpuset.cpus.exclusive"), "2-3,6");
	CHECK_STR("remote: the parent lists them",
		  unit_get(b, "cpuset.cpus.exclusive"), "2-3");
	CHECK_STR("remote: so does the group", unit_get(c, "cpuset.cpus.exclusive"),
		  "2-3");
	CHECK_STR("remote: the group is an isolated partition",
		  unit_get(c, "cpuset.cpus.partition"), "isolated");
	CHECK("remote: the undo record names both ancestors, top-down",
	      u.n == 2 && strcmp(u.group[0], "a") == 0 &&
	      strcmp(u.group[1], "a/b") == 0);
	part_undo(&h, "a/b/c", &u);
	CHECK_STR("undo: the partition is a member again",
		  unit_get(c, "cpuset.cpus.partition"), "member");
	CHECK_STR("undo: the group's exclusive CPUs are put back",
		  unit_get(c, "cpuset.cpus.exclusive"), "");
	CHECK_STR("undo: the parent's too", unit_get(b, "cpuset.cpus.exclusive"),
		  "");
	CHECK_STR("undo: the top ancestor's too",
		  unit_get(a, "cpuset.cpus.exclusive"), "6");

	r = part_make(&h, "p/q", PART_ROOT, &cpus, &u, err, sizeof(err));
	CHECK("local: below a partition root nothing else is written",
	      r == 0 && u.n == 0 && u.self_old == NULL &&
	      strcmp(unit_get(q, "cpuset.cpus.exclusive"), "") == 0 &&
	      strcmp(unit_get(p, "cpuset.cpus.exclusive"), "") == 0);
	CHECK_STR("local: a root partition", unit_get(q, "cpuset.cpus.partition"),
		  "root");
	part_undo_free(&u);

	r = part_make(&h, "p", PART_ISOLATED, &cpus, &u, err, sizeof(err));
	CHECK("top level: its parent is the root group, a partition",
	      r == 0 && u.n == 0 && u.self_old == NULL);
	part_undo(&h, "p", &u);
	CHECK_STR("undo: back to the type it had",
		  unit_get(p, "cpuset.cpus.partition"), "root");
	cg_close(&h);

	/* Before Linux 6.7 there is no cpuset.cpus.exclusive. */
	r = tree(&h, dir, sizeof(dir), false);
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(c, sizeof(c), "%s/a/b/c", dir);
	r = part_make(&h, "a/b/c", PART_ROOT, &cpus, &u, err, sizeof(err));
	CHECK("no exclusive files: the partition alone is written",
	      r == 0 && u.n == 0 &&
	      strcmp(unit_get(c, "cpuset.cpus.partition"), "root") == 0 &&
	      strcmp(unit_get(a, "cpuset.cpus.exclusive"), "(missing)") == 0);
	part_undo_free(&u);
	r = part_make(&h, "a/none", PART_ROOT, &cpus, &u, err, sizeof(err));
	CHECK("a group without the partition file is refused",
	      r == -ENOENT && strstr(err, "cpuset.cpus.partition"));
	part_undo(&h, "a/none", &u);
	cg_close(&h);
	cpuset_free(&cpus);
}

int
main(void)
{
	if (!mkdtemp(unit_tmp)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	test_parse();
	test_make();
	unit_machine_remove();
	return unit_failed;
}
