// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-topo's summary: every line of a small hybrid machine with an
 * offline CPU, two nodes with distances, one of them above 10 GiB, and
 * CPU numbers of three digits.  The expected text is what cpm-topo
 * printed with printf before the summary moved here.
 */
#include <string.h>

#include "machine/coretype.h"
#include "machine.h"
#include "base/strbuf.h"
#include "view/toposum.h"
#include "view/topotable.h"
#include "unit.h"

static const char spec[] =
	"node 0 mem_kb=16777216 free_kb=1048576 distance=10,21\n"
	"node 1 mem_kb=8388608 free_kb=4194304 distance=21,10\n"
	"cpu 0 core=0 socket=0 node=0 l3=0 capacity=1024 pmu=core\n"
	"cpu 1 core=0 socket=0 node=0 l3=0 capacity=1024 pmu=core\n"
	"cpu 2 core=1 socket=0 node=0 l3=0 online=0 pmu=core\n"
	"cpu 3 core=2 socket=0 node=0 l3=0 capacity=1024 pmu=core\n"
	"cpu 100 core=0 socket=1 node=1 l3=1 capacity=512 pmu=atom\n"
	"cpu 101 core=1 socket=1 node=1 l3=1 capacity=512 pmu=atom\n";

static const char want[] =
	"Possible CPUs:        0-3,100-101\n"
	"Present CPUs:         0-3,100-101\n"
	"Online CPUs:          0-1,3,100-101\n"
	"Offline CPUs:         2\n"
	"Isolated CPUs:        -\n"
	"Sockets:              2\n"
	"Dies per socket:      1\n"
	"Cores per socket:     2\n"
	"Threads per core:     2\n"
	"Core types:           2\n"
	"Type performance:     CPUs 0-3, 2 cores, capacity 1024\n"
	"Type efficiency:      CPUs 100-101, 2 cores, capacity 512\n"
	"Socket 0 CPUs:        0-1,3\n"
	"Socket 1 CPUs:        100-101\n"
	"NUMA nodes:           2\n"
	"NUMA node 0:          CPUs 0-1,3, memory 16.0 GiB total, 1.0 GiB free\n"
	"NUMA node 1:          CPUs 100-101, memory 8192 MiB total, 4096 MiB free\n"
	"NUMA distances:\n"
	"  node     0     1\n"
	"     0    10    21\n"
	"     1    21    10\n"
	"L3 groups:            2\n"
	"L3 0:                 CPUs 0-1,3, size 32 MiB\n"
	"L3 1:                 CPUs 100-101, size 32 MiB\n"
	"Allowed CPUs:         0-1,3,100-101\n"
	"CPU limit:            none\n";

int
main(void)
{
	struct topo t;
	struct coretypes ct;
	struct sysroot root;
	struct strbuf sb;
	char path[256], err[256];

	unit_machine(spec, TOPO_PROCESS, &t, NULL);
	snprintf(path, sizeof(path), "%s/root", unit_tmp);
	if (sysroot_open(&root, path) < 0 ||
	    coretype_load(&ct, &root, &t, err, sizeof(err)) < 0) {
		printf("not ok - cannot load the core types\n");
		return 1;
	}
	strbuf_init(&sb);
	CHECK("the summary builds", topo_summary(&t, &ct, &sb) == 0);
	CHECK_STR("every line as cpm-topo prints it", sb.buf, want);
	strbuf_free(&sb);

	/* The --json document, with a one-column CPU table. */
	{
		struct table tab;
		struct json j;
		char terr[128];

		strbuf_init(&sb);
		json_init(&j, &sb);
		CHECK("the CPU table builds",
		      topo_cpu_table(&t, &ct, &tab) == 0 &&
		      table_select(&tab, "CPU", terr, sizeof(terr)) == 0);
		CHECK("the document builds", topo_json(&t, &ct, &tab, &j) == 0 &&
		      json_error(&j) == 0);
		strbuf_add(&sb, "", 1);
		{
			static const char head[] =
			    "{\"possible\":\"0-3,100-101\",\"present\":\"0-3,100-101\","
			    "\"online\":\"0-1,3,100-101\",\"offline\":\"2\","
			    "\"isolated\":\"\",\"allowed\":\"0-1,3,100-101\",";

			CHECK("the document opens with the CPU lists",
			      strncmp(sb.buf, head, sizeof(head) - 1) == 0);
		}
		CHECK("a node with its CPUs, memory and distances",
		      strstr(sb.buf, "{\"node\":1,\"cpus\":\"100-101\","
			     "\"cpulist\":\"100-101\",\"memory_total_kb\":8388608,\"memory_free_kb\":"
			     "4194304,\"distances\":[21,10]}") != NULL);
		CHECK("the L3 groups", strstr(sb.buf, "\"l3\":[{\"id\":0,"
					      "\"cpus\":\"0-1,3\",") != NULL);
		CHECK("core types on a hybrid machine",
		      strstr(sb.buf, "\"core_types\":[{\"core_type\":") != NULL);
		CHECK("the CPU table inside", strstr(sb.buf, "\"cpus\":[{\"cpu\":0},") != NULL);
		strbuf_free(&sb);
		strbuf_init(&sb);
		json_init(&j, &sb);
		topo_json(&t, NULL, &tab, &j);
		strbuf_add(&sb, "", 1);
		CHECK("no core types without them",
		      strstr(sb.buf, "core_types") == NULL);
		strbuf_free(&sb);
		table_free(&tab);
	}

	/* Without core types, unknown memory, a CPU limit, no distances. */
	t.nodes[0].mem_total_kb = -1;
	t.nodes[1].mem_free_kb = 10LL * 1024 * 1024 + 512 * 1024;
	free(t.nodes[0].distance);
	t.nodes[0].distance = NULL;
	t.l3s[1].size_kb = 1536;
	t.l3s[0].size_kb = -1;
	t.cpu_limit = 1.5;
	strbuf_init(&sb);
	CHECK("the summary builds without types", topo_summary(&t, NULL, &sb) == 0);
	CHECK("no core types without them", strstr(sb.buf, "Core types") == NULL);
	CHECK("unknown memory is '?'",
	      strstr(sb.buf, "memory ? total, 1024 MiB free\n") != NULL);
	CHECK("10.5 GiB with one decimal, the total in the same unit",
	      strstr(sb.buf, "memory 8.0 GiB total, 10.5 GiB free\n") != NULL);
	CHECK("no distance table without the first row",
	      strstr(sb.buf, "NUMA distances") == NULL);
	CHECK("an L3 size in KiB", strstr(sb.buf, "CPUs 100-101, size 1536 KiB\n") != NULL);
	CHECK("an unknown L3 size", strstr(sb.buf, "CPUs 0-1,3, size ?\n") != NULL);
	CHECK("the CPU limit with two decimals",
	      strstr(sb.buf, "CPU limit:            1.50 CPUs\n") != NULL);
	strbuf_free(&sb);
	coretype_free(&ct);
	sysroot_close(&root);
	topo_free(&t);
	unit_machine_remove();
	return unit_failed;
}
