/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files of /proc that cpm reads, one parser each, all below a
 * sysroot (so that a dumped tree replays them):
 *
 *   proc/PID/stat     the start time, which tells a process from a later
 *                     one given the same pid
 *   proc/stat         the node's CPU time, busy and idle
 *   proc/PID/status   list fields such as Cpus_allowed_list
 *   proc/PID/cpuset   the process's cpuset group
 *   proc/PID/cgroup   the process's group per hierarchy (the text)
 *   proc/mounts       where a cgroup hierarchy is mounted (the text)
 *
 * pid 0 means "self".
 */
#ifndef CPM_PROC_H
#define CPM_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "machine/sysroot.h"

/* "proc/PID/FILE" below a sysroot; pid 0 is "proc/self/FILE". */
void proc_path(char *buf, size_t size, pid_t pid, const char *file);

/*
 * The start time of process pid (field 22 of proc/PID/stat, clock ticks
 * since boot).  A zombie (state Z or X) has stopped running and counts
 * as gone.  Returns 0; -ESRCH when it has gone; -EBADMSG for a stat line
 * that cannot be parsed; another -errno of the read.
 */
int proc_start_time(const struct sysroot *root, pid_t pid, uint64_t *start);

/*
 * The node's CPU time so far, from the "cpu" line of proc/stat, in clock
 * ticks summed over every CPU: idle counts idle and iowait (a CPU waiting
 * for I/O runs nothing), total every field up to steal (guest time is
 * already in user and nice).  The share of idle time over an interval is
 * the ratio of the differences of two readings.
 */
struct proc_cpu_times {
	uint64_t idle;
	uint64_t total;
};

/* The "cpu" line of text (proc/stat's).  0 or -EBADMSG. */
int proc_cpu_times_parse(const char *text, struct proc_cpu_times *t);
/* proc/stat below root.  0, -EBADMSG, or -errno of the read. */
int proc_cpu_times(const struct sysroot *root, struct proc_cpu_times *t);
/*
 * The idle share, in thousandths, from reading a to reading b: -1 when
 * no time passed (or the counters went back).
 */
int proc_cpu_idle_pm(const struct proc_cpu_times *a,
		     const struct proc_cpu_times *b);

/*
 * The list field (e.g. "Cpus_allowed_list", "Mems_allowed_list") of
 * proc/PID/status into out.  Returns 0, -ESRCH (no such process), -ENOENT
 * (no such field), -EINVAL (not a list), -ENOMEM.
 */
int proc_status_list(const struct sysroot *root, pid_t pid, const char *field,
		     struct cpuset *out);

/*
 * The group of proc/PID/cpuset into buf (one trailing newline removed).
 * Returns the length or -errno (-ENOENT: no process or no cpuset
 * support).
 */
ssize_t proc_cpuset(const struct sysroot *root, pid_t pid, char *buf,
		    size_t size);

/*
 * From the text of a proc/PID/cgroup file, the group path in the v1
 * hierarchy of controller, or with controller "" in the v2 hierarchy,
 * into out.  Returns 0, -ENOENT (no such line) or -ENAMETOOLONG.
 */
int proc_cgroup_group(const char *text, const char *controller, char *out,
		      size_t size);

/*
 * From the text of proc/mounts, where controller's v1 hierarchy (or, with
 * controller "", the cgroup2 hierarchy) is mounted, into mnt without the
 * leading '/'.  *noprefix is set when its cpuset files lack the
 * "cpuset." prefix (the noprefix option, or the old "cpuset" file
 * system).  Returns 0 or -ENOENT.
 */
int proc_cgroup_mount(const char *mounts, const char *controller, char *mnt,
		      size_t size, bool *noprefix);

#endif
