/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Controller helpers of the cgroup layer: what a group's cpu, cpuacct and
 * cpuset files say, read through the layer's group access (cgroup.h),
 * whichever back end opened the hierarchy.
 */
#ifndef CPM_CGCTRL_H
#define CPM_CGCTRL_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroup/cgroup.h"

/* CPU bandwidth settings, in the units of the v1 files. */
struct cg_cpu_limit {
	int64_t quota_us;	/* -1: unlimited ("max") */
	uint64_t period_us;
	uint64_t burst_us;	/* 0 when the kernel has no burst file */
	bool has_burst;
	uint64_t shares;	/* v1 cpu.shares; 0 on v2 */
	uint64_t weight;	/* v2 cpu.weight; 0 on v1 */
};

/*
 * Writes that set a group's CPU controller, in the order the kernel
 * accepts them (quota.h plans them; the writer, or systemd through
 * sdapply.h, carries them out).
 */
struct quota_write {
	const char *file;
	char value[64];
	char old[64];		/* put back if a later write is refused */
};

/* The writes, in order. */
struct quota_plan {
	struct quota_write op[8];
	int n;
	bool request_clamped;	/* the request is above the kernel's
				 * maximum shares and was clamped */
	bool period_asked;	/* --period was given: the period is the
				 * caller's, not the group's kept one */
};

/*
 * Read the group's limits: v1 cpu.cfs_quota_us, cpu.cfs_period_us,
 * cpu.cfs_burst_us, cpu.shares; v2 cpu.max, cpu.max.burst, cpu.weight.
 * The root group has none of them on v2: it reads as unlimited, period
 * 100000.  dirfd >= 0: the group's cpu directory (from cg_walk()), group
 * is then only used in messages.  Returns 0, -ENOENT, or -EBADMSG for a
 * file the kernel would not print.
 */
int cg_cpu_limit_read(const struct cg_hier *h, const char *group, int dirfd,
		      struct cg_cpu_limit *lim, char *err, size_t errlen);

/*
 * Only the quota and period (v1 cpu.cfs_quota_us, and cpu.cfs_period_us
 * only when the quota is finite; v2 cpu.max): the cheap test of "does
 * this group have a CPU limit" for walks over many groups.  *quota_us is
 * -1 when unlimited.  Returns as cg_cpu_limit_read().
 */
int cg_cpu_quota_read(const struct cg_hier *h, const char *group, int dirfd,
		      int64_t *quota_us, uint64_t *period_us, char *err,
		      size_t errlen);

/*
 * A group's CPU control files kept open between reads, for a watch that
 * reads them every round: a kept file costs one pread(2) instead of
 * openat, read and close.  -1: not open.  budget (NULL: keep nothing)
 * counts the descriptors the caller lets them keep; opening one takes
 * one, closing gives it back.
 */
struct cg_cpu_fds {
	int quota;		/* v2 cpu.max, v1 cpu.cfs_quota_us */
	int period;		/* v1 cpu.cfs_period_us */
	int stat;		/* cpu.stat */
	int usage;		/* v1 cpuacct.usage; CG_FD_ABSENT: the group
				 * had none, not looked for again until the
				 * caller sets it back to -1 */
	size_t *budget;
};
#define CG_FD_ABSENT (-2)

void cg_cpu_fds_init(struct cg_cpu_fds *f, size_t *budget);
void cg_cpu_fds_close(struct cg_cpu_fds *f);

/*
 * cg_cpu_quota_read() through the kept files f (NULL: as it), with the
 * group's files where at says (from cg_walk(); NULL: the group is opened
 * by name).  A kept file that can no longer be read (its group was
 * removed) is closed and the answer is -ESTALE: the caller's picture of
 * the groups is out of date.
 */
int cg_cpu_quota_read_fds(const struct cg_hier *h, const char *group,
			  const struct cg_at *at, struct cg_cpu_fds *f,
			  int64_t *quota_us, uint64_t *period_us, char *err,
			  size_t errlen);

/* The limit in CPUs (quota / period), or a negative number when unlimited. */
double cg_cpu_limit_cpus(const struct cg_cpu_limit *lim);

/* Throttling and usage counters of a group. */
struct cg_cpu_stat {
	bool has_bandwidth;	/* nr_periods etc. were present */
	int64_t nr_periods;	/* as printed: the kernel's int may wrap */
	int64_t nr_throttled;
	uint64_t throttled_ns;
	int64_t nr_bursts;
	uint64_t burst_ns;
	bool has_burst;		/* nr_bursts was present (Linux 5.14) */
	bool has_usage;
	uint64_t usage_ns;	/* v2 usage_usec, v1 cpuacct.usage */
};

/*
 * Parse the text of a cpu.stat file (version 1: ns keys, 2: usec keys) by
 * key; unknown keys are ignored, a malformed line is -EBADMSG.
 */
int cg_cpu_stat_parse(const char *text, int version, struct cg_cpu_stat *st);

/*
 * Read group's cpu.stat (and, on v1, cpuacct.usage from the cpuacct
 * hierarchy when there is one and the group exists in it).  dirfd as for
 * cg_cpu_limit_read().  Returns 0, -ENOENT, -EBADMSG.
 */
int cg_cpu_stat_read(const struct cg_hier *h, const char *group, int dirfd,
		     struct cg_cpu_stat *st, char *err, size_t errlen);

/*
 * The same, and on v1 cpuacct.usage only when usage is set (has_usage is
 * false otherwise): a report without a time window has no use for it,
 * and the cpuacct group is another path to resolve per group.
 */
int cg_cpu_stat_read_usage(const struct cg_hier *h, const char *group,
			   int dirfd, bool usage, struct cg_cpu_stat *st,
			   char *err, size_t errlen);

/* cg_cpu_stat_read_usage() through the kept files f, at as above. */
int cg_cpu_stat_read_fds(const struct cg_hier *h, const char *group,
			 const struct cg_at *at, bool usage,
			 struct cg_cpu_fds *f, struct cg_cpu_stat *st,
			 char *err, size_t errlen);

/*
 * Whether group's cpuset is exclusive: 1 when v1 cpuset.cpu_exclusive is
 * 1 or v2 cpuset.cpus.partition is "root" or "isolated" (valid or not);
 * 0 when not, for the root group, and without a cpuset hierarchy;
 * -ENOENT when the group or the file is missing from the cpuset
 * hierarchy, another -errno when the file cannot be read.
 */
int cg_cpuset_exclusive(const struct cg_hier *h, const char *group);

/*
 * True when no child of group can have cpuset files: there is no cpuset
 * hierarchy, or (v1) group is missing from it, or (v2) group's
 * cgroup.subtree_control does not enable cpuset.  False when group has
 * them or it cannot be told (the file unreadable).
 */
bool cg_cpuset_none_below(const struct cg_hier *h, const char *group);

#endif
