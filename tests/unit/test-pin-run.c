// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run form's memory policy rules on a generated machine: node 0
 * (CPUs 0-1) and node 2 (CPUs 4-5) have memory, node 1 (CPUs 2-3) has
 * none.  Then this process given an affinity, read back with
 * sched_getaffinity() directly.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup/cgcpuset.h"
#include "pin/pin.h"
#include "pin/pingroup.h"
#include "machine.h"
#include "base/strbuf.h"
#include "pin/pin.h"
#include "unit.h"

static const char spec[] =
	"node 0 mem_kb=1048576\nnode 1 mem_kb=0\nnode 2 mem_kb=1048576\n"
	"cpu 0 core=0 socket=0 node=0\n"
	"cpu 1 core=1 socket=0 node=0\n"
	"cpu 2 core=2 socket=0 node=1\n"
	"cpu 3 core=3 socket=0 node=1\n"
	"cpu 4 core=4 socket=0 node=2\n"
	"cpu 5 core=5 socket=0 node=2\n";

static struct topo t;

static int
nodes(const char *cpus, enum pin_mem mode, const char *given,
      const char *allowed, struct cpuset *out, char *err, size_t errlen)
{
	struct cpuset c = CPUSET_INIT, a = CPUSET_INIT;
	char e[64];
	int r;

	cpuset_parse_list(cpus, &c, e, sizeof(e));
	cpuset_zero(out);
	if (given)
		cpuset_parse_list(given, out, e, sizeof(e));
	if (allowed)
		cpuset_parse_list(allowed, &a, e, sizeof(e));
	r = pin_policy_nodes(&t, &c, mode, given != NULL, out,
			     allowed ? &a : NULL, "this process", err, errlen);
	cpuset_free(&c);
	cpuset_free(&a);
	return r;
}

/*
 * The limits the run form checks against: a replayed tree's own process
 * files, and none when it has none; this process's on the live machine.
 */
static void
test_limits(void)
{
	struct cpuset c = CPUSET_INIT, m = CPUSET_INIT;
	struct sysroot root;
	struct topo rt;
	char path[256], err[256];
	bool hc = true, hm = true;

	snprintf(path, sizeof(path), "%s/root", unit_tmp);
	if (sysroot_open(&root, path) < 0) {
		CHECK("the replayed tree opens", 0);
		return;
	}
	pin_runner_limits(&root, &t, &c, &hc, &m, &hm);
	CHECK("a replayed tree without process files limits nothing",
	      !hc && !hm);

	snprintf(path, sizeof(path), "%s/root/proc/self", unit_tmp);
	mkdir(path, 0755);
	unit_put(path, "status", "Name:\tx\nCpus_allowed_list:\t1-4\n"
		 "Mems_allowed_list:\t0,2\n");
	memset(&rt, 0, sizeof(rt));
	if (topo_load(&rt, &root, TOPO_PROCESS, err, sizeof(err)) < 0) {
		CHECK("the replayed process view loads", 0);
		sysroot_close(&root);
		return;
	}
	pin_runner_limits(&root, &rt, &c, &hc, &m, &hm);
	CHECK_STR("a replayed process's allowed CPUs", hc ? unit_list(&c) : "-",
		  "1-4");
	CHECK_STR("a replayed process's memory nodes", hm ? unit_list(&m) : "-",
		  "0,2");
	topo_free(&rt);
	sysroot_close(&root);

	sysroot_open(&root, NULL);
	pin_runner_limits(&root, &t, &c, &hc, &m, &hm);
	CHECK("live: this process's CPUs and nodes, as the kernel has them",
	      hc && hm && !cpuset_empty(&c) && !cpuset_empty(&m));
	sysroot_close(&root);
	cpuset_free(&c);
	cpuset_free(&m);
}

/* This process on the live machine: its allowed CPUs, and its pages
 * moved to the node of CPU 0 (where they are, on one-node machines). */
static void
test_live(void)
{
	struct sysroot live;
	struct topo lt;
	struct cpuset s = CPUSET_INIT, node = CPUSET_INIT;
	char err[512];
	int r;

	memset(&lt, 0, sizeof(lt));
	if (sysroot_open(&live, "/") < 0 ||
	    topo_load(&lt, &live, TOPO_NO_CORES, err, sizeof(err)) < 0) {
		printf("skip - live: no live topology # %s\n", err);
		return;
	}
	CHECK("live: this process's allowed CPUs are known",
	      cgcpuset_pid_allowed(&live, getpid(), &lt.online, &s) &&
	      !cpuset_empty(&s) && cpuset_subset(&s, &lt.online));
	CHECK("live: a process that does not exist has none",
	      !cgcpuset_pid_allowed(&live, 0x3ffffff0, &lt.online, &s));
	if (lt.nnodes > 0 && lt.cpus[0].node >= 0) {
		cpuset_set(&node, (unsigned int)lt.cpus[0].node);
		r = pin_migrate_process(&lt, &live, getpid(), &node, err,
					sizeof(err));
		if (r == -ENOSYS || r == -EPERM)
			printf("skip - live: migrate # %s\n", err);
		else
			CHECK_STR("live: this process's pages move to the node of "
				  "CPU 0", r == 0 ? "" : err, "");
	}
	cpuset_free(&s);
	cpuset_free(&node);
	topo_free(&lt);
	sysroot_close(&live);
}

int
main(void)
{
	struct cpuset n = CPUSET_INIT, got = CPUSET_INIT;
	struct strbuf sb;
	char err[512];
	cpu_set_t *m;
	size_t bytes;
	int r;

	unit_machine(spec, 0, &t, NULL);
	r = nodes("0-5", PIN_MEM_BIND, NULL, NULL, &n, err, sizeof(err));
	CHECK_STR("bind without nodes takes the CPUs' nodes with memory",
		  r == 0 ? unit_list(&n) : err, "0,2");
	r = nodes("2-3", PIN_MEM_INTERLEAVE, NULL, NULL, &n, err, sizeof(err));
	CHECK("CPUs of a memoryless node alone have no nodes to bind",
	      r == -EINVAL);
	r = nodes("0-1", PIN_MEM_BIND, "1", NULL, &n, err, sizeof(err));
	CHECK("a memoryless node named is refused", r == -EINVAL);
	r = nodes("0-1", PIN_MEM_BIND, "2", "0", &n, err, sizeof(err));
	CHECK("a node outside the allowed memory nodes is refused",
	      r == -EINVAL);
	r = nodes("0-1,4", PIN_MEM_LOCAL, "0", NULL, &n, err, sizeof(err));
	CHECK_STR("local on CPUs of two nodes but one named",
		  r == -EINVAL ? err : "", "--mem local allocates on the CPUs' "
		  "nodes 0,2, not only on --nodes 0 (use --mem bind or "
		  "preferred)");
	r = nodes("0-1", PIN_MEM_LOCAL, "0", NULL, &n, err, sizeof(err));
	CHECK("local on the named node's CPUs", r == 0);
	r = nodes("0-5", PIN_MEM_KEEP, NULL, NULL, &n, err, sizeof(err));
	CHECK("an inherited policy needs no nodes", r == 0 &&
	      cpuset_empty(&n));

	strbuf_init(&sb);
	cpuset_parse_list("0,2", &n, err, sizeof(err));
	pin_policy_asked(PIN_MEM_PREFERRED, &n, &sb);
	strbuf_puts(&sb, "; ");
	pin_policy_asked(PIN_MEM_LOCAL, &n, &sb);
	CHECK_STR("preferred over two nodes is preferred-many; local has no "
		  "nodes", sb.buf, "preferred-many 0,2; local");
	strbuf_free(&sb);

	/* This process: CPU 0 only, no memory policy. */
	cpuset_parse_list("0", &n, err, sizeof(err));
	r = pin_apply_self(&n, PIN_MEM_KEEP, NULL, &got, err, sizeof(err));
	CHECK("apply: the affinity is set and read back", r == 0 &&
	      cpuset_equal(&got, &n));
	bytes = CPU_ALLOC_SIZE(1024);
	m = CPU_ALLOC(1024);
	CPU_ZERO_S(bytes, m);
	CHECK("apply: the kernel agrees", sched_getaffinity(0, bytes, m) == 0 &&
	      CPU_COUNT_S(bytes, m) == 1 && CPU_ISSET_S(0, bytes, m));
	CPU_FREE(m);
	test_limits();
	test_live();
	cpuset_free(&n);
	cpuset_free(&got);
	unit_machine_remove();
	topo_free(&t);
	return unit_failed;
}
