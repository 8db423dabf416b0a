/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names and formats of the cgroup files that the machine model reads
 * as well as the cgroup layer above it: a hierarchy's cpuset file names
 * by version (the topology reads a process's allowed CPUs through them)
 * and the v2 cpu.max text (the topology's CPU limit of the caller, the
 * cgroup layer's bandwidth settings).
 */
#ifndef CPM_CGFILES_H
#define CPM_CGFILES_H

#include <stddef.h>
#include <stdint.h>

/* A quota of -1: no limit (the v1 file's value, v2 cpu.max's "max"). */
#define CFS_QUOTA_UNLIMITED	INT64_C(-1)

/* The cpuset files of a hierarchy of version 1 or 2. */
struct cgcpuset_files {
	const char *cpus, *mems;		/* what the group asks for */
	const char *eff_cpus, *eff_mems;	/* what the kernel grants */
	const char *exclusive;			/* the exclusivity switch */
	const char *exclusive_on;		/* its value when exclusive */
};

void cgcpuset_files(int version, struct cgcpuset_files *f);

/*
 * Format the cgroup v2 cpu.max text, "QUOTA PERIOD" or "max PERIOD" when
 * quota is negative or 0 (unset).  Returns the snprintf length.
 */
int cpu_max_format(int64_t quota_us, uint64_t period_us, char *buf,
		   size_t len);

/*
 * Parse cpu.max text ("max 100000", "50000 100000", one optional trailing
 * newline).  quota is CFS_QUOTA_UNLIMITED for "max".  Returns 0 or
 * -EINVAL.
 */
int cpu_max_parse(const char *text, int64_t *quota_us, uint64_t *period_us);

#endif
