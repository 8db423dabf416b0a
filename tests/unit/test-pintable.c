// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/pin/pintable.c: what cpm-pin -p PID prints of a process, as text and
 * as JSON, from a view filled here; the thread table from this process's
 * own thread, read from the kernel.
 */
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "pin/pintable.h"
#include "unit.h"

static void
setl(struct cpuset *s, const char *list)
{
	if (cpuset_parse_list(list, s, NULL, 0) < 0)
		abort();
}

static char *
text_of(struct table *proc, struct table *threads)
{
	struct strbuf sb;

	strbuf_init(&sb);
	table_print(proc, TABLE_LABELLED, false, &sb);
	if (threads)
		table_print(threads, TABLE_LABELLED, false, &sb);
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

static char *
json_of(struct table *proc, struct table *threads)
{
	struct strbuf sb;
	struct json j;

	table_select(proc, PIN_PROC_JSON_COLUMNS, NULL, 0);
	strbuf_init(&sb);
	json_init(&j, &sb);
	json_obj_begin(&j);
	table_json_members(proc, 0, &j);
	json_key(&j, "threads");
	table_json(threads, &j);
	json_obj_end(&j);
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

int
main(void)
{
	struct pin_proc_view v = { .pid = 42, .aff = CPUSET_INIT,
				   .mems = CPUSET_INIT };
	struct table proc, threads;
	struct cpuset mine = CPUSET_INIT;
	char *s, want[256];
	pid_t self = getpid();

	pin_policy_init(&v.policy);
	setl(&v.aff, "0-3,8");
	setl(&v.mems, "0-1");
	v.have_mems = true;
	v.have_policy = true;
	v.policy.mode = PIN_MEM_PREFERRED;
	v.policy.many = true;
	snprintf(v.policy.flags, sizeof(v.policy.flags), "static");
	setl(&v.policy.nodes, "0,1");

	CHECK("the record", pin_proc_table(&v, &proc) == 0);
	CHECK("no thread of pid 42 differs when none is given",
	      pin_thread_table(&v, NULL, 0, false, &threads) == 0 &&
	      threads.nrows == 0);
	s = text_of(&proc, &threads);
	CHECK_STR("text: the affinity alone first, then policy and mems", s,
		  "0-3,8\nmempolicy: preferred-many=static 0-1\n"
		  "mems_allowed: 0-1\n");
	free(s);
	s = json_of(&proc, &threads);
	CHECK_STR("JSON: pid, cpus, the policy as an object, mems, threads", s,
		  "{\"pid\":42,\"cpus\":\"0-3,8\",\"mempolicy\":{\"mode\":"
		  "\"preferred-many\",\"flags\":\"static\",\"nodes\":\"0-1\"},"
		  "\"mems_allowed\":\"0-1\",\"threads\":[]}");
	free(s);
	table_free(&proc);
	table_free(&threads);

	/* Nothing known: "unknown" and no mems line; null in JSON. */
	v.have_policy = v.have_mems = false;
	pin_proc_table(&v, &proc);
	pin_thread_table(&v, NULL, 0, true, &threads);
	s = text_of(&proc, NULL);
	CHECK_STR("text: an unknown policy says so, unknown mems are left out",
		  s, "0-3,8\nmempolicy: unknown\n");
	free(s);
	s = json_of(&proc, &threads);
	CHECK_STR("JSON: both null", s, "{\"pid\":42,\"cpus\":\"0-3,8\","
		  "\"mempolicy\":null,\"mems_allowed\":null,\"threads\":[]}");
	free(s);
	table_free(&proc);
	table_free(&threads);

	/* This process's own thread, read from the kernel. */
	if (pin_get_affinity(0, &mine) == 0) {
		char *l = cpuset_to_list(&mine);

		v.pid = self;
		CHECK("every thread for JSON",
		      pin_thread_table(&v, &self, 1, true, &threads) == 0 &&
		      threads.nrows == 1);
		pin_proc_table(&v, &proc);
		s = json_of(&proc, &threads);
		snprintf(want, sizeof(want), "\"threads\":[{\"tid\":%d,"
			 "\"cpus\":\"%s\"}]}", (int)self, l);
		CHECK_STR("JSON: the thread's tid and affinity",
			  strstr(s, "\"threads\"") ? strstr(s, "\"threads\"") :
			  s, want);
		free(s);
		table_free(&proc);
		table_free(&threads);
		v.pid = 1;	/* as if self were another process's thread */
		setl(&v.aff, "0-4095");
		pin_thread_table(&v, &self, 1, false, &threads);
		s = text_of(&threads, NULL);
		snprintf(want, sizeof(want), "thread %d: %s\n", (int)self, l);
		CHECK_STR("text: a thread that differs is named", s, want);
		free(s);
		table_free(&threads);
		cpuset_copy(&v.aff, &mine);
		pin_thread_table(&v, &self, 1, false, &threads);
		CHECK("text: one that does not is left out", threads.nrows == 0);
		table_free(&threads);
		free(l);
	}
	pin_policy_free(&v.policy);
	cpuset_free(&v.aff);
	cpuset_free(&v.mems);
	cpuset_free(&mine);
	return unit_failed;
}
