// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "view/memtable.h"

#define LABEL_WIDTH 22

enum { C_NODE, C_CPUS, C_TIER, C_MEMORY, C_FREE, C_READ_BW, C_WRITE_BW,
       C_READ_LAT, C_WRITE_LAT, C_INITIATORS, C_CLASS, C_CACHE, C_WEIGHT,
       C_NCOLS };

static const struct table_column columns[] = {
	[C_NODE] = { "NODE", "node", TABLE_RIGHT, 0 },
	[C_CPUS] = { "CPUS", "cpus", 0, 0 },
	[C_TIER] = { "TIER", "tier", TABLE_RIGHT, 0 },
	[C_MEMORY] = { "MEMORY", "memory_mib", TABLE_RIGHT, 0 },
	[C_FREE] = { "FREE", "free_mib", TABLE_RIGHT, 0 },
	[C_READ_BW] = { "READ_BW", "read_bandwidth", TABLE_RIGHT, 0 },
	[C_WRITE_BW] = { "WRITE_BW", "write_bandwidth", TABLE_RIGHT, 0 },
	[C_READ_LAT] = { "READ_LAT", "read_latency", TABLE_RIGHT, 0 },
	[C_WRITE_LAT] = { "WRITE_LAT", "write_latency", TABLE_RIGHT, 0 },
	[C_INITIATORS] = { "INITIATORS", "initiators", 0, 0 },
	[C_CLASS] = { "CLASS", "access_class", TABLE_RIGHT, 0 },
	[C_CACHE] = { "CACHE", "memory_side_cache", 0, 0 },
	[C_WEIGHT] = { "WEIGHT", "weight", TABLE_RIGHT, 0 },
};

const char memtier_default_columns[] =
	"NODE,CPUS,TIER,MEMORY,FREE,READ_BW,WRITE_BW,READ_LAT,WRITE_LAT,"
	"INITIATORS,CACHE,WEIGHT";

/* 96G, 512M, 64K: a size in bytes, to the largest exact unit. */
static void
put_size(struct strbuf *sb, int64_t v)
{
	static const char units[] = "KMGTP";
	int u = -1;

	while (u < 4 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	strbuf_putint(sb, v);
	if (u >= 0)
		strbuf_add(sb, &units[u], 1);
}

static void
caches_text(const struct mem_node *n, struct strbuf *sb)
{
	int i;

	sb->len = 0;
	for (i = 0; i < n->ncaches; i++) {
		if (i)
			strbuf_add(sb, ",", 1);
		strbuf_printf(sb, "L%d:", n->caches[i].level);
		if (n->caches[i].size >= 0)
			put_size(sb, n->caches[i].size);
		else
			strbuf_add(sb, "?", 1);
	}
	strbuf_add(sb, "", 0);
}

static void
set_pos(struct table *tab, size_t row, size_t col, int64_t v)
{
	table_set_id(tab, row, col, v >= 0 ? v : -1);
}

int
memtier_table(const struct topo *t, const struct memtier *m,
	      const struct cpuset *nodes, struct table *tab)
{
	struct strbuf sb;
	char err[256];
	int i, r;

	strbuf_init(&sb);
	table_init(tab, columns, C_NCOLS, " ");
	table_select(tab, memtier_default_columns, err, sizeof(err));
	for (i = 0; i < m->nnodes && i < t->nnodes; i++) {
		const struct mem_node *n = &m->nodes[i];
		const struct topo_node *tn = &t->nodes[i];
		int cls = memtier_class(n);
		size_t row;

		if (nodes && !cpuset_isset(nodes, (unsigned int)n->id))
			continue;
		if ((r = table_add_row(tab)) < 0)
			goto fail;
		row = (size_t)r;
		table_set_int(tab, row, C_NODE, n->id);
		sb.len = 0;
		cpuset_format(&tn->cpus, &sb);
		strbuf_add(&sb, "", 0);
		if (sb.oom)
			goto fail;
		if (cpuset_empty(&tn->cpus))
			table_set(tab, row, C_CPUS, "-", "\"\"");
		else
			table_set_str(tab, row, C_CPUS, sb.buf);
		set_pos(tab, row, C_TIER, n->tier);
		set_pos(tab, row, C_MEMORY, tn->mem_total_kb >= 0 ?
			tn->mem_total_kb / 1024 : -1);
		set_pos(tab, row, C_FREE, tn->mem_free_kb >= 0 ?
			tn->mem_free_kb / 1024 : -1);
		if (cls >= 0) {
			const struct mem_access *a = &n->access[cls];

			set_pos(tab, row, C_READ_BW, a->read_bw);
			set_pos(tab, row, C_WRITE_BW, a->write_bw);
			set_pos(tab, row, C_READ_LAT, a->read_lat);
			set_pos(tab, row, C_WRITE_LAT, a->write_lat);
			sb.len = 0;
			cpuset_format(&a->initiators, &sb);
			strbuf_add(&sb, "", 0);
			if (sb.oom)
				goto fail;
			table_set_str(tab, row, C_INITIATORS, sb.buf);
			table_set_int(tab, row, C_CLASS, cls);
		}
		if (n->ncaches) {
			caches_text(n, &sb);
			if (sb.oom)
				goto fail;
			table_set_str(tab, row, C_CACHE, sb.buf);
		}
		set_pos(tab, row, C_WEIGHT, n->weight);
		if (tab->oom)
			goto fail;
	}
	strbuf_free(&sb);
	return 0;
fail:
	strbuf_free(&sb);
	table_free(tab);
	return -ENOMEM;
}

static void
label(struct strbuf *sb, const char *text)
{
	strbuf_pad(sb, text, LABEL_WIDTH);
}

static void
put_num(struct strbuf *sb, int64_t v, const char *unit)
{
	if (v < 0)
		strbuf_add(sb, "?", 1);
	else
		strbuf_putint(sb, v);
	strbuf_puts(sb, unit);
}

void
memtier_summary(const struct memtier *m, struct strbuf *sb)
{
	struct cpuset s = CPUSET_INIT;
	int i, k;

	if (m->ntiers) {
		label(sb, "Memory tiers:");
		for (k = 0; k < m->ntiers; k++) {
			cpuset_zero(&s);
			for (i = 0; i < m->nnodes; i++)
				if (m->nodes[i].tier == m->tier_ids[k])
					cpuset_set(&s, (unsigned int)m->nodes[i].id);
			strbuf_printf(sb, "%s%d (nodes ", k ? ", " : "",
				      m->tier_ids[k]);
			cpuset_format(&s, sb);
			strbuf_add(sb, ")", 1);
		}
		strbuf_puts(sb, m->ntiers > 1 ? ", fastest first\n" : "\n");
	}
	for (i = 0; i < m->nnodes; i++) {
		const struct mem_node *n = &m->nodes[i];
		int cls = memtier_class(n);
		char text[40];

		if (cls < 0 && n->ncaches == 0 && n->tier < 0)
			continue;
		snprintf(text, sizeof(text), "Memory node %d:", n->id);
		label(sb, text);
		strbuf_puts(sb, n->has_cpus ? "CPUs" : "no CPUs");
		if (n->tier >= 0)
			strbuf_printf(sb, ", tier %d", n->tier);
		if (cls >= 0) {
			const struct mem_access *a = &n->access[cls];

			strbuf_puts(sb, ", from nodes ");
			cpuset_format(&a->initiators, sb);
			strbuf_puts(sb, ": read ");
			put_num(sb, a->read_bw, " MB/s");
			strbuf_puts(sb, " ");
			put_num(sb, a->read_lat, " ns");
			strbuf_puts(sb, ", write ");
			put_num(sb, a->write_bw, " MB/s");
			strbuf_puts(sb, " ");
			put_num(sb, a->write_lat, " ns");
		}
		for (k = 0; k < n->ncaches; k++) {
			const struct mem_cache *c = &n->caches[k];
			const char *wp = memtier_write_policy_name(c->write_policy);

			strbuf_printf(sb, ", cache L%d ", c->level);
			if (c->size >= 0)
				put_size(sb, c->size);
			else
				strbuf_add(sb, "?", 1);
			if (wp)
				strbuf_printf(sb, " %s", wp);
		}
		strbuf_add(sb, "\n", 1);
	}
	if (m->weights_known) {
		bool any = false;

		label(sb, "Interleave weights:");
		for (i = 0; i < m->nnodes; i++)
			if (m->nodes[i].weight >= 0) {
				strbuf_printf(sb, "%s%d:%d", any ? "," : "",
					      m->nodes[i].id, m->nodes[i].weight);
				any = true;
			}
		if (!any)
			strbuf_add(sb, "-", 1);
		if (m->weights_auto >= 0)
			strbuf_puts(sb, m->weights_auto ? " (auto)" :
				    " (set by hand)");
		strbuf_add(sb, "\n", 1);
	}
	cpuset_free(&s);
}

static void
json_num(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	if (v >= 0)
		json_int(j, v);
	else
		json_null(j);
}

static void
json_access(struct json *j, const char *key, const struct mem_access *a)
{
	json_key(j, key);
	if (!a->known) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_num(j, "read_bandwidth_mbps", a->read_bw);
	json_num(j, "write_bandwidth_mbps", a->write_bw);
	json_num(j, "read_latency_ns", a->read_lat);
	json_num(j, "write_latency_ns", a->write_lat);
	json_key(j, "initiators");
	json_cpulist(j, &a->initiators);
	json_obj_end(j);
}

void
memtier_json(const struct memtier *m, const struct cpuset *nodes,
	     struct json *j)
{
	struct cpuset s = CPUSET_INIT;
	int i, k;

	json_obj_begin(j);
	json_key(j, "tiers");
	json_arr_begin(j);
	for (k = 0; k < m->ntiers; k++) {
		cpuset_zero(&s);
		for (i = 0; i < m->nnodes; i++)
			if (m->nodes[i].tier == m->tier_ids[k])
				cpuset_set(&s, (unsigned int)m->nodes[i].id);
		json_obj_begin(j);
		json_num(j, "tier", m->tier_ids[k]);
		json_key(j, "nodes");
		json_cpulist(j, &s);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "weights_auto");
	if (m->weights_auto >= 0)
		json_bool(j, m->weights_auto);
	else
		json_null(j);
	json_key(j, "nodes");
	json_arr_begin(j);
	for (i = 0; i < m->nnodes; i++) {
		const struct mem_node *n = &m->nodes[i];

		if (nodes && !cpuset_isset(nodes, (unsigned int)n->id))
			continue;
		json_obj_begin(j);
		json_num(j, "node", n->id);
		json_key(j, "has_cpus");
		json_bool(j, n->has_cpus);
		json_num(j, "tier", n->tier);
		json_access(j, "access0", &n->access[0]);
		json_access(j, "access1", &n->access[1]);
		json_key(j, "memory_side_caches");
		json_arr_begin(j);
		for (k = 0; k < n->ncaches; k++) {
			const struct mem_cache *c = &n->caches[k];

			json_obj_begin(j);
			json_num(j, "level", c->level);
			json_num(j, "size_bytes", c->size);
			json_num(j, "line_size", c->line_size);
			json_key(j, "indexing");
			json_str(j, memtier_indexing_name(c->indexing));
			json_key(j, "write_policy");
			json_str(j, memtier_write_policy_name(c->write_policy));
			json_obj_end(j);
		}
		json_arr_end(j);
		json_num(j, "weight", n->weight);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	cpuset_free(&s);
}
