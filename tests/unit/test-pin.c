// SPDX-License-Identifier: GPL-2.0-or-later
/* Pinning: checks and their messages, policies, numa_maps, large masks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <numaif.h>

#include "base/strbuf.h"
#include "pin/numaload.h"
#include "pin/pin.h"
#include "unit.h"

/* A machine of one NUMA node (or none): node 1 does not exist. */
static int
one_node(void)
{
	return access("/sys/devices/system/node/node1", F_OK) != 0;
}

/* s = the CPUs of list (s is emptied first, and keeps its memory). */
static void
setl(struct cpuset *s, const char *list)
{
	if (cpuset_parse_list(list, s, NULL, 0) < 0)
		abort();
}

static char *
policy_text(const struct pin_policy *p)
{
	static char buf[128];
	struct strbuf sb;

	strbuf_init(&sb);
	pin_policy_format(p, &sb);
	snprintf(buf, sizeof(buf), "%s", sb.buf ? sb.buf : "");
	strbuf_free(&sb);
	return buf;
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		abort();
	fputs(text, f);
	fclose(f);
}

/* Two nodes: 0 with CPUs 0-3 and memory, 2 (sparse id) with CPUs 4-7
 * and no memory; CPUs 0-6 online, 7 offline; 8 possible. */
static void
make_topo(struct topo *t)
{
	static struct topo_node nodes[2];
	static struct topo_cpu cpus[8];
	int c;

	memset(t, 0, sizeof(*t));
	t->ncpus = 8;
	t->cpus = cpus;
	for (c = 0; c < 8; c++)
		cpus[c].node = c < 4 ? 0 : 2;
	setl(&t->possible, "0-7");
	setl(&t->online, "0-6");
	t->nnodes = 2;
	t->nodes = nodes;
	nodes[0].id = 0;
	setl(&nodes[0].cpus, "0-3");
	nodes[0].mem_total_kb = 1000;
	nodes[1].id = 2;
	setl(&nodes[1].cpus, "4-7");
	nodes[1].mem_total_kb = 0;
}

static void
topo_free_sets(struct topo *t)
{
	int i;

	cpuset_free(&t->possible);
	cpuset_free(&t->online);
	for (i = 0; i < t->nnodes; i++)
		cpuset_free(&t->nodes[i].cpus);
}

int
main(void)
{
	struct topo t;
	struct cpuset s = CPUSET_INIT, allowed = CPUSET_INIT, nodes = CPUSET_INIT;
	struct cpuset got = CPUSET_INIT, old = CPUSET_INIT;
	struct pin_policy p;
	struct sysroot root;
	enum pin_mem m;
	char err[256], dir[] = "/tmp/cpm-unit.XXXXXX", path[256];
	unsigned long outside;
	int r;

	make_topo(&t);
	pin_policy_init(&p);

	/* --mem words */
	CHECK("mem bind parses", pin_mem_parse("bind", &m) == 0 && m == PIN_MEM_BIND);
	CHECK("mem preferred parses", pin_mem_parse("preferred", &m) == 0 &&
	      m == PIN_MEM_PREFERRED);
	CHECK("mem default is not settable", pin_mem_parse("default", &m) == -EINVAL);
	CHECK("mem is case sensitive", pin_mem_parse("Bind", &m) == -EINVAL);
	CHECK_STR("mem names", pin_mem_name(PIN_MEM_INTERLEAVE), "interleave");

	/* CPU checks, in the order exist, online, allowed */
	setl(&s, "");
	CHECK("empty cpulist refused", pin_check_cpus(&t, &s, NULL, "x", err,
						      sizeof(err)) == -EINVAL);
	setl(&s, "6-9");
	r = pin_check_cpus(&t, &s, NULL, "x", err, sizeof(err));
	CHECK("missing CPUs refused", r == -ERANGE);
	CHECK_STR("missing CPUs named", err, "CPUs 8-9 do not exist (possible: 0-7)");
	setl(&s, "5-7");
	r = pin_check_cpus(&t, &s, NULL, "x", err, sizeof(err));
	CHECK("offline CPU refused", r == -ENXIO);
	CHECK_STR("offline CPU named", err, "CPU 7 is offline (online: 0-6)");
	setl(&s, "1-3");
	setl(&allowed, "0-1");
	r = pin_check_cpus(&t, &s, &allowed, "process 12", err, sizeof(err));
	CHECK("CPUs outside the cpuset refused", r == -EPERM);
	CHECK_STR("CPUs outside the cpuset named", err,
		  "CPUs 2-3 are not allowed in the cpuset of process 12 (allowed: 0-1)");
	setl(&s, "0-1");
	CHECK("allowed CPUs pass", pin_check_cpus(&t, &s, &allowed, "x", err,
						  sizeof(err)) == 0);

	/* node checks */
	setl(&s, "0,1,3");
	r = pin_check_nodes(&t, &s, NULL, "x", err, sizeof(err));
	CHECK("missing nodes refused", r == -ERANGE);
	CHECK_STR("missing nodes named", err, "nodes 1,3 do not exist (nodes: 0,2)");
	setl(&s, "2");
	r = pin_check_nodes(&t, &s, NULL, "x", err, sizeof(err));
	CHECK("memoryless node refused", r == -ENOSPC);
	CHECK_STR("memoryless node named", err,
		  "node 2 has no memory (nodes with memory: 0)");
	setl(&s, "0");
	setl(&allowed, "");
	r = pin_check_nodes(&t, &s, &allowed, "this process", err, sizeof(err));
	CHECK_STR("node outside mems named", err,
		  "node 0 is not allowed in the cpuset of this process (mems allowed: none)");
	setl(&s, "2-5");
	setl(&nodes, "");
	CHECK("memory nodes of CPUs skip memoryless nodes",
	      pin_mem_nodes_of(&t, &s, &nodes, err, sizeof(err)) == 0 &&
	      cpuset_equal(&nodes, &(struct cpuset){0}) == false &&
	      cpuset_count(&nodes) == 1 && cpuset_isset(&nodes, 0));
	setl(&s, "4-5");
	CHECK("CPUs only on a memoryless node",
	      pin_mem_nodes_of(&t, &s, &nodes, err, sizeof(err)) == -ENOSPC);

	/* policy text and comparison */
	p.mode = PIN_MEM_PREFERRED;
	p.many = true;
	setl(&p.nodes, "0,2");
	CHECK_STR("preferred-many text", policy_text(&p), "preferred-many 0,2");
	setl(&s, "0,2");
	CHECK("preferred-many matches two nodes", pin_policy_matches(&p, PIN_MEM_PREFERRED, &s));
	setl(&s, "0");
	CHECK("preferred-many does not match one node",
	      !pin_policy_matches(&p, PIN_MEM_PREFERRED, &s));
	p.mode = PIN_MEM_LOCAL;
	p.many = false;
	cpuset_zero(&p.nodes);
	CHECK_STR("local text", policy_text(&p), "local");
	CHECK("local matches local", pin_policy_matches(&p, PIN_MEM_LOCAL, &s));
	CHECK("local does not match bind", !pin_policy_matches(&p, PIN_MEM_BIND, &s));

	/* numa_maps and status read from a tree */
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/42", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/42/numa_maps", dir);
	write_file(path,
		   "55d0 default file=/bin/x mapped=3 N0=3 kernelpagesize_kB=4\n"
		   "7f00 weighted interleave:0-1 anon=4 N1=4 kernelpagesize_kB=4\n"
		   "7ffc prefer (many)=static:0,2 stack anon=5 dirty=5 N0=2 N2=3 kernelpagesize_kB=4\n");
	snprintf(path, sizeof(path), "%s/proc/42/status", dir);
	write_file(path, "Name:\tx\nCpus_allowed_list:\t0-3,8\nMems_allowed_list:\t0,2\n");
	CHECK("tree opens", sysroot_open(&root, dir) == 0);
	r = pin_read_task_policy(&root, 42, &p);
	CHECK("the stack mapping's policy is read", r == 0 &&
	      p.mode == PIN_MEM_PREFERRED && p.many);
	CHECK_STR("with its flags and nodes", policy_text(&p), "preferred-many=static 0,2");
	setl(&s, "0");
	r = pin_pages_outside(&root, 42, &s, &outside, &nodes);
	CHECK("pages outside node 0 are counted", r == 0 && outside == 7);
	setl(&s, "1-2");
	CHECK("and their nodes named", cpuset_equal(&nodes, &s));
	r = proc_status_list(&root, 42, "Cpus_allowed_list", &got);
	setl(&s, "0-3,8");
	CHECK("status cpulist read", r == 0 && cpuset_equal(&got, &s));
	CHECK("missing status field", proc_status_list(&root, 42, "Nope", &got) == -ENOENT);
	CHECK("missing process", proc_status_list(&root, 43, "Cpus_allowed_list", &got) == -ESRCH);
	CHECK("missing process has no policy", pin_read_task_policy(&root, 43, &p) == -ESRCH);
	CHECK("pid exists in the tree", pin_pid_exists(&root, 42) && !pin_pid_exists(&root, 43));
	sysroot_close(&root);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		abort();

	/* Affinity with a mask far beyond 1024 CPUs: the kernel ignores
	 * bits past its own CPUs, the read-back shows what it kept. */
	CHECK("own affinity read", pin_get_affinity(0, &old) == 0 && !cpuset_empty(&old));
	setl(&s, "");
	cpuset_set(&s, (unsigned int)cpuset_first(&old));
	cpuset_set(&s, 5000);
	r = pin_set_affinity(0, &s);
	CHECK("a 5001-CPU mask is accepted", r == 0);
	CHECK("and read back without the CPU that does not exist",
	      pin_get_affinity(0, &got) == 0 && cpuset_count(&got) == 1 &&
	      cpuset_isset(&got, (unsigned int)cpuset_first(&old)));
	CHECK("affinity restored", pin_set_affinity(0, &old) == 0);
	CHECK("CPUs of the affinity lie within it",
	      pin_within_affinity(0, &old) == 1);
	setl(&s, "");
	CHECK("the empty set does not", pin_within_affinity(0, &s) == 0);
	cpuset_copy(&s, &old);
	cpuset_set(&s, 5000);
	CHECK("a CPU beyond the machine does not",
	      pin_within_affinity(0, &s) == 0);
	setl(&s, "");
	cpuset_set(&s, (unsigned int)cpuset_first(&old));
	if (cpuset_count(&old) > 1 && pin_set_affinity(0, &s) == 0) {
		cpuset_copy(&got, &old);
		cpuset_clear(&got, (unsigned int)cpuset_first(&old));
		CHECK("nor a CPU outside a narrower affinity",
		      pin_within_affinity(0, &got) == 0 &&
		      pin_within_affinity(0, &s) == 1);
		CHECK("affinity restored again",
		      pin_set_affinity(0, &old) == 0);
	}
	CHECK("allowed CPUs found", pin_self_allowed_cpus(&got) == 0 && !cpuset_empty(&got));
	{
		struct cpuset mems = CPUSET_INIT, n = CPUSET_INIT;

		CHECK("allowed memory nodes found",
		      pin_self_mems_allowed(&mems) == 0 && !cpuset_empty(&mems));
		CHECK("they lie within the memory nodes allowed",
		      pin_within_mems_allowed(&mems) == 1);
		CHECK("the empty node list does not",
		      pin_within_mems_allowed(&n) == 0);
		cpuset_copy(&n, &mems);
		cpuset_set(&n, 4000);
		CHECK("nor a node beyond the machine",
		      pin_within_mems_allowed(&n) == 0);
		cpuset_free(&mems);
		cpuset_free(&n);
	}
	CHECK("and the affinity left alone",
	      pin_get_affinity(0, &s) == 0 && cpuset_equal(&s, &old));

	/* Memory policy through libnuma, with its stderr messages caught. */
	{
		char log[] = "/tmp/cpm-unit-err.XXXXXX";
		int fd = mkstemp(log), saved = dup(2);
		struct stat st;

		if (fd < 0 || saved < 0)
			abort();
		dup2(fd, 2);
		CHECK("libnuma is not loaded before a policy is set",
		      !numaload_loaded() && unit_lib_mapped("/libnuma.so") == 0);
		setl(&s, "0,1");
		r = pin_set_mempolicy(PIN_MEM_BIND, &s, err, sizeof(err));
		CHECK("bind to nodes 0-1 is taken by the kernel", r == 0);
		CHECK("setting one loaded it", numaload_loaded() &&
		      unit_lib_mapped("/libnuma.so") == 1);
		CHECK("the read-back shows what it kept", pin_get_mempolicy(&p) == 0 &&
		      p.mode == PIN_MEM_BIND);
		if (one_node())
			CHECK("on one node, node 1 was dropped and the compare says so",
			      !pin_policy_matches(&p, PIN_MEM_BIND, &s));
		setl(&s, "1");
		r = pin_set_mempolicy(PIN_MEM_INTERLEAVE, &s, err, sizeof(err));
		if (one_node()) {
			CHECK("a policy on no usable node fails", r == -EINVAL);
			CHECK_STR("with the reason", err,
				  "cannot set memory policy interleave: set_mempolicy: Invalid argument");
		}
		setl(&s, "0,5000");
		CHECK("a node past libnuma's mask is refused, not dropped",
		      pin_set_mempolicy(PIN_MEM_BIND, &s, err, sizeof(err)) == -ERANGE);
		setl(&s, "0");
		CHECK("preferred one node", pin_set_mempolicy(PIN_MEM_PREFERRED, &s, err, sizeof(err)) == 0 &&
		      pin_get_mempolicy(&p) == 0 && pin_policy_matches(&p, PIN_MEM_PREFERRED, &s));
		CHECK("local", pin_set_mempolicy(PIN_MEM_LOCAL, &s, err, sizeof(err)) == 0 &&
		      pin_get_mempolicy(&p) == 0 && p.mode == PIN_MEM_LOCAL);
		CHECK("libnuma reported nothing else", pin_numa_status(err, sizeof(err)) == 0);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		CHECK("libnuma printed nothing", fstat(fd, &st) == 0 && st.st_size == 0);
		close(fd);
		unlink(log);
		syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0);
	}

	cpuset_free(&s);
	cpuset_free(&allowed);
	cpuset_free(&nodes);
	cpuset_free(&got);
	cpuset_free(&old);
	pin_policy_free(&p);
	topo_free_sets(&t);
	return unit_failed;
}
