// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of cpm-alloc list: text and JSON of each column. */
#include <string.h>

#include "alloc/alloctable.h"
#include "machine.h"
#include "base/strbuf.h"
#include "unit.h"

#define ID64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static const char spec[] =
	"node 0\nnode 1\n"
	"cpu 0 core=0 socket=0 node=0 l3=0\n"
	"cpu 1 core=1 socket=0 node=0 l3=0\n"
	"cpu 2 core=0 socket=1 node=1 l3=1\n"
	"cpu 3 core=1 socket=1 node=1 l3=1\n";

static char *
text(struct table *tab)
{
	struct strbuf sb;

	strbuf_init(&sb);
	table_print(tab, TABLE_RAW, true, &sb);
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

int
main(void)
{
	struct mem_booking mem[2] = { { 0, 0 }, { 1, 2ULL << 30 } };
	struct alloc_entry e[2];
	struct alloc_state st;
	struct topo t;
	struct table tab;
	struct strbuf sb;
	struct json j;
	char err[256], *s;

	unit_machine(spec, 0, &t, NULL);
	memset(&st, 0, sizeof(st));
	memset(e, 0, sizeof(e));
	e[0].name = "db";
	e[0].n = 2;
	cpuset_parse_list("2-3", &e[0].cpus, err, sizeof(err));
	e[0].owner = "cgroup:a b";
	e[0].nmem = 2;
	e[0].mem = mem;
	e[0].opts.k.spread_cores = true;
	e[0].near = (char *)"eth1@0000:3b:00.0,nvme0@0000:5e:00.0";
	e[1].name = "none";
	e[1].mode = ALLOC_SHARE;
	st.entries = e;
	st.nentries = 2;

	CHECK("the table builds", alloc_list_table(&t, &st, &tab) == 0);
	s = text(&tab);
	CHECK_STR("list: '-' for empty sets, memory of booked nodes, escaped spaces",
		  s, "NAME MODE COUNT CPUS NODES MEMORY OWNER\n"
		  "db exclusive 2 2-3 1 1:2G cgroup:a\\x20b\n"
		  "none share 0 - - - -\n");
	free(s);
	table_select(&tab, "options,name", err, sizeof(err));
	s = text(&tab);
	CHECK_STR("OPTIONS: the recorded placement options", s,
		  "OPTIONS NAME\nspread-cores db\n- none\n");
	free(s);
	table_select(&tab, "devices,name", err, sizeof(err));
	s = text(&tab);
	CHECK_STR("DEVICES: the names of the devices of --near", s,
		  "DEVICES NAME\neth1,nvme0 db\n- none\n");
	free(s);
	table_select(&tab, alloc_default_columns(NULL, true), err, sizeof(err));
	strbuf_init(&sb);
	json_init(&j, &sb);
	table_json(&tab, &j);
	strbuf_add(&sb, "", 1);
	CHECK_STR("JSON: every booking, \"\" for empty sets, null owner", sb.buf,
		  "[{\"name\":\"db\",\"mode\":\"exclusive\",\"count\":2,"
		  "\"cpus\":\"2-3\",\"nodes\":\"1\",\"owner\":\"cgroup:a b\","
		  "\"memory\":[{\"node\":0,\"bytes\":0},{\"node\":1,\"bytes\":2147483648}],"
		  "\"options\":\"spread-cores\",\"devices\":["
		  "{\"name\":\"eth1\",\"address\":\"0000:3b:00.0\"},"
		  "{\"name\":\"nvme0\",\"address\":\"0000:5e:00.0\"}],"
		  "\"container\":null},"
		  "{\"name\":\"none\",\"mode\":\"share\",\"count\":0,\"cpus\":\"\","
		  "\"nodes\":\"\",\"owner\":null,\"memory\":[],\"options\":\"\","
		  "\"devices\":[],\"container\":null}]");
	strbuf_free(&sb);

	cpuset_parse_list("0", &st.reserved, err, sizeof(err));
	st.strict = true;
	table_select(&tab, "name", err, sizeof(err));
	strbuf_init(&sb);
	json_init(&j, &sb);
	CHECK("list --json builds", alloc_list_json(&t, &st, &tab, &j) == 0);
	strbuf_add(&sb, "", 1);
	CHECK_STR("list --json: the pools of the state, then the entries",
		  sb.buf, "{\"reserved\":\"0\",\"strict_reserved\":true,"
		  "\"shared\":\"1\",\"available\":\"1\",\"entries\":"
		  "[{\"name\":\"db\"},{\"name\":\"none\"}]}");
	strbuf_free(&sb);
	table_free(&tab);

	/* A container's row as a person reads it, and whole for scripts. */
	e[1].name = (char *)ID64;
	e[1].owner = (char *)"cgroup:machine.slice/libpod-" ID64 ".scope";
	e[0].name = (char *)"abc" ID64;	/* 67 digits: no container id */
	CHECK("the table builds again", alloc_list_table(&t, &st, &tab) == 0);
	CHECK("container ids cut short", alloc_list_short_ids(&st, &tab) == 0);
	table_select(&tab, "name,owner", err, sizeof(err));
	s = text(&tab);
	CHECK_STR("list: a container's id and group as podman shows them", s,
		  "NAME OWNER\nabc" ID64 " cgroup:a\\x20b\n"
		  "0123456789ab cgroup:machine.slice/libpod-0123456789ab.scope\n");
	free(s);
	strbuf_init(&sb);
	json_init(&j, &sb);
	table_json(&tab, &j);
	strbuf_add(&sb, "", 1);
	CHECK("list: their JSON values stay whole",
	      strstr(sb.buf, "\"name\":\"" ID64 "\",\"owner\":\"cgroup:"
		     "machine.slice/libpod-" ID64 ".scope\"") != NULL);
	strbuf_free(&sb);
	table_free(&tab);

	/* The container's name: a column of the text only when one has. */
	CHECK_STR("the text has no CONTAINER column when none has a name",
		  alloc_default_columns(&st, false),
		  "NAME,MODE,COUNT,CPUS,NODES,MEMORY,OWNER");
	e[1].cname = (char *)"web-7d9f/nginx";
	CHECK_STR("... and has one when an entry has",
		  alloc_default_columns(&st, false),
		  "NAME,MODE,COUNT,CPUS,NODES,MEMORY,OWNER,CONTAINER");
	CHECK("the table builds with a name", alloc_list_table(&t, &st, &tab) == 0);
	table_select(&tab, "name,container", err, sizeof(err));
	s = text(&tab);
	CHECK_STR("CONTAINER: the container's name, '-' when none", s,
		  "NAME CONTAINER\nabc" ID64 " -\n" ID64 " web-7d9f/nginx\n");
	free(s);
	table_free(&tab);
	cpuset_free(&st.reserved);
	cpuset_free(&e[0].cpus);
	topo_free(&t);
	unit_machine_remove();
	return unit_failed;
}
