// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "view/topotable.h"

enum { C_CPU, C_NODE, C_SOCKET, C_DIE, C_CORE, C_L3, C_ONLINE, C_TYPE,
       C_CAPACITY, C_SIBLINGS, C_PART, C_L1D, C_L1I, C_L2, C_CACHE, C_NCOLS };

const struct table_column topo_cpu_columns[] = {
	[C_CPU] = { "CPU", "cpu", TABLE_RIGHT, 0 },
	[C_NODE] = { "NODE", "node", TABLE_RIGHT, 0 },
	[C_SOCKET] = { "SOCKET", "socket", TABLE_RIGHT, 0 },
	[C_DIE] = { "DIE", "die", TABLE_RIGHT, 0 },
	[C_CORE] = { "CORE", "core", TABLE_RIGHT, 0 },
	[C_L3] = { "L3", "l3", TABLE_RIGHT, 0 },
	[C_ONLINE] = { "ONLINE", "online", TABLE_RIGHT, 0 },
	/* As wide as "performance", the longest name, on every machine. */
	[C_TYPE] = { "TYPE", "core_type", TABLE_RIGHT, 11 },
	[C_CAPACITY] = { "CAPACITY", "capacity", TABLE_RIGHT, 0 },
	[C_SIBLINGS] = { "SIBLINGS", "siblings", 0, 0 },
	[C_PART] = { "PART", "part", TABLE_RIGHT, 0 },
	/* Cache ids, filled by cache_cpu_cells() (cache.h) when shown. */
	[C_L1D] = { "L1d", "l1d", TABLE_RIGHT, 0 },
	[C_L1I] = { "L1i", "l1i", TABLE_RIGHT, 0 },
	[C_L2] = { "L2", "l2", TABLE_RIGHT, 0 },
	[C_CACHE] = { "CACHE", "cache", 0, 0 },
};

const size_t topo_cpu_ncolumns = C_NCOLS;

const char *
topo_cpu_default_columns(bool hybrid, bool json)
{
	if (json)
		return hybrid ?
		       "CPU,ONLINE,NODE,SOCKET,DIE,CORE,L3,SIBLINGS,TYPE,CAPACITY" :
		       "CPU,ONLINE,NODE,SOCKET,DIE,CORE,L3,SIBLINGS";
	return hybrid ? "CPU,NODE,SOCKET,DIE,CORE,L3,ONLINE,TYPE,CAPACITY" :
			"CPU,NODE,SOCKET,DIE,CORE,L3,ONLINE";
}

const char *
topo_cpu_columns_for(const struct coretypes *ct, bool json)
{
	bool hybrid = ct && coretype_hybrid(ct);

	/* The part where cpuinfo names one and types are more than one. */
	if (hybrid && ct->part)
		return json ?
		       "CPU,ONLINE,NODE,SOCKET,DIE,CORE,L3,SIBLINGS,TYPE,CAPACITY,PART" :
		       "CPU,NODE,SOCKET,DIE,CORE,L3,ONLINE,TYPE,CAPACITY,PART";
	return topo_cpu_default_columns(hybrid, json);
}

/*
 * The SMT siblings of cpu's core as a cpulist in sb, from the core's
 * thread chain: no set as wide as the machine per row.  Returns 0 or
 * -ENOMEM.
 */
static int
siblings_list(const struct topo *t, int cpu, struct strbuf *sb)
{
	int c = t->cpus[cpu].core;

	sb->len = 0;
	for (; c >= 0 && t->cpus[c].next_thread >= 0; c = t->cpus[c].next_thread)
		if (t->cpus[c].next_thread <= c) {
			/* Not ascending (not as topo_load() makes it). */
			struct cpuset s = CPUSET_INIT;

			if (topo_siblings(t, cpu, &s) < 0)
				return -ENOMEM;
			cpuset_format(&s, sb);
			cpuset_free(&s);
			strbuf_add(sb, "", 0);
			return sb->oom ? -ENOMEM : 0;
		}
	c = t->cpus[cpu].core;
	while (c >= 0) {
		int e = c;

		while (t->cpus[e].next_thread == e + 1)
			e++;
		if (sb->len)
			strbuf_add(sb, ",", 1);
		strbuf_putint(sb, c);
		if (e != c) {
			strbuf_add(sb, "-", 1);
			strbuf_putint(sb, e);
		}
		c = t->cpus[e].next_thread;
	}
	strbuf_add(sb, "", 0);
	return sb->oom ? -ENOMEM : 0;
}

int
topo_cpu_table(const struct topo *t, const struct coretypes *ct,
	       struct table *tab)
{
	struct strbuf sib;
	char err[256];
	int cpu, r;

	strbuf_init(&sib);
	table_init(tab, topo_cpu_columns, C_NCOLS, " ");
	table_select(tab, topo_cpu_columns_for(ct, false), err, sizeof(err));
	cpuset_for_each(cpu, &t->possible) {
		const struct topo_cpu *tc = &t->cpus[cpu];
		size_t row;

		if ((r = table_add_row(tab)) < 0)
			goto fail;
		row = (size_t)r;
		table_set_int(tab, row, C_CPU, cpu);
		table_set_id(tab, row, C_NODE, tc->node);
		table_set_id(tab, row, C_SOCKET, tc->socket);
		table_set_id(tab, row, C_DIE, tc->die);
		table_set_id(tab, row, C_CORE, tc->core);
		table_set_id(tab, row, C_L3, tc->l3 >= 0 ? t->l3s[tc->l3].id : -1);
		table_set_bool(tab, row, C_ONLINE, tc->online);
		if (ct && cpu < ct->ncpus) {
			int ty = ct->type[cpu];

			/* One type is no information: "-". */
			if (coretype_hybrid(ct) && ty >= 0)
				table_set_str(tab, row, C_TYPE,
					      ct->types[ty].name);
			table_set_id(tab, row, C_CAPACITY, ct->capacity[cpu]);
			if (ct->part && ct->part[cpu] >= 0) {
				char hex[8];

				snprintf(hex, sizeof(hex), "0x%03x",
					 (unsigned int)ct->part[cpu] & 0xfff);
				table_set_str(tab, row, C_PART, hex);
			}
		}
		if (tc->core >= 0) {
			if (siblings_list(t, cpu, &sib) < 0)
				goto fail;
			table_set_str(tab, row, C_SIBLINGS, sib.buf);
		}
		if (tab->oom)
			goto fail;
	}
	strbuf_free(&sib);
	return 0;
fail:
	strbuf_free(&sib);
	table_free(tab);
	return -ENOMEM;
}
