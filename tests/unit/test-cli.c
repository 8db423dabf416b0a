// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Configuration is decided once, by the tool: lib/cli resolves the
 * option, then the environment, then the live system; the rest of the
 * library takes explicit roots and reads no environment variable.
 */
#include <stdlib.h>
#include <string.h>

#include "cgroup/cgroup.h"
#include "machine/sysroot.h"
#include "tool/cli.h"
#include "unit.h"

int
main(void)
{
	struct sysroot r;
	struct cg_hier h;
	char err[256];
	const char *v;

	setenv("CPM_SYSROOT", "/nonexistent-cpm-sysroot", 1);
	setenv("CPM_CGROUP_ROOT", "/nonexistent-cpm-cgroup", 1);
	v = cli_sysroot_dir("/opt");
	CHECK_STR("the --sysroot option comes first", v ? v : "(null)", "/opt");
	v = cli_sysroot_dir(NULL);
	CHECK_STR("then CPM_SYSROOT", v ? v : "(null)",
		  "/nonexistent-cpm-sysroot");
	v = cli_cgroup_root(NULL);
	CHECK_STR("then CPM_CGROUP_ROOT", v ? v : "(null)",
		  "/nonexistent-cpm-cgroup");
	setenv("CPM_SYSROOT", "", 1);
	CHECK("an empty CPM_SYSROOT means the live machine",
	      cli_sysroot_dir(NULL) == NULL);
	unsetenv("CPM_CGROUP_ROOT");
	CHECK("no CPM_CGROUP_ROOT means the live hierarchy",
	      cli_cgroup_root(NULL) == NULL);

	setenv("CPM_SYSROOT", "/nonexistent-cpm-sysroot", 1);
	setenv("CPM_CGROUP_ROOT", "/nonexistent-cpm-cgroup", 1);
	CHECK("sysroot_open(NULL) opens / whatever CPM_SYSROOT says",
	      sysroot_open(&r, NULL) == 0 && r.live);
	sysroot_close(&r);
	/* The live hierarchy may be missing here (no cgroup file system):
	 * what matters is that the tree named in the environment is not
	 * the one opened. */
	if (cg_open(&h, NULL, err, sizeof(err)) == 0) {
		CHECK("cg_open(NULL) opens the live hierarchy whatever "
		      "CPM_CGROUP_ROOT says", h.live);
		cg_close(&h);
	} else {
		CHECK("cg_open(NULL) does not open CPM_CGROUP_ROOT",
		      strstr(err, "nonexistent-cpm-cgroup") == NULL);
	}
	return unit_failed;
}
