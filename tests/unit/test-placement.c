// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Placement analysis on a generated machine: 2 sockets, one NUMA node and
 * one L3 each, 2 cores of 2 threads per socket (socket 0: CPUs 0,1 and
 * their siblings 4,5; socket 1: 2,3 and 6,7), CPU 7 offline, CPU 3
 * isolated.  The expected findings are worked out by hand.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "machine/coretype.h"
#include "machine.h"
#include "base/strbuf.h"
#include "view/placement.h"
#include "unit.h"

static const char spec[] =
	"node 0\nnode 1\nisolated 3\n"
	"cpu 0 core=0 socket=0 node=0 l3=0\n"
	"cpu 1 core=1 socket=0 node=0 l3=0\n"
	"cpu 2 core=0 socket=1 node=1 l3=1\n"
	"cpu 3 core=1 socket=1 node=1 l3=1\n"
	"cpu 4 core=0 socket=0 node=0 l3=0\n"
	"cpu 5 core=1 socket=0 node=0 l3=0\n"
	"cpu 6 core=0 socket=1 node=1 l3=1\n"
	"cpu 7 core=1 socket=1 node=1 l3=1 online=0\n";

static struct topo t;

static void
check(const char *name, const char *list, const char *nodes,
      enum placement_policy pol, int want_n, const char *want)
{
	struct cpuset cpus = CPUSET_INIT, ns = CPUSET_INIT;
	struct strbuf sb;
	char err[128];
	int n;

	cpuset_parse_list(list, &cpus, err, sizeof(err));
	if (nodes)
		cpuset_parse_list(nodes, &ns, err, sizeof(err));
	strbuf_init(&sb);
	n = placement_check(&t, &cpus, nodes ? &ns : NULL, pol, &sb);
	CHECK_STR(name, sb.buf ? sb.buf : "", want);
	if (n != want_n)
		printf("# %d findings, want %d\n", n, want_n);
	CHECK(name, n == want_n);
	strbuf_free(&sb);
	cpuset_free(&cpus);
	cpuset_free(&ns);
}

/*
 * The whole check: the placement findings, none about core types on a
 * machine of one type, and the interrupts only when asked for (this tree
 * has no proc/irq, so asking fails, naming it).
 */
static void
test_report(void)
{
	struct cpuset cpus = CPUSET_INIT;
	struct placement_query q;
	struct coretypes ct;
	struct sysroot root;
	struct strbuf sb;
	char path[256], err[256] = "";
	int n;

	snprintf(path, sizeof(path), "%s/root", unit_tmp);
	if (sysroot_open(&root, path) < 0 ||
	    coretype_load(&ct, &root, &t, err, sizeof(err)) < 0) {
		printf("not ok - report: cannot load core types: %s\n", err);
		unit_failed = 1;
		return;
	}
	cpuset_parse_list("3,7", &cpus, err, sizeof(err));
	memset(&q, 0, sizeof(q));
	q.cpus = &cpus;
	q.policy = PLACE_COMPACT;
	strbuf_init(&sb);
	n = placement_report(&root, &t, &ct, &q, &sb, err, sizeof(err));
	CHECK_STR("report: the placement findings",
		  n == 2 && sb.buf ? sb.buf : "",
		  "error: CPU 7 is offline\n"
		  "warning: CPU 3 is isolated (isolcpus): the scheduler will "
		  "not balance work across them\n");
	strbuf_free(&sb);
	q.irqs = true;
	q.interval_us = 1000;
	err[0] = '\0';
	strbuf_init(&sb);
	n = placement_report(&root, &t, &ct, &q, &sb, err, sizeof(err));
	CHECK("report: --irqs reads the interrupts, and says what is missing",
	      n == -ENOENT && err[0] != '\0');
	strbuf_free(&sb);
	coretype_free(&ct);
	sysroot_close(&root);
	cpuset_free(&cpus);
}

int
main(void)
{
	enum placement_policy p;

	unit_machine(spec, 0, &t, NULL);
	CHECK("policy: compact", placement_policy_parse("compact", &p) == 0 &&
	      p == PLACE_COMPACT);
	CHECK("policy: local", placement_policy_parse("local", &p) == 0 &&
	      p == PLACE_LOCAL);
	CHECK("policy: unknown", placement_policy_parse("tight", &p) ==
	      -EINVAL);

	check("whole cores on one node are compact", "0-1,4-5", NULL,
	      PLACE_COMPACT, 0, "");
	check("whole cores on one node are local", "0,4", NULL, PLACE_LOCAL,
	      0, "");
	check("one thread per core leaves cores half used", "0-1", NULL,
	      PLACE_COMPACT, 2,
	      "warning: core 0 is half used: CPU 0 in the list shares it "
	      "with sibling 4 outside it\n"
	      "warning: core 1 is half used: CPU 1 in the list shares it "
	      "with sibling 5 outside it\n");
	check("two CPUs over two nodes are not compact", "0,2", NULL,
	      PLACE_COMPACT, 5,
	      "warning: CPUs span 2 NUMA nodes (0-1) where 1 would hold "
	      "them; memory access will cross nodes\n"
	      "warning: CPUs span sockets 0-1 where one would hold them\n"
	      "warning: CPUs span 2 L3 caches where one would hold them\n"
	      "warning: core 0 is half used: CPU 0 in the list shares it "
	      "with sibling 4 outside it\n"
	      "warning: core 2 is half used: CPU 2 in the list shares it "
	      "with sibling 6 outside it\n");
	check("local placement needs one node", "0,2,4,6", NULL, PLACE_LOCAL,
	      3,
	      "error: CPUs span 2 NUMA nodes (0-1); local placement needs "
	      "one\n"
	      "warning: CPUs span sockets 0-1 where one would hold them\n"
	      "warning: CPUs span 2 L3 caches where one would hold them\n");
	check("spread placement wants several nodes", "0,4", NULL,
	      PLACE_SPREAD, 1,
	      "warning: all CPUs are on NUMA node 0; spread placement wants "
	      "several nodes\n");
	check("offline and isolated CPUs", "3,7", NULL, PLACE_COMPACT, 2,
	      "error: CPU 7 is offline\n"
	      "warning: CPU 3 is isolated (isolcpus): the scheduler will "
	      "not balance work across them\n");
	check("CPUs outside the nodes asked for", "0,2,4,6", "0,5",
	      PLACE_SPREAD, 2,
	      "error: NUMA node 5 does not exist\n"
	      "error: CPUs 2,6 are outside NUMA nodes 0,5\n");
	check("an empty list", "", NULL, PLACE_COMPACT, 1,
	      "error: the cpulist is empty\n");
	test_report();
	unit_machine_remove();
	topo_free(&t);
	return unit_failed;
}
