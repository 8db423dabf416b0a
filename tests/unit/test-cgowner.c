// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who owns a group: unit names from path components, systemd host
 * detection, the delegate marks and the route a change takes.  The trees
 * are plain directories in /tmp laid out like a systemd host's cgroup v2
 * root (init.scope holding PID 1): this machine has no systemd on v2, so
 * a fake is the only way to run these here; the systemd VM tier checks
 * the same on the real thing.  The delegate mark is a user.delegate
 * extended attribute, as systemd 252 sets it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cgroup/cgowner.h"
#include "cgroup/sdapply.h"
#include "unit.h"

static char tmp[] = "/tmp/cpm-test-cgowner-XXXXXX";

static void
unit_of(const char *group, int want_r, const char *want_unit, size_t want_len)
{
	char unit[CGOWNER_UNIT_MAX] = "", name[512];
	size_t glen = 999;
	int r = cgowner_unit_of_path(group, unit, sizeof(unit), &glen);

	snprintf(name, sizeof(name), "'%s' belongs to %s", group,
		 want_r ? "no unit" : want_unit);
	CHECK(name, r == want_r && (want_r ||
	      (strcmp(unit, want_unit) == 0 && glen == want_len)));
}

static void
test_paths(void)
{
	unit_of("", 0, "-.slice", 0);
	unit_of("system.slice", 0, "system.slice", 12);
	unit_of("system.slice/db.service", 0, "db.service", 23);
	unit_of("system.slice/db.service/worker", 0, "db.service", 23);
	unit_of("system.slice/db.service/x.scope", 0, "db.service", 23);
	unit_of("user.slice/user-1000.slice/user@1000.service/app.slice", 0,
		"user@1000.service", 44);
	unit_of("machine.slice/machine-a.scope", 0, "machine-a.scope", 29);
	unit_of("kubepods.slice/kubepods-burstable.slice/"
		"kubepods-burstable-pod1.slice/cri-containerd-ab.scope", 0,
		"cri-containerd-ab.scope", 93);
	unit_of("system.slice/plain", 0, "system.slice", 12);
	unit_of("kubepods/burstable/pod1", -ENOENT, NULL, 0);
	unit_of("my.group", -ENOENT, NULL, 0);
	unit_of("bad name.service", -ENOENT, NULL, 0);
	unit_of(".service", -ENOENT, NULL, 0);
	CHECK("db.service is a unit name", cgowner_is_unit_name("db.service"));
	CHECK("db.target has no group", !cgowner_is_unit_name("db.target"));
}

static void
mk(const char *rel, const char *file, const char *content)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "mkdir -p '%s/%s'", tmp, rel);
	if (system(path) != 0)
		printf("# mkdir %s failed\n", rel);
	if (file == NULL)
		return;
	snprintf(path, sizeof(path), "%s/%s/%s", tmp, rel, file);
	f = fopen(path, "w");
	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

static enum cgowner_kind
kind_of(struct cg_hier *h, const char *group, struct cgowner *o)
{
	char err[256];

	if (cgowner_of(h, group, o, err, sizeof(err)) < 0)
		return (enum cgowner_kind)-1;
	return o->kind;
}

static void
test_tree(void)
{
	struct cg_hier h;
	struct cgowner o;
	struct sdbus *bus;
	char err[512], path[4096];
	bool marked;

	mk(".", "cgroup.controllers", "cpu cpuset memory\n");
	mk("system.slice/db.service", NULL, NULL);
	mk("system.slice/web.service/worker/deep", NULL, NULL);
	mk("top", NULL, NULL);

	CHECK("open the fake v2 tree", cg_open(&h, tmp, err, sizeof(err)) == 0);
	CHECK("without init.scope it is no systemd host",
	      !cgowner_systemd_host(&h));
	CHECK("... and a unit-named group is unmanaged",
	      kind_of(&h, "system.slice/db.service", &o) == CGOWNER_UNMANAGED &&
	      o.unit[0] == '\0');
	mk("init.scope", "cgroup.procs", "77\n");
	CHECK("init.scope without PID 1 is no systemd host",
	      !cgowner_systemd_host(&h));
	mk("init.scope", "cgroup.procs", "12\n1\n");
	CHECK("init.scope holding PID 1 is a systemd host",
	      cgowner_systemd_host(&h));

	CHECK("a service's group is its unit's",
	      kind_of(&h, "system.slice/db.service", &o) == CGOWNER_UNIT &&
	      strcmp(o.unit, "db.service") == 0 && o.is_unit_group && o.exists);
	CHECK("a slice's group is its unit's",
	      kind_of(&h, "system.slice", &o) == CGOWNER_UNIT &&
	      strcmp(o.unit, "system.slice") == 0);
	CHECK("a top-level group with no unit name is unmanaged",
	      kind_of(&h, "top", &o) == CGOWNER_UNMANAGED);
	CHECK("below an undelegated service: the unit's, not its own group",
	      kind_of(&h, "system.slice/web.service/worker", &o) ==
	      CGOWNER_UNIT && !o.is_unit_group &&
	      strcmp(o.unit_group, "system.slice/web.service") == 0);
	CHECK("a group still to be made is classified by its path",
	      kind_of(&h, "system.slice/new.service", &o) == CGOWNER_UNIT &&
	      !o.exists);

	/* The whole decision a tool asks for.  A tree in /tmp is no
	 * cgroupfs, so there is no systemd to reach: a unit's group is
	 * refused, or written with force. */
	CHECK("route: an unmanaged group is written",
	      sdapply_route(&h, "top", NULL, false, &o, &bus, err,
			    sizeof(err)) == CGOWNER_WRITE_FILES && bus == NULL);
	CHECK("route: a unit's group without systemd is refused",
	      sdapply_route(&h, "system.slice/db.service", NULL, false, &o,
			    &bus, err, sizeof(err)) == -ECANCELED &&
	      strstr(err, "db.service") && strstr(err, "--force"));
	CHECK("route: ... written with force, with a warning",
	      sdapply_route(&h, "system.slice/db.service", NULL, true, &o,
			    &bus, err, sizeof(err)) == CGOWNER_FORCED &&
	      bus == NULL && strstr(err, "directly (--force)"));
	CHECK("route: what systemd has no property for is refused, named",
	      sdapply_route(&h, "system.slice/db.service",
			    "a cpuset partition", false, &o, &bus, err,
			    sizeof(err)) == -ECANCELED &&
	      strstr(err, "no property for a cpuset partition"));
	CHECK("route: ... and forced with force",
	      sdapply_route(&h, "system.slice/db.service",
			    "a cpuset partition", true, &o, &bus, err,
			    sizeof(err)) == CGOWNER_FORCED);
	CHECK("route: a path that is no group is a usage error",
	      sdapply_route(&h, "../etc", NULL, false, &o, &bus, err,
			    sizeof(err)) == -EINVAL);

	snprintf(path, sizeof(path), "%s/system.slice/web.service", tmp);
	marked = setxattr(path, "user.delegate", "1", 1, 0) == 0;
	if (!marked) {
		printf("skip - delegation # no user xattrs on %s\n", tmp);
		cg_close(&h);
		return;
	}
	CHECK("below a service marked user.delegate=1: delegated",
	      kind_of(&h, "system.slice/web.service/worker", &o) ==
	      CGOWNER_DELEGATED && strcmp(o.unit, "web.service") == 0);
	CHECK("... at any depth",
	      kind_of(&h, "system.slice/web.service/worker/deep", &o) ==
	      CGOWNER_DELEGATED);
	CHECK("the delegated unit's own group stays systemd's",
	      kind_of(&h, "system.slice/web.service", &o) == CGOWNER_UNIT);
	snprintf(path, sizeof(path), "%s/system.slice/db.service", tmp);
	setxattr(path, "user.delegate", "0", 1, 0);
	mk("system.slice/db.service/sub", NULL, NULL);
	CHECK("user.delegate=0 delegates nothing",
	      kind_of(&h, "system.slice/db.service/sub", &o) == CGOWNER_UNIT);
	cg_close(&h);
}

static void
test_route(void)
{
	struct cgowner o;
	char msg[512];

	memset(&o, 0, sizeof(o));
	o.kind = CGOWNER_UNMANAGED;
	CHECK("unmanaged: write the files",
	      cgowner_route(&o, false, false) == CGOWNER_WRITE_FILES);
	o.kind = CGOWNER_DELEGATED;
	CHECK("delegated: write the files",
	      cgowner_route(&o, true, false) == CGOWNER_WRITE_FILES);
	o.kind = CGOWNER_UNIT;
	o.is_unit_group = o.exists = true;
	snprintf(o.unit, sizeof(o.unit), "db.service");
	CHECK("a unit's group with systemd reachable: through systemd",
	      cgowner_route(&o, true, false) == CGOWNER_VIA_SYSTEMD);
	CHECK("... even with --force",
	      cgowner_route(&o, true, true) == CGOWNER_VIA_SYSTEMD);
	CHECK("a unit's group without the bus: refused",
	      cgowner_route(&o, false, false) == CGOWNER_REFUSE);
	CHECK("... unless --force",
	      cgowner_route(&o, false, true) == CGOWNER_FORCED);
	cgowner_refusal(&o, "system.slice/db.service", false, msg, sizeof(msg));
	CHECK("the refusal names the unit and the way out",
	      strstr(msg, "db.service") && strstr(msg, "systemctl set-property")
	      && strstr(msg, "--force"));
	o.is_unit_group = false;
	CHECK("below an undelegated unit: refused even with the bus",
	      cgowner_route(&o, true, false) == CGOWNER_REFUSE);
	cgowner_refusal(&o, "system.slice/db.service/x", true, msg, sizeof(msg));
	CHECK("... saying Delegate=yes", strstr(msg, "Delegate=yes") != NULL);
	o.is_unit_group = true;
	o.exists = false;
	CHECK("a unit's group to be made: refused",
	      cgowner_route(&o, true, false) == CGOWNER_REFUSE);
}

int
main(void)
{
	char cmd[128];

	test_paths();
	test_route();
	if (!mkdtemp(tmp)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	test_tree();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return unit_failed;
}
