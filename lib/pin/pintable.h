/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What cpm-pin -p PID shows of a process, defined once for its text and
 * its JSON: a record (PID, CPUS, MEMPOLICY, MEMS_ALLOWED) and a table of
 * threads (THREAD, CPUS).
 *
 * Text (TABLE_LABELLED): the affinity alone on the first line, for pipes,
 * then "mempolicy: bind 0", "mems_allowed: 0" (when known), then
 * "thread TID: CPULIST" for each thread whose affinity differs from the
 * process's.  JSON: {"pid", "cpus", "mempolicy": {"mode", "flags",
 * "nodes"} or null, "mems_allowed" or null, "threads": [{"tid",
 * "cpus"}, ...] with every thread}.
 */
#ifndef CPM_PINTABLE_H
#define CPM_PINTABLE_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "base/table.h"
#include "pin/pin.h"

/* What is known of a process. */
struct pin_proc_view {
	pid_t pid;
	struct cpuset aff;		/* its affinity */
	struct cpuset mems;		/* Mems_allowed_list, if have_mems */
	struct pin_policy policy;	/* its task policy, if have_policy */
	bool have_policy, have_mems;
};

/* The record's columns, selected for text or for JSON. */
#define PIN_PROC_TEXT_COLUMNS "CPUS,MEMPOLICY,MEMS_ALLOWED"
#define PIN_PROC_JSON_COLUMNS "PID,CPUS,MEMPOLICY,MEMS_ALLOWED"

/*
 * Initialise tab with the process record as its one row, the text
 * columns selected.  Returns 0 or -ENOMEM (tab is then freed).
 */
int pin_proc_table(const struct pin_proc_view *v, struct table *tab);

/*
 * Initialise tab with one row per thread of tids (n of them) whose
 * affinity can be read: every one with all, else those other than the
 * process's main thread whose affinity differs from v->aff.  Returns 0
 * or -ENOMEM (tab is then freed).
 */
int pin_thread_table(const struct pin_proc_view *v, const pid_t *tids,
		     int n, bool all, struct table *tab);

#endif
