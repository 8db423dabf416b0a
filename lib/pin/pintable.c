// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include "base/json.h"
#include "base/strbuf.h"
#include "pin/pintable.h"

enum { P_PID, P_CPUS, P_MEMPOLICY, P_MEMS, P_NCOLS };

static const struct table_column proc_columns[P_NCOLS] = {
	[P_PID] = { "PID", "pid", TABLE_RIGHT, 0 },
	[P_CPUS] = { "CPUS", "cpus", TABLE_BARE, 0 },
	[P_MEMPOLICY] = { "MEMPOLICY", "mempolicy", 0, 0 },
	[P_MEMS] = { "MEMS_ALLOWED", "mems_allowed", TABLE_OPTIONAL, 0 },
};

enum { T_THREAD, T_CPUS, T_NCOLS };

static const struct table_column thread_columns[T_NCOLS] = {
	[T_THREAD] = { "THREAD", "tid", TABLE_RIGHT | TABLE_ROWLABEL, 0 },
	[T_CPUS] = { "CPUS", "cpus", 0, 0 },
};

/* A cpulist cell: its text, a JSON string. */
static void
set_list(struct table *tab, size_t row, size_t col, const struct cpuset *s)
{
	char *l = cpuset_to_list(s);

	if (l == NULL)
		tab->oom = true;
	else
		table_set_str(tab, row, col, l);
	free(l);
}

/* The policy: "bind 0" and {"mode":"bind","flags":"","nodes":"0"}. */
static void
set_policy(struct table *tab, size_t row, const struct pin_proc_view *v)
{
	const struct pin_policy *p = &v->policy;
	struct strbuf text, js;
	struct json j;
	char *nodes;

	if (!v->have_policy) {
		table_set(tab, row, P_MEMPOLICY, "unknown", NULL);
		return;
	}
	strbuf_init(&text);
	strbuf_init(&js);
	pin_policy_format(p, &text);
	nodes = cpuset_to_list(&p->nodes);
	json_init(&j, &js);
	json_obj_begin(&j);
	json_key(&j, "mode");
	json_str(&j, p->mode == PIN_MEM_PREFERRED && p->many ?
		 "preferred-many" : pin_mem_name(p->mode));
	json_key(&j, "flags");
	json_str(&j, p->flags);
	json_key(&j, "nodes");
	json_str(&j, nodes ? nodes : "");
	json_obj_end(&j);
	if (text.oom || js.oom || j.err || nodes == NULL)
		tab->oom = true;
	else
		table_set(tab, row, P_MEMPOLICY, text.buf ? text.buf : "",
			  js.buf);
	free(nodes);
	strbuf_free(&text);
	strbuf_free(&js);
}

int
pin_proc_table(const struct pin_proc_view *v, struct table *tab)
{
	char err[256];
	int row;

	table_init(tab, proc_columns, P_NCOLS, " ");
	if (table_select(tab, PIN_PROC_TEXT_COLUMNS, err, sizeof(err)) < 0 ||
	    (row = table_add_row(tab)) < 0)
		goto nomem;
	table_set_int(tab, (size_t)row, P_PID, v->pid);
	set_list(tab, (size_t)row, P_CPUS, &v->aff);
	set_policy(tab, (size_t)row, v);
	if (v->have_mems)
		set_list(tab, (size_t)row, P_MEMS, &v->mems);
	if (tab->oom)
		goto nomem;
	return 0;
nomem:
	table_free(tab);
	return -ENOMEM;
}

int
pin_thread_table(const struct pin_proc_view *v, const pid_t *tids, int n,
		 bool all, struct table *tab)
{
	struct cpuset t = CPUSET_INIT;
	int i, row;

	table_init(tab, thread_columns, T_NCOLS, " ");
	for (i = 0; i < n; i++) {
		if (pin_get_affinity(tids[i], &t) < 0)
			continue;	/* exited meanwhile */
		if (!all && (tids[i] == v->pid || cpuset_equal(&t, &v->aff)))
			continue;
		row = table_add_row(tab);
		if (row < 0)
			break;
		table_set_int(tab, (size_t)row, T_THREAD, tids[i]);
		set_list(tab, (size_t)row, T_CPUS, &t);
	}
	cpuset_free(&t);
	if (i < n || tab->oom) {
		table_free(tab);
		return -ENOMEM;
	}
	return 0;
}
