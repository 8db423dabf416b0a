// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc.h"
#include "alloc/alloctable.h"
#include "base/strbuf.h"

enum { C_NAME, C_MODE, C_COUNT, C_CPUS, C_NODES, C_MEMORY, C_OWNER,
       C_OPTIONS, C_DEVICES, C_CONTAINER, C_HUGEPAGES, C_NCOLS };

const struct table_column alloc_columns[] = {
	[C_NAME] = { "NAME", "name", 0, 0 },
	[C_MODE] = { "MODE", "mode", 0, 0 },
	[C_COUNT] = { "COUNT", "count", TABLE_RIGHT, 0 },
	[C_CPUS] = { "CPUS", "cpus", 0, 0 },
	[C_NODES] = { "NODES", "nodes", 0, 0 },
	[C_MEMORY] = { "MEMORY", "memory", 0, 0 },
	[C_OWNER] = { "OWNER", "owner", 0, 0 },
	[C_OPTIONS] = { "OPTIONS", "options", 0, 0 },
	[C_DEVICES] = { "DEVICES", "devices", 0, 0 },
	[C_CONTAINER] = { "CONTAINER", "container", 0, 0 },
	[C_HUGEPAGES] = { "HUGEPAGES", "hugepages", 0, 0 },
};

const size_t alloc_ncolumns = C_NCOLS;

const char *
alloc_default_columns(const struct alloc_state *st, bool json)
{
	bool cname = false, huge = false;
	int i;

	for (i = 0; st && i < st->nentries; i++) {
		cname |= st->entries[i].cname != NULL;
		huge |= st->entries[i].nhuge > 0;
	}
	if (json && huge)
		return "NAME,MODE,COUNT,CPUS,NODES,OWNER,MEMORY,OPTIONS,"
		       "DEVICES,CONTAINER,HUGEPAGES";
	if (json)
		return "NAME,MODE,COUNT,CPUS,NODES,OWNER,MEMORY,OPTIONS,"
		       "DEVICES,CONTAINER";
	if (cname && huge)
		return "NAME,MODE,COUNT,CPUS,NODES,MEMORY,HUGEPAGES,OWNER,"
		       "CONTAINER";
	if (huge)
		return "NAME,MODE,COUNT,CPUS,NODES,MEMORY,HUGEPAGES,OWNER";
	if (cname)
		return "NAME,MODE,COUNT,CPUS,NODES,MEMORY,OWNER,CONTAINER";
	return "NAME,MODE,COUNT,CPUS,NODES,MEMORY,OWNER";
}

/* A cpulist: "-" when empty in text, "" in JSON. */
static int
set_list(struct table *tab, size_t row, size_t col, const struct cpuset *s)
{
	char *l = cpuset_to_list(s);
	struct strbuf q;

	if (l == NULL)
		return -ENOMEM;
	strbuf_init(&q);
	json_quote(&q, l);
	if (!q.oom)
		table_set(tab, row, col, *l ? l : "-", q.buf);
	strbuf_free(&q);
	free(l);
	return q.oom ? -ENOMEM : 0;
}

/* Booked memory: "0:6G,1:2G" (nodes with bytes) and the whole array. */
static void
set_memory(struct table *tab, size_t row, const struct alloc_entry *e)
{
	struct strbuf text, js;
	struct json j;
	int k, shown = 0;

	strbuf_init(&text);
	strbuf_init(&js);
	json_init(&j, &js);
	json_arr_begin(&j);
	for (k = 0; k < e->nmem; k++) {
		json_obj_begin(&j);
		json_key(&j, "node");
		json_int(&j, e->mem[k].node);
		json_key(&j, "bytes");
		json_uint(&j, e->mem[k].bytes);
		json_obj_end(&j);
		if (!e->mem[k].bytes)
			continue;
		strbuf_printf(&text, "%s%d:", shown++ ? "," : "", e->mem[k].node);
		alloc_size_format(&text, e->mem[k].bytes);
	}
	json_arr_end(&j);
	if (text.oom || js.oom)
		tab->oom = true;
	else
		table_set(tab, row, C_MEMORY, shown ? text.buf : NULL, js.buf);
	strbuf_free(&text);
	strbuf_free(&js);
}

/*
 * Booked huge pages: "1Gi/0:2G,2Mi/1:4M" (size/node:amount, nodes with
 * bytes) and an array of {resource, node, bytes}.
 */
static void
set_hugepages(struct table *tab, size_t row, const struct alloc_entry *e)
{
	struct strbuf text, js;
	struct json j;
	int k, shown = 0;

	strbuf_init(&text);
	strbuf_init(&js);
	json_init(&j, &js);
	json_arr_begin(&j);
	for (k = 0; k < e->nhuge; k++) {
		char name[64];

		alloc_huge_name(e->huge[k].kb, name, sizeof(name));
		json_obj_begin(&j);
		json_key(&j, "resource");
		json_str(&j, name);
		json_key(&j, "node");
		json_int(&j, e->huge[k].node);
		json_key(&j, "bytes");
		json_uint(&j, e->huge[k].bytes);
		json_obj_end(&j);
		if (!e->huge[k].bytes)
			continue;
		strbuf_puts(&text, shown++ ? "," : "");
		alloc_qty_format(&text, (uint64_t)e->huge[k].kb * 1024);
		strbuf_printf(&text, "/%d:", e->huge[k].node);
		alloc_size_format(&text, e->huge[k].bytes);
	}
	json_arr_end(&j);
	if (text.oom || js.oom)
		tab->oom = true;
	else
		table_set(tab, row, C_HUGEPAGES, shown ? text.buf : NULL,
			  js.buf);
	strbuf_free(&text);
	strbuf_free(&js);
}

/*
 * The devices an entry was taken beside ("eth1@0000:3b:00.0,..."): their
 * names ("eth1,nvme0") and a JSON array of {name, address}.
 */
static void
set_devices(struct table *tab, size_t row, const struct alloc_entry *e)
{
	struct strbuf text, js;
	const char *p = e->near;
	struct json j;
	char buf[512];

	strbuf_init(&text);
	strbuf_init(&js);
	json_init(&j, &js);
	json_arr_begin(&j);
	while (p && *p) {
		size_t len = strcspn(p, ","), at;

		for (at = len; at > 0 && p[at - 1] != '@'; at--)
			;
		if (at > 0 && at - 1 < sizeof(buf) && len - at < sizeof(buf)) {
			json_obj_begin(&j);
			snprintf(buf, sizeof(buf), "%.*s", (int)(at - 1), p);
			json_key(&j, "name");
			json_str(&j, buf);
			strbuf_printf(&text, "%s%s", text.len ? "," : "", buf);
			snprintf(buf, sizeof(buf), "%.*s", (int)(len - at),
				 p + at);
			json_key(&j, "address");
			json_str(&j, buf);
			json_obj_end(&j);
		}
		p += len;
		if (*p)
			p++;
	}
	json_arr_end(&j);
	if (text.oom || js.oom)
		tab->oom = true;
	else
		table_set(tab, row, C_DEVICES, text.len ? text.buf : NULL,
			  js.buf);
	strbuf_free(&text);
	strbuf_free(&js);
}

/* The length of the run of hexadecimal digits at s. */
static size_t
hex_run(const char *s)
{
	size_t n = 0;

	while ((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))
		n++;
	return n;
}

/*
 * s with every container id in it (a run of exactly 64 lower-case
 * hexadecimal digits) cut to its first 12, into sb; false when s holds
 * none.
 */
static bool
short_ids(struct strbuf *sb, const char *s)
{
	bool cut = false;
	size_t n;

	while (*s) {
		n = hex_run(s);
		if (n == 0) {
			strbuf_add(sb, s++, 1);
			continue;
		}
		cut |= n == 64;
		strbuf_add(sb, s, n == 64 ? 12 : n);
		s += n;
	}
	return cut;
}

/* Cell col of row as short_ids() gives text, its JSON value whole. */
static void
set_short(struct table *tab, size_t row, size_t col, const char *s)
{
	struct strbuf text, q;

	if (s == NULL)
		return;
	strbuf_init(&text);
	strbuf_init(&q);
	if (short_ids(&text, s)) {
		json_quote(&q, s);
		if (text.oom || q.oom)
			tab->oom = true;
		else
			table_set(tab, row, col, text.buf, q.buf);
	}
	strbuf_free(&text);
	strbuf_free(&q);
}

int
alloc_list_short_ids(const struct alloc_state *st, struct table *tab)
{
	int i;

	for (i = 0; i < st->nentries && (size_t)i < tab->nrows; i++) {
		set_short(tab, (size_t)i, C_NAME, st->entries[i].name);
		set_short(tab, (size_t)i, C_OWNER, st->entries[i].owner);
	}
	return tab->oom ? -ENOMEM : 0;
}

int
alloc_list_table(const struct topo *t, const struct alloc_state *st,
		 struct table *tab)
{
	struct cpuset nodes = CPUSET_INIT;
	char err[256];
	int i, r;

	table_init(tab, alloc_columns, C_NCOLS, " ");
	table_select(tab, alloc_default_columns(NULL, false), err,
		     sizeof(err));
	for (i = 0; i < st->nentries; i++) {
		const struct alloc_entry *e = &st->entries[i];
		struct strbuf opts, q;
		size_t row;

		if ((r = table_add_row(tab)) < 0)
			goto fail;
		row = (size_t)r;
		table_set_str(tab, row, C_NAME, e->name);
		table_set_str(tab, row, C_MODE, e->mode == ALLOC_SHARE ?
			      "share" : "exclusive");
		table_set_int(tab, row, C_COUNT, e->n);
		if (set_list(tab, row, C_CPUS, &e->cpus) < 0 ||
		    alloc_entry_nodes(t, e, &nodes) < 0 ||
		    set_list(tab, row, C_NODES, &nodes) < 0)
			goto fail;
		set_memory(tab, row, e);
		set_hugepages(tab, row, e);
		set_devices(tab, row, e);
		table_set_str(tab, row, C_OWNER, e->owner);
		table_set_str(tab, row, C_CONTAINER, e->cname);
		strbuf_init(&opts);
		strbuf_init(&q);
		alloc_opts_format(&e->opts, &opts);
		json_quote(&q, opts.buf ? opts.buf : "");
		if (opts.oom || q.oom)
			tab->oom = true;
		else
			table_set(tab, row, C_OPTIONS,
				  opts.len ? opts.buf : NULL, q.buf);
		strbuf_free(&opts);
		strbuf_free(&q);
		if (tab->oom)
			goto fail;
	}
	cpuset_free(&nodes);
	return 0;
fail:
	cpuset_free(&nodes);
	table_free(tab);
	return -ENOMEM;
}

/* key: the cpulist of s, as a string. */
static void
json_cpus(struct json *j, const char *key, const struct cpuset *s)
{
	json_key(j, key);
	json_cpulist(j, s);
}

int
alloc_list_json(const struct topo *t, const struct alloc_state *st,
		const struct table *tab, struct json *j)
{
	struct cpuset s = CPUSET_INIT;

	json_obj_begin(j);
	json_cpus(j, "reserved", &st->reserved);
	json_key(j, "strict_reserved");
	json_bool(j, st->strict);
	state_shared(st, &t->online, &s);
	json_cpus(j, "shared", &s);
	state_available(st, &t->online, NULL, &s);
	json_cpus(j, "available", &s);
	json_key(j, "entries");
	table_json(tab, j);
	json_obj_end(j);
	cpuset_free(&s);
	return j->sb->oom ? -ENOMEM : 0;
}
