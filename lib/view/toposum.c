// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-topo's summary and its --json document.  Every line of the summary
 * is "label padded to 22 columns, value"; the labels that carry a number
 * are built by hand, like the numbers.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "base/strbuf.h"
#include "view/toposum.h"

#define LABEL_WIDTH 22

/* "pre N post" as a label, padded. */
static void
label_n(struct strbuf *sb, const char *pre, long long n, const char *post)
{
	char label[64];
	size_t len = strlen(pre), k = strlen(post);

	memcpy(label, pre, len);
	len += fmt_int(label + len, n);
	memcpy(label + len, post, k + 1);
	strbuf_pad(sb, label, LABEL_WIDTH);
}

static void
list_field(struct strbuf *sb, const char *label, const struct cpuset *s)
{
	strbuf_pad(sb, label, LABEL_WIDTH);
	if (cpuset_empty(s))
		strbuf_add(sb, "-", 1);
	else
		cpuset_format(s, sb);
	strbuf_add(sb, "\n", 1);
}

static void
int_field(struct strbuf *sb, const char *label, long long v)
{
	strbuf_pad(sb, label, LABEL_WIDTH);
	strbuf_putint(sb, v);
	strbuf_add(sb, "\n", 1);
}

static void
put_kb_in(struct strbuf *sb, int64_t kb, bool gib)
{
	if (kb < 0) {
		strbuf_add(sb, "?", 1);
	} else if (gib) {
		strbuf_printf(sb, "%.1f GiB", (double)kb / (1024.0 * 1024.0));
	} else {
		strbuf_putint(sb, (long long)(kb / 1024));
		strbuf_add(sb, " MiB", 4);
	}
}

/* GiB from 10 GiB up, else MiB. */
static bool
kb_in_gib(int64_t kb)
{
	return kb >= 10 * 1024 * 1024;
}

/* The most dies and cores any socket has (over its online CPUs). */
static int
shape(const struct topo *t, int *dies_per_socket, int *cores_per_socket)
{
	int i, maxd = 0, maxc = 0;

	for (i = 0; i < t->nsockets; i++) {
		struct cpuset dies = CPUSET_INIT;
		int cpu, cores = 0;

		cpuset_for_each(cpu, &t->sockets[i].cpus) {
			const struct topo_cpu *tc = &t->cpus[cpu];

			if (tc->die >= 0 &&
			    cpuset_set(&dies, (unsigned int)tc->die) < 0) {
				cpuset_free(&dies);
				return -ENOMEM;
			}
			if (tc->core == cpu)
				cores++;
		}
		if ((int)cpuset_count(&dies) > maxd)
			maxd = (int)cpuset_count(&dies);
		if (cores > maxc)
			maxc = cores;
		cpuset_free(&dies);
	}
	*dies_per_socket = maxd;
	*cores_per_socket = maxc;
	return 0;
}

/* Hybrid machines only: one line per core type, fastest first. */
static void
types(struct strbuf *sb, const struct coretypes *ct)
{
	int i;

	if (ct == NULL || !coretype_hybrid(ct))
		return;
	int_field(sb, "Core types:", ct->ntypes);
	for (i = 0; i < ct->ntypes; i++) {
		const struct coretype *ty = &ct->types[i];
		char label[40];

		snprintf(label, sizeof(label), "Type %s:", ty->name);
		strbuf_pad(sb, label, LABEL_WIDTH);
		strbuf_add(sb, "CPUs ", 5);
		cpuset_format(&ty->cpus, sb);
		strbuf_add(sb, ", ", 2);
		strbuf_putint(sb, ty->cores);
		strbuf_puts(sb, ty->cores == 1 ? " core, capacity " :
			    " cores, capacity ");
		if (ty->capacity >= 0)
			strbuf_putint(sb, ty->capacity);
		else
			strbuf_add(sb, "?", 1);
		strbuf_add(sb, "\n", 1);
	}
}

static void
nodes(struct strbuf *sb, const struct topo *t)
{
	int i, j;
	bool gib;

	int_field(sb, "NUMA nodes:", t->nnodes);
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		label_n(sb, "NUMA node ", n->id, ":");
		strbuf_add(sb, "CPUs ", 5);
		if (cpuset_empty(&n->cpus))
			strbuf_add(sb, "-", 1);
		else
			cpuset_format(&n->cpus, sb);
		/* The kernel's file where it lists offline CPUs too (as
		 * lscpu prints it): the CPUs above are the online ones. */
		if (!cpuset_empty(&n->cpulist) &&
		    !cpuset_equal(&n->cpulist, &n->cpus)) {
			strbuf_add(sb, " (cpulist ", 10);
			cpuset_format(&n->cpulist, sb);
			strbuf_add(sb, ")", 1);
		}
		/* Both in one unit, so that they compare at a glance
		 * ("16.0 GiB total, 1.0 GiB free"). */
		gib = kb_in_gib(n->mem_total_kb) || kb_in_gib(n->mem_free_kb);
		strbuf_add(sb, ", memory ", 9);
		put_kb_in(sb, n->mem_total_kb, gib);
		strbuf_add(sb, " total, ", 8);
		put_kb_in(sb, n->mem_free_kb, gib);
		strbuf_add(sb, " free\n", 6);
	}
	if (t->nnodes == 0 || t->nodes[0].distance == NULL)
		return;
	strbuf_puts(sb, "NUMA distances:\n  node");
	for (j = 0; j < t->nnodes; j++) {
		strbuf_add(sb, " ", 1);
		strbuf_putint_w(sb, t->nodes[j].id, 5);
	}
	strbuf_add(sb, "\n", 1);
	for (i = 0; i < t->nnodes; i++) {
		strbuf_putint_w(sb, t->nodes[i].id, 6);
		for (j = 0; j < t->nnodes; j++) {
			if (t->nodes[i].distance) {
				strbuf_add(sb, " ", 1);
				strbuf_putint_w(sb, t->nodes[i].distance[j], 5);
			} else {
				strbuf_add(sb, "     -", 6);
			}
		}
		strbuf_add(sb, "\n", 1);
	}
}

static void
l3s(struct strbuf *sb, const struct topo *t)
{
	int i;

	int_field(sb, "L3 groups:", t->nl3);
	for (i = 0; i < t->nl3; i++) {
		const struct topo_l3 *g = &t->l3s[i];

		label_n(sb, "L3 ", g->id, ":");
		strbuf_add(sb, "CPUs ", 5);
		cpuset_format(&g->cpus, sb);
		strbuf_add(sb, ", size ", 7);
		if (g->size_kb < 0) {
			strbuf_add(sb, "?\n", 2);
		} else if (g->size_kb % 1024 == 0) {
			strbuf_putint(sb, (long long)(g->size_kb / 1024));
			strbuf_add(sb, " MiB\n", 5);
		} else {
			strbuf_putint(sb, (long long)g->size_kb);
			strbuf_add(sb, " KiB\n", 5);
		}
	}
}

int
topo_summary(const struct topo *t, const struct coretypes *ct,
	     struct strbuf *sb)
{
	int i, dies, cores;

	list_field(sb, "Possible CPUs:", &t->possible);
	list_field(sb, "Present CPUs:", &t->present);
	list_field(sb, "Online CPUs:", &t->online);
	list_field(sb, "Offline CPUs:", &t->offline);
	list_field(sb, "Isolated CPUs:", &t->isolated);
	/* cgroup v2 partitions, when there are any. */
	if (t->part_cpus_known && !cpuset_empty(&t->part_cpus))
		list_field(sb, "Partition CPUs:", &t->part_cpus);
	if (t->part_isolated_known && !cpuset_empty(&t->part_isolated))
		list_field(sb, "Isolated (partitions):", &t->part_isolated);
	if (shape(t, &dies, &cores) < 0) {
		sb->oom = true;
		return -ENOMEM;
	}
	int_field(sb, "Sockets:", t->nsockets);
	int_field(sb, "Dies per socket:", dies);
	int_field(sb, "Cores per socket:", cores);
	int_field(sb, "Threads per core:", t->threads_per_core);
	types(sb, ct);
	for (i = 0; i < t->nsockets; i++) {
		label_n(sb, "Socket ", t->sockets[i].id, " CPUs:");
		if (cpuset_empty(&t->sockets[i].cpus))
			strbuf_add(sb, "-", 1);
		else
			cpuset_format(&t->sockets[i].cpus, sb);
		strbuf_add(sb, "\n", 1);
	}
	nodes(sb, t);
	l3s(sb, t);
	list_field(sb, "Allowed CPUs:", &t->allowed);
	strbuf_pad(sb, "CPU limit:", LABEL_WIDTH);
	if (t->cpu_limit >= 0)
		strbuf_printf(sb, "%.2f CPUs\n", t->cpu_limit);
	else
		strbuf_add(sb, "none\n", 5);
	return sb->oom ? -ENOMEM : 0;
}

/* ---- --json ---- */

static void
json_id(struct json *j, const char *key, int v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_int(j, v);
}

static void
json_list(struct json *j, const char *key, const struct cpuset *s)
{
	json_key(j, key);
	json_cpulist(j, s);
}

/* A cpulist field, or null when not known. */
static void
json_list_known(struct json *j, const char *key, const struct cpuset *s,
		bool known)
{
	if (known) {
		json_list(j, key, s);
	} else {
		json_key(j, key);
		json_null(j);
	}
}

static void
json_nodes(struct json *j, const struct topo *t)
{
	int i, k;

	json_key(j, "nodes");
	json_arr_begin(j);
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		json_obj_begin(j);
		json_id(j, "node", n->id);
		json_list(j, "cpus", &n->cpus);
		json_list(j, "cpulist", &n->cpulist);
		json_key(j, "memory_total_kb");
		if (n->mem_total_kb >= 0)
			json_int(j, n->mem_total_kb);
		else
			json_null(j);
		json_key(j, "memory_free_kb");
		if (n->mem_free_kb >= 0)
			json_int(j, n->mem_free_kb);
		else
			json_null(j);
		json_key(j, "distances");
		if (n->distance) {
			json_arr_begin(j);
			for (k = 0; k < t->nnodes; k++)
				json_int(j, n->distance[k]);
			json_arr_end(j);
		} else {
			json_null(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void
json_sockets_l3(struct json *j, const struct topo *t)
{
	int i;

	json_key(j, "sockets");
	json_arr_begin(j);
	for (i = 0; i < t->nsockets; i++) {
		json_obj_begin(j);
		json_id(j, "socket", t->sockets[i].id);
		json_list(j, "cpus", &t->sockets[i].cpus);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "l3");
	json_arr_begin(j);
	for (i = 0; i < t->nl3; i++) {
		json_obj_begin(j);
		json_id(j, "id", t->l3s[i].id);
		json_list(j, "cpus", &t->l3s[i].cpus);
		json_key(j, "size_kb");
		if (t->l3s[i].size_kb >= 0)
			json_int(j, t->l3s[i].size_kb);
		else
			json_null(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void
json_core_types(struct json *j, const struct coretypes *ct)
{
	int i;

	json_key(j, "core_types");
	json_arr_begin(j);
	for (i = 0; i < ct->ntypes; i++) {
		json_obj_begin(j);
		json_key(j, "core_type");
		json_str(j, ct->types[i].name);
		json_list(j, "cpus", &ct->types[i].cpus);
		json_key(j, "cores");
		json_int(j, ct->types[i].cores);
		json_id(j, "capacity", ct->types[i].capacity);
		json_obj_end(j);
	}
	json_arr_end(j);
}

int
topo_json(const struct topo *t, const struct coretypes *ct,
	  const struct table *cpus, struct json *j)
{
	json_obj_begin(j);
	topo_json_members(t, ct, cpus, j);
	json_obj_end(j);
	return j->sb->oom ? -ENOMEM : 0;
}

void
topo_json_members(const struct topo *t, const struct coretypes *ct,
		  const struct table *cpus, struct json *j)
{
	json_list(j, "possible", &t->possible);
	json_list(j, "present", &t->present);
	json_list(j, "online", &t->online);
	json_list(j, "offline", &t->offline);
	json_list(j, "isolated", &t->isolated);
	json_list(j, "allowed", &t->allowed);
	json_list_known(j, "partition_cpus", &t->part_cpus,
			t->part_cpus_known);
	json_list_known(j, "partition_isolated", &t->part_isolated,
			t->part_isolated_known);
	json_key(j, "threads_per_core");
	json_int(j, t->threads_per_core);
	json_key(j, "cpu_limit");
	if (t->cpu_limit >= 0)
		json_double(j, t->cpu_limit, 3);
	else
		json_null(j);
	json_key(j, "cpus");
	table_json(cpus, j);
	json_nodes(j, t);
	json_sockets_l3(j, t);
	if (ct && coretype_hybrid(ct))
		json_core_types(j, ct);
}
