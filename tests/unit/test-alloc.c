// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocator's decisions without the CLI: take, hints, resize, owners
 * and check, on a generated machine of 2 NUMA nodes, 4 cores and 2
 * threads per core (node 0: CPUs 0,1,4,5; node 1: 2,3,6,7; core siblings
 * N and N+4; 1 GiB per node).  Expectations are worked out by hand from
 * that layout and the kubelet's rules.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc/alloc.h"
#include "allocmachine.h"
#include "base/strbuf.h"
#include "unit.h"

#define tmp unit_tmp
#define list unit_list

/* Take and add to st; returns alloc_take()'s result. */
static int
take(struct alloc_state *st, struct alloc_request *rq, char *err,
     size_t errlen)
{
	struct alloc_entry e;
	int r;

	memset(&e, 0, sizeof(e));
	r = alloc_opts_effective(&m, &st->policy, &rq->opts, err, errlen);
	if (r == 0)
		r = alloc_take(&m, st, rq, &e, NULL, err, errlen);
	if (r == 0 && state_add(st, &e) < 0)
		r = -ENOMEM;
	alloc_entry_free(&e);
	return r;
}

static void
test_take(void)
{
	struct alloc_state st;
	struct alloc_request rq;
	struct strbuf ex;
	struct alloc_entry e;
	char err[1024];
	int r;

	state_init(&st);
	unit_request(&rq, "a", 2);
	rq.opts.k.full_cores = true;
	CHECK("take: full cores succeeds", take(&st, &rq, err, sizeof(err)) == 0);
	CHECK_STR("take: 2 CPUs in whole cores are core 0's threads",
		  list(&state_find(&st, "a")->cpus), "0,4");
	CHECK("take: the entry keeps its count",
	      state_find(&st, "a")->n == 2);

	unit_request(&rq, "b", 6);
	rq.opts.numa_policy = TM_SINGLE_NUMA;
	r = take(&st, &rq, err, sizeof(err));
	CHECK("take: single-numa-node refuses 6 CPUs on 4-CPU nodes",
	      r == -ENOSPC);
	CHECK_STR("take: the refusal names the policy and the free CPUs", err,
		  "topology affinity error: the single-numa-node policy "
		  "refuses 6 CPUs: no single NUMA node can hold it (free CPUs "
		  "per node: 0:2 1:4)");
	CHECK("take: a refused take adds nothing", st.nentries == 1);

	unit_request(&rq, "c", 1);
	rq.have_mem = true;
	rq.mem = 512ULL << 20;
	CHECK("take: with memory succeeds", take(&st, &rq, err, sizeof(err)) == 0);
	CHECK_STR("take: the next free CPU", list(&state_find(&st, "c")->cpus),
		  "1");
	CHECK("take: memory booked on the CPU's node",
	      state_find(&st, "c")->nmem >= 1 &&
	      state_find(&st, "c")->mem[0].node == 0 &&
	      state_find(&st, "c")->mem[0].bytes == 512ULL << 20);
	CHECK("take: the state counts the booking",
	      state_mem_booked(&st, 0) == 512ULL << 20);

	unit_request(&rq, "d", 1);
	rq.have_mem = true;
	rq.mem = 4ULL << 30;
	r = take(&st, &rq, err, sizeof(err));
	CHECK("take: more memory than any node set has is refused",
	      r == -ENOSPC);
	CHECK_STR("take: the refusal lists the free memory per node", err,
		  "not enough free memory for 4G (free per node: 0:512M 1:1G)");

	unit_request(&rq, "e", 2);
	rq.opts.numa_policy = TM_RESTRICTED;
	memset(&e, 0, sizeof(e));
	strbuf_init(&ex);
	r = alloc_take(&m, &st, &rq, &e, &ex, err, sizeof(err));
	CHECK("take: restricted takes 2 CPUs", r == 0);
	CHECK_STR("take: restricted keeps to one node (node 1, the one with "
		  "free cores)", list(&e.cpus), "2,6");
	CHECK_STR("take: explain lists the hints, the decision and why this set",
		  ex.buf,
		  "CPU hints: 1 preferred, 0-1 -\n"
		  "restricted policy: merged hint 1 preferred: admitted\n"
		  "chose 2,6 of 5 free CPUs (per node: 0:1 1:4), from NUMA "
		  "nodes 1 first: the static policy takes whole NUMA nodes or "
		  "sockets, then whole cores, then single threads, packed on "
		  "the fewest\n");
	CHECK("take: the state is not changed", st.nentries == 2);
	strbuf_free(&ex);
	alloc_entry_free(&e);

	unit_request(&rq, "f", 1);
	rq.opts.numa_policy = TM_BEST_EFFORT;
	r = alloc_take(&m, &st, &rq, &e, NULL, err, sizeof(err));
	CHECK("take: best-effort takes 1", r == 0);
	alloc_entry_free(&e);
	state_free(&st);
}

static void
test_hints(void)
{
	struct alloc_state st;
	struct alloc_request mrq;
	struct tm_hints h;
	struct strbuf sb;
	char err[256];
	int i, r;

	state_init(&st);
	r = alloc_hints(&m, &st, 2, false, NULL, &h, err, sizeof(err));
	CHECK("hints: computed", r == 0);
	strbuf_init(&sb);
	for (i = 0; i < h.n; i++) {
		tm_mask_format(h.h[i].mask, &sb);
		strbuf_puts(&sb, h.h[i].preferred ? " preferred;" : " -;");
	}
	CHECK_STR("hints: each node alone is preferred for 2 CPUs, both is "
		  "not", sb.buf, "0 preferred;1 preferred;0-1 -;");
	strbuf_free(&sb);
	tm_hints_free(&h);

	memset(&mrq, 0, sizeof(mrq));
	mrq.have_mem = true;
	mrq.mem = 1ULL << 30;
	r = alloc_hints(&m, &st, 6, false, &mrq, &h, err, sizeof(err));
	strbuf_init(&sb);
	for (i = 0; i < h.n; i++) {
		tm_mask_format(h.h[i].mask, &sb);
		strbuf_puts(&sb, h.h[i].preferred ? " preferred;" : " -;");
	}
	CHECK_STR("hints: 6 CPUs and 1G fit only on both nodes, preferred by "
		  "the CPUs' provider only", r == 0 ? sb.buf : err,
		  "0-1 -;");
	strbuf_free(&sb);
	tm_hints_free(&h);
	state_free(&st);
}

static void
test_resize(void)
{
	struct alloc_state st;
	struct alloc_request rq;
	struct alloc_entry *e;
	struct alloc_opts o;
	struct cpuset from = CPUSET_INIT;
	char err[512];
	int r;

	state_init(&st);
	unit_request(&rq, "a", 1);
	take(&st, &rq, err, sizeof(err));
	unit_request(&rq, "b", 1);
	cpuset_parse_list("2", &from, err, sizeof(err));
	rq.from = &from;
	take(&st, &rq, err, sizeof(err));
	e = state_find(&st, "a");
	CHECK_STR("resize: setup", list(&e->cpus), "0");
	CHECK_STR("resize: setup with --from", list(&state_find(&st, "b")->cpus),
		  "2");
	o = e->opts;
	alloc_opts_effective(&m, &st.policy, &o, err, sizeof(err));
	r = alloc_resize(&m, &st, e, 2, &o, err, sizeof(err));
	CHECK("resize: grow succeeds", r == 0 && e->n == 2);
	CHECK_STR("resize: growth fills the entry's own core first",
		  list(&e->cpus), "0,4");
	r = alloc_resize(&m, &st, e, 4, &o, err, sizeof(err));
	CHECK("resize: grow again", r == 0 && e->n == 4);
	CHECK_STR("resize: then a whole core on the entry's node",
		  list(&e->cpus), "0-1,4-5");
	r = alloc_resize(&m, &st, e, 1, &o, err, sizeof(err));
	CHECK("resize: shrink succeeds", r == 0 && e->n == 1);
	CHECK("resize: shrink keeps a subset",
	      cpuset_count(&e->cpus) == 1);

	o.k.full_cores = true;
	r = alloc_resize(&m, &st, e, 3, &o, err, sizeof(err));
	CHECK("resize: an odd count in whole cores is refused", r == -ENOSPC);
	CHECK_STR("resize: with the kubelet's wording", err,
		  "SMT Alignment Error: requested 3 cpus not multiple cpus "
		  "per core = 2");
	CHECK("resize: a refused resize keeps the count", e->n == 1);

	/* An automatic --distribute group is decided again at each resize:
	 * taken without whole cores it groups by 1, and once the policy asks
	 * for whole cores, by the 2 threads of a core. */
	e->opts.distribute_auto = true;
	e->opts.k.distribute = 1;
	e->opts.closest = true;
	CHECK("resize opts: the entry's own options",
	      alloc_resize_opts(&m, &st.policy, e, &o, err, sizeof(err)) == 0 &&
	      o.distribute_auto && o.k.distribute == 1 && o.closest &&
	      !o.k.full_cores);
	st.policy.k.full_cores = true;
	CHECK("resize opts: the policy's whole cores regroup --distribute",
	      alloc_resize_opts(&m, &st.policy, e, &o, err, sizeof(err)) == 0 &&
	      o.k.full_cores && o.k.distribute == 2);
	CHECK("resize opts: the entry keeps its stored options",
	      e->opts.k.distribute == 1 && !e->opts.k.full_cores);
	st.policy.k.full_cores = false;
	cpuset_free(&from);
	state_free(&st);
}

/* The state letter of /proc/PID/stat, read with stdio. */
static bool
is_zombie(pid_t pid)
{
	char path[64], line[512], *p;
	FILE *f;
	bool z = false;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')')))
		z = p[1] == ' ' && p[2] == 'Z';
	fclose(f);
	return z;
}

static void
test_owner(void)
{
	struct sysroot live;
	struct alloc_entry e;
	char arg[64], path[512], err[512], reason[256];
	pid_t pid;
	int r;

	if (sysroot_open(&live, "/") < 0) {
		printf("not ok - owner: open /\n");
		unit_failed = 1;
		return;
	}
	memset(&e, 0, sizeof(e));
	snprintf(arg, sizeof(arg), "pid:%ld", (long)getpid());
	r = alloc_owner_resolve(arg, tmp, &live, &e, err, sizeof(err));
	CHECK("owner: this process resolves", r == 0 && e.owner_start > 0);
	CHECK("owner: a running owner is not gone",
	      !alloc_owner_gone(&e, &live, reason, sizeof(reason)));
	alloc_entry_free(&e);

	pid = fork();
	if (pid == 0)
		_exit(0);
	/* Not yet reaped: a zombie, which has stopped running. */
	while (!is_zombie(pid))
		usleep(10000);
	snprintf(arg, sizeof(arg), "pid:%ld", (long)pid);
	memset(&e, 0, sizeof(e));
	e.owner = strdup(arg);
	CHECK("owner: an entry whose process is a zombie is gone",
	      alloc_owner_gone(&e, &live, reason, sizeof(reason)));
	alloc_entry_free(&e);
	waitpid(pid, NULL, 0);
	memset(&e, 0, sizeof(e));
	snprintf(arg, sizeof(arg), "pid:%ld", (long)pid);
	r = alloc_owner_resolve(arg, tmp, &live, &e, err, sizeof(err));
	CHECK("owner: a reaped process is refused", r == -EINVAL);
	snprintf(path, sizeof(path), "invalid owner '%s': no such process",
		 arg);
	CHECK_STR("owner: saying so", err, path);
	e.owner = strdup(arg);
	CHECK("owner: an entry whose process exited is gone",
	      alloc_owner_gone(&e, &live, reason, sizeof(reason)));
	snprintf(path, sizeof(path), "process %ld has exited", (long)pid);
	CHECK_STR("owner: the reason names the pid", reason, path);
	alloc_entry_free(&e);

	r = alloc_owner_resolve("pid:0", tmp, &live, &e, err, sizeof(err));
	CHECK_STR("owner: pid 0 is invalid", r == -EINVAL ? err : "",
		  "invalid owner 'pid:0'");
	r = alloc_owner_resolve("user:x", tmp, &live, &e, err, sizeof(err));
	CHECK_STR("owner: unknown kind", r == -EINVAL ? err : "",
		  "invalid owner 'user:x' (pid:PID or cgroup:PATH)");
	r = alloc_owner_resolve("cgroup:a/../b", tmp, &live, &e, err,
				sizeof(err));
	CHECK("owner: a group path with .. is refused", r == -EINVAL);

	/* A v1-style tree: the group lives in the cpuset hierarchy. */
	snprintf(path, sizeof(path), "%s/cpuset", tmp);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cpuset/job", tmp);
	mkdir(path, 0755);
	memset(&e, 0, sizeof(e));
	r = alloc_owner_resolve("cgroup:/job", tmp, &live, &e, err,
				sizeof(err));
	CHECK("owner: a v1 group resolves", r == 0);
	CHECK_STR("owner: to its directory", e.owner_dir ? e.owner_dir : "",
		  path);
	CHECK("owner: an existing group is not gone",
	      !alloc_owner_gone(&e, &live, reason, sizeof(reason)));
	rmdir(path);
	CHECK("owner: a removed group is gone",
	      alloc_owner_gone(&e, &live, reason, sizeof(reason)));
	alloc_entry_free(&e);
	r = alloc_owner_resolve("cgroup:job", tmp, &live, &e, err,
				sizeof(err));
	CHECK("owner: a missing group is refused", r == -EINVAL &&
	      strstr(err, "no such cgroup below"));
	snprintf(path, sizeof(path), "%s/cpuset", tmp);
	rmdir(path);
	sysroot_close(&live);
}

static void
test_check(void)
{
	struct alloc_state st;
	struct alloc_entry e;
	struct topo_print now;
	struct strbuf sb;
	char msg[256];
	int n;

	state_init(&st);
	strbuf_init(&sb);
	CHECK("check: no state file, no findings",
	      alloc_check(&m, &st, NULL, TOPO_SAME, "", NULL, &sb) == 0 &&
	      sb.len == 0);
	st.exists = true;
	topo_print_make(&st.print, &topo);
	topo_print_make(&now, &topo);
	cpuset_parse_list("0", &st.reserved, msg, sizeof(msg));
	memset(&e, 0, sizeof(e));
	e.name = strdup("a");
	cpuset_parse_list("0-2", &e.cpus, msg, sizeof(msg));
	e.n = 3;
	state_add(&st, &e);
	memset(&e, 0, sizeof(e));
	e.name = strdup("b");
	cpuset_parse_list("2-3", &e.cpus, msg, sizeof(msg));
	e.n = 2;
	state_add(&st, &e);
	n = alloc_check(&m, &st, &now, state_topo_match(&st, &now, msg,
							sizeof(msg)), msg,
			NULL, &sb);
	CHECK("check: two findings", n == 2);
	CHECK_STR("check: reserved CPUs handed out and CPUs held twice",
		  sb.buf,
		  "error: reserved CPUs 0 are handed out to 'a': release it "
		  "and take again\n"
		  "error: 'a' and 'b' both hold CPUs 2: release one of them\n");
	strbuf_free(&sb);
	topo_print_free(&now);
	state_free(&st);
}

static void
test_reconcile(void)
{
	struct alloc_state st;
	struct alloc_entry e;
	struct topo_print now;
	struct sysroot live;
	struct strbuf sb;
	char err[512], want[256];
	bool changed;
	pid_t pid;
	int r;

	if (sysroot_open(&live, "/") < 0)
		return;
	state_init(&st);
	st.exists = true;
	topo_print_make(&st.print, &topo);
	topo_print_make(&now, &topo);
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	memset(&e, 0, sizeof(e));
	e.name = strdup("gone");
	asprintf(&e.owner, "pid:%ld", (long)pid);
	cpuset_parse_list("1,5", &e.cpus, err, sizeof(err));
	e.n = 2;
	state_add(&st, &e);
	memset(&e, 0, sizeof(e));
	e.name = strdup("kept");
	cpuset_parse_list("2", &e.cpus, err, sizeof(err));
	e.n = 1;
	state_add(&st, &e);
	strbuf_init(&sb);
	r = alloc_reconcile(&m, &st, &now, TOPO_SAME, &live, true, &sb,
			    &changed, err, sizeof(err));
	snprintf(want, sizeof(want), "would release gone 1,5: process %ld "
		 "has exited\n", (long)pid);
	CHECK_STR("reconcile: a dry run names the entry of an exited owner",
		  r == 0 ? sb.buf : err, want);
	CHECK("reconcile: and changes the state it was given", changed &&
	      st.nentries == 1 && state_find(&st, "kept"));
	strbuf_free(&sb);

	/* The state was made with CPUs 0-3 online: now 0-7 are. */
	cpuset_parse_list("0-3", &st.print.online, err, sizeof(err));
	strbuf_init(&sb);
	r = alloc_reconcile(&m, &st, &now, TOPO_ONLINE_CHANGED, &live, false,
			    &sb, &changed, err, sizeof(err));
	CHECK_STR("reconcile: the machine's new CPUs are recorded",
		  r == 0 ? sb.buf : err, "recorded the machine's online CPUs "
		  "0-7 (was 0-3)\n");
	CHECK("reconcile: into the fingerprint", changed &&
	      cpuset_count(&st.print.online) == 8);
	strbuf_free(&sb);

	cpuset_set(&state_find(&st, "kept")->cpus, 9);
	strbuf_init(&sb);
	r = alloc_reconcile(&m, &st, &now, TOPO_RESIZED, &live, false, &sb,
			    &changed, err, sizeof(err));
	CHECK("reconcile: an entry on a CPU that is not online", r == -ENOSPC);
	CHECK_STR("reconcile: keeps the old fingerprint and says why", err,
		  "the state still uses CPUs 9 that are not online: release or "
		  "resize what holds them (see 'cpm-alloc check'), then "
		  "reconcile again");
	strbuf_free(&sb);
	topo_print_free(&now);
	state_free(&st);
	sysroot_close(&live);
}

static void
test_import(void)
{
	struct kstate_entry ke[2] = {
		{ "pod1/c", "pod1", "c", "4-5" },
		{ "pod2/c", "pod2", "c", "6" },
	};
	struct kstate ks = { .policy = "static", .default_set = "0-3,7",
			      .version = 2, .nentries = 2, .entries = ke };
	struct alloc_import im;
	struct alloc_state st;
	struct strbuf sb;
	char err[512];
	int r;

	state_init(&st);
	r = alloc_import_read(&topo, &ks, "f", &im, err, sizeof(err));
	CHECK("import: two entries read", r == 0 && im.n == 2);
	strbuf_init(&sb);
	r = alloc_import_add(&st, &im, &sb, err, sizeof(err));
	CHECK_STR("import: both added", r == 2 ? sb.buf : err,
		  "pod1/c 4-5\npod2/c 6\n");
	alloc_import_free(&im);
	strbuf_free(&sb);
	alloc_import_read(&topo, &ks, "f", &im, err, sizeof(err));
	strbuf_init(&sb);
	r = alloc_import_add(&st, &im, &sb, err, sizeof(err));
	CHECK("import: again adds nothing", r == 0 && sb.len == 0);
	alloc_import_free(&im);
	strbuf_free(&sb);
	state_free(&st);

	state_init(&st);
	cpuset_parse_list("6", &st.reserved, err, sizeof(err));
	alloc_import_read(&topo, &ks, "f", &im, err, sizeof(err));
	strbuf_init(&sb);
	r = alloc_import_add(&st, &im, &sb, err, sizeof(err));
	CHECK_STR("import: a reserved CPU is refused", r == -ENOSPC ? err : "",
		  "CPUs 6 of 'pod2/c' are already reserved or allocated here");
	alloc_import_free(&im);
	strbuf_free(&sb);
	state_free(&st);

	ke[1].cpus = "5-6";
	r = alloc_import_read(&topo, &ks, "f", &im, err, sizeof(err));
	CHECK_STR("import: a CPU in two entries", r == -EINVAL ? err : "",
		  "'f': CPUs 5 are assigned twice (again in 'pod2/c')");
	alloc_import_free(&im);
	ke[1].cpus = "3";
	r = alloc_import_read(&topo, &ks, "f", &im, err, sizeof(err));
	CHECK_STR("import: an entry in the default set", r == -EINVAL ? err : "",
		  "'f': entry 'pod2/c' cpuset \"3\" overlaps with default "
		  "cpuset \"0-3,7\"");
	alloc_import_free(&im);
	ke[1].cpus = "8";
	r = alloc_import_read(&topo, &ks, "f", &im, err, sizeof(err));
	CHECK_STR("import: a CPU the machine lacks", r == -EINVAL ? err : "",
		  "'f' uses CPUs 8, which are not online on this machine");
	alloc_import_free(&im);
}

static void
test_misc(void)
{
	struct alloc_opts o, policy;
	struct strbuf sb;
	char err[256];

	memset(&o, 0, sizeof(o));
	memset(&policy, 0, sizeof(policy));
	policy.k.full_cores = true;
	o.distribute_auto = true;
	CHECK("opts: merged and checked",
	      alloc_opts_effective(&m, &policy, &o, err, sizeof(err)) == 0);
	CHECK("opts: the policy's full cores apply", o.k.full_cores);
	CHECK("opts: --distribute in whole cores groups by 2 threads",
	      o.k.distribute == 2);
	strbuf_init(&sb);
	alloc_size_format(&sb, 512ULL << 20);
	strbuf_puts(&sb, " ");
	alloc_size_format(&sb, 1000);
	strbuf_puts(&sb, " ");
	alloc_size_format(&sb, 3ULL << 40);
	CHECK_STR("size: binary units when exact", sb.buf, "512M 1000 3T");
	strbuf_free(&sb);
}

/* The kubelet's view of the machine is built on first use, and once. */
static void
test_machine_kt(void)
{
	struct ktopo lazy;
	struct alloc_machine lm = { &topo, &lazy, 0 };
	struct alloc_state st;
	struct alloc_request rq;
	struct alloc_entry e;
	struct alloc_opts o;
	struct alloc_entry *a;
	char err[1024];
	int r;

	memset(&lazy, 0, sizeof(lazy));
	CHECK("machine kt: nothing built before use", lazy.cpu == NULL);
	CHECK("machine kt: built on first use",
	      alloc_machine_kt(&lm) == &lazy && lazy.cpu != NULL);
	CHECK("machine kt: as ktopo_from_topo() builds it",
	      lazy.ncpus == kt.ncpus && lazy.num_cpus == kt.num_cpus &&
	      lazy.num_cores == kt.num_cores &&
	      lazy.num_sockets == kt.num_sockets &&
	      lazy.num_numa == kt.num_numa &&
	      lazy.num_uncore == kt.num_uncore &&
	      cpuset_equal(&lazy.all, &kt.all) &&
	      memcmp(lazy.cpu, kt.cpu,
		     (size_t)kt.ncpus * sizeof(*kt.cpu)) == 0);
	lazy.num_uncore = 12345;
	CHECK("machine kt: not built again",
	      alloc_machine_kt(&lm) == &lazy && lazy.num_uncore == 12345);
	ktopo_free(&lazy);

	/* Each entry point that needs the view builds it itself. */
	state_init(&st);
	unit_request(&rq, "a", 2);
	rq.opts.k.full_cores = true;
	memset(&e, 0, sizeof(e));
	r = alloc_opts_effective(&lm, &st.policy, &rq.opts, err, sizeof(err));
	CHECK("machine kt: options checked on an unbuilt view",
	      r == 0 && lazy.cpu != NULL);
	ktopo_free(&lazy);
	r = alloc_take(&lm, &st, &rq, &e, NULL, err, sizeof(err));
	CHECK_STR("machine kt: a take on an unbuilt view",
		  r == 0 ? list(&e.cpus) : err, "0,4");
	CHECK("machine kt: state_add", state_add(&st, &e) == 0);
	alloc_entry_free(&e);
	ktopo_free(&lazy);
	a = state_find(&st, "a");
	o = a->opts;
	r = alloc_resize(&lm, &st, a, 4, &o, err, sizeof(err));
	CHECK_STR("machine kt: a growth on an unbuilt view",
		  r == 0 ? list(&a->cpus) : err, "0-1,4-5");
	ktopo_free(&lazy);
	state_free(&st);
}

int
main(void)
{
	unit_alloc_machine(UNIT_ALLOC_SPEC);
	test_take();
	test_hints();
	test_resize();
	test_owner();
	test_check();
	test_reconcile();
	test_import();
	test_misc();
	test_machine_kt();
	unit_machine_remove();
	return unit_failed;
}
