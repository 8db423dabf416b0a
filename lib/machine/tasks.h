/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every thread of the machine with what decides whether it can be moved
 * off CPUs, read below a sysroot:
 *
 *   proc/PID/task/TID/stat     the parent (field 4), the flags (field 9:
 *                              PF_KTHREAD, PF_NO_SETAFFINITY) and the
 *                              start time (field 22), which tells a
 *                              thread from a later one of the same id
 *   proc/PID/task/TID/status   Cpus_allowed_list, its affinity
 *
 * Terminology:
 *   kernel thread  PF_KTHREAD set.
 *   per-CPU        PF_NO_SETAFFINITY set: the kernel bound it to its
 *                  CPUs (ksoftirqd, migration, kworkers of a CPU's pool)
 *                  and refuses any other affinity.
 *   scope          a process whose tree (it and every descendant) is all
 *                  that is looked at; 0 is every process.
 */
#ifndef CPM_TASKS_H
#define CPM_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "machine/sysroot.h"

#define PF_KTHREAD_BIT		0x00200000ul
#define PF_NO_SETAFFINITY_BIT	0x04000000ul

struct task_info {
	pid_t pid, tid, ppid;
	uint64_t start;		/* clock ticks since boot */
	unsigned long flags;
	char comm[32];
	struct cpuset allowed;	/* Cpus_allowed_list */
	bool kthread;		/* PF_KTHREAD */
	bool percpu;		/* PF_NO_SETAFFINITY */
};

struct task_table {
	struct task_info *v;	/* by tid */
	size_t n;
};

/*
 * From the text of a proc/PID/stat line: the command, the parent, the
 * flags and the start time.  Returns 0 or -EBADMSG.
 */
int task_stat_parse(const char *line, char *comm, size_t commlen,
		    pid_t *ppid, unsigned long *flags, uint64_t *start);

/*
 * Every thread of scope's tree (0: of every process) into t; threads
 * gone while they were read are left out.  Returns 0, -ENOENT without
 * proc (err says so), -ENOMEM.
 */
int task_scan(const struct sysroot *root, pid_t scope, struct task_table *t,
	      char *err, size_t errlen);
void task_table_free(struct task_table *t);
/* The entry for tid, or NULL. */
const struct task_info *task_find(const struct task_table *t, pid_t tid);

#endif
