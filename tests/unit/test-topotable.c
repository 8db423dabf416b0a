// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-CPU table of cpm-topo -e and of the JSON "cpus" array. */
#include <string.h>

#include "machine/coretype.h"
#include "machine.h"
#include "base/strbuf.h"
#include "view/topotable.h"
#include "unit.h"

/*
 * Two core types, an offline CPU, and CPU and L3 ids wider than their
 * headers: the columns must still line up.  The tree is an x86 kernel's
 * (hybrid PMUs): the offline CPU is in no node's cpulist, so has no node.
 */
static const char spec[] =
	"node 0\nnode 1\n"
	"cpu 0 core=0 socket=0 node=0 l3=0 capacity=1024 pmu=core\n"
	"cpu 1 core=1 socket=0 node=0 l3=0 capacity=1024 pmu=core\n"
	"cpu 2 core=0 socket=0 node=0 l3=0 online=0 pmu=core\n"
	"cpu 1000 core=2 socket=1 node=1 l3=100 capacity=512 pmu=atom\n"
	"cpu 1001 core=2 socket=1 node=1 l3=100 capacity=512 pmu=atom\n";

static char *
print(struct table *tab, enum table_format fmt)
{
	struct strbuf sb;

	strbuf_init(&sb);
	table_print(tab, fmt, true, &sb);
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

int
main(void)
{
	struct topo t;
	struct coretypes ct;
	struct sysroot root;
	struct table tab;
	struct strbuf sb;
	struct json j;
	char path[256], err[256], *s;

	unit_machine(spec, 0, &t, NULL);
	snprintf(path, sizeof(path), "%s/root", unit_tmp);
	if (sysroot_open(&root, path) < 0 ||
	    coretype_load(&ct, &root, &t, err, sizeof(err)) < 0) {
		printf("not ok - cannot load the core types\n");
		return 1;
	}
	CHECK("the machine has two core types", coretype_hybrid(&ct));
	CHECK("the table builds", topo_cpu_table(&t, &ct, &tab) == 0);
	table_select(&tab, topo_cpu_default_columns(true, false), err,
		     sizeof(err));
	s = print(&tab, TABLE_ALIGNED);
	CHECK_STR("-e: every column lines up past CPU 999 and L3 99", s,
		  " CPU NODE SOCKET DIE CORE  L3 ONLINE        TYPE CAPACITY\n"
		  "   0    0      0   0    0   0    yes performance     1024\n"
		  "   1    0      0   0    1   0    yes performance     1024\n"
		  "   2    -      -   -    -   -     no performance        -\n"
		  "1000    1      1   0 1000 100    yes  efficiency      512\n"
		  "1001    1      1   0 1000 100    yes  efficiency      512\n");
	free(s);
	CHECK("the uniform default has no type columns",
	      strcmp(topo_cpu_default_columns(false, false),
		     "CPU,NODE,SOCKET,DIE,CORE,L3,ONLINE") == 0);

	table_select(&tab, "cpu,siblings,core", err, sizeof(err));
	s = print(&tab, TABLE_RAW);
	CHECK_STR("SIBLINGS is the core's SMT siblings; offline: -", s,
		  "CPU SIBLINGS CORE\n0 0 0\n1 1 1\n2 - -\n"
		  "1000 1000-1001 1000\n1001 1000-1001 1000\n");
	free(s);

	table_select(&tab, topo_cpu_default_columns(true, true), err,
		     sizeof(err));
	strbuf_init(&sb);
	json_init(&j, &sb);
	table_json(&tab, &j);
	strbuf_add(&sb, "", 1);
	s = "[{\"cpu\":0,\"online\":true,\"node\":0,\"socket\":0,\"die\":0,"
	    "\"core\":0,\"l3\":0,\"siblings\":\"0\",\"core_type\":\"performance\","
	    "\"capacity\":1024},";
	CHECK("JSON keys are the contract's, in its order",
	      strncmp(sb.buf, s, strlen(s)) == 0);
	CHECK("an offline CPU has nulls where nothing is known",
	      strstr(sb.buf, "{\"cpu\":2,\"online\":false,\"node\":null,"
		     "\"socket\":null,\"die\":null,\"core\":null,\"l3\":null,"
		     "\"siblings\":null,") != NULL);
	if (unit_failed)
		printf("# %s\n", sb.buf);
	strbuf_free(&sb);
	table_free(&tab);

	CHECK("without core types the table still builds",
	      topo_cpu_table(&t, NULL, &tab) == 0 && tab.nrows == 5);
	table_select(&tab, "type,capacity", err, sizeof(err));
	s = print(&tab, TABLE_RAW);
	CHECK_STR("... with '-' for TYPE and CAPACITY", s,
		  "TYPE CAPACITY\n- -\n- -\n- -\n- -\n- -\n");
	free(s);
	table_free(&tab);

	coretype_free(&ct);
	topo_free(&t);
	sysroot_close(&root);
	unit_machine_remove();
	return unit_failed;
}
