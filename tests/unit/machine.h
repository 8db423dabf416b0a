/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A machine for unit tests: tests/gen-sysfs writes the sysfs tree of a
 * spec (see its usage) into a temporary directory and topo_load() reads it
 * back, as cpm-topo --sysroot would.
 */
#ifndef CPM_UNIT_MACHINE_H
#define CPM_UNIT_MACHINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kube/kubelet.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

static char unit_tmp[] = "/tmp/cpm-test-machine-XXXXXX";

/* Load the machine of spec into t (and kt when not NULL); exits on error. */
static inline void
unit_machine(const char *spec, unsigned int flags, struct topo *t,
	     struct ktopo *kt)
{
	char path[256], cmd[1024], err[256] = "";
	const char *top = getenv("CPM_TOP");
	struct sysroot root;
	FILE *f;

	if (!mkdtemp(unit_tmp)) {
		printf("not ok - mkdtemp\n");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/spec", unit_tmp);
	f = fopen(path, "w");
	if (!f || fputs(spec, f) < 0 || fclose(f) != 0) {
		printf("not ok - cannot write %s\n", path);
		exit(1);
	}
	snprintf(cmd, sizeof(cmd), "python3 '%s/tests/gen-sysfs' '%s' "
		 "'%s/root'", top ? top : ".", path, unit_tmp);
	snprintf(path, sizeof(path), "%s/root", unit_tmp);
	memset(t, 0, sizeof(*t));
	if (system(cmd) != 0 || sysroot_open(&root, path) < 0 ||
	    topo_load(t, &root, flags, err, sizeof(err)) < 0 ||
	    (kt && ktopo_from_topo(kt, t) < 0)) {
		printf("not ok - cannot load the machine: %s\n", err);
		exit(1);
	}
	sysroot_close(&root);
}

/* Remove the machine's directory. */
static inline void
unit_machine_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", unit_tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", unit_tmp);
}

/* A cpulist in one of four rotating buffers, for CHECK_STR. */
static inline const char *
unit_list(const struct cpuset *s)
{
	static char buf[4][256];
	static int i;
	char *l = cpuset_to_list(s);

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s", l ? l : "(oom)");
	free(l);
	return buf[i];
}

#endif
