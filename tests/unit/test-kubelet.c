/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kubelet allocation algorithms against the kubelet's own test table
 * (tests/kubelet/cases.tsv, one machine description per fixture in
 * tests/kubelet/NAME.spec) and against the worked examples of its CPU
 * manager: accumulator orderings, reserved CPUs, NUMA-hint alignment,
 * full-pcpus-only and option checks.
 *
 * Each table row runs twice when the topology reader can load a generated
 * sysfs tree: once on a topology built straight from the spec (core = the
 * lowest CPU of a socket's core id, uncore = the L3 id or the socket), and
 * once on the tree tests/gen-sysfs writes from the same spec, read back
 * with topo_load() and converted with ktopo_from_topo().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/macros.h"
#include "kube/kubelet.h"
#include "machine/sysroot.h"
#include "machine/topo.h"
#include "unit.h"

static const char *top = ".";

/* ---- topologies from spec files ---------------------------------------- */

struct spec_cpu {
	int id, core_id, socket, node, l3;
};

static int
load_spec(const char *name, struct ktopo *kt)
{
	char path[4096], line[512];
	struct spec_cpu *v = NULL;
	int n = 0, cap = 0, i, j, maxid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/kubelet/%s.spec", top, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct spec_cpu c = { -1, -1, -1, -1, -1 };
		char *tok, *save = NULL;
		int online = 1;

		if (strncmp(line, "cpu ", 4) != 0)
			continue;
		tok = strtok_r(line + 4, " \t\n", &save);
		c.id = atoi(tok);
		while ((tok = strtok_r(NULL, " \t\n", &save))) {
			if (!strncmp(tok, "core=", 5))
				c.core_id = atoi(tok + 5);
			else if (!strncmp(tok, "socket=", 7))
				c.socket = atoi(tok + 7);
			else if (!strncmp(tok, "node=", 5))
				c.node = atoi(tok + 5);
			else if (!strncmp(tok, "l3=", 3))
				c.l3 = atoi(tok + 3);
			else if (!strncmp(tok, "online=", 7))
				online = atoi(tok + 7);
		}
		if (!online)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = realloc(v, (size_t)cap * sizeof(*v));
			if (!v)
				abort();
		}
		v[n++] = c;
		if (c.id > maxid)
			maxid = c.id;
	}
	fclose(f);
	if (ktopo_alloc(kt, maxid + 1) < 0)
		abort();
	for (i = 0; i < n; i++) {
		struct ktopo_cpu *p = &kt->cpu[v[i].id];
		int core = v[i].id;

		/* The core is named by its lowest thread. */
		for (j = 0; j < n; j++)
			if (v[j].socket == v[i].socket &&
			    v[j].core_id == v[i].core_id && v[j].id < core)
				core = v[j].id;
		p->core = core;
		p->socket = v[i].socket;
		p->numa = v[i].node;
		p->uncore = v[i].l3 >= 0 ? v[i].l3 : v[i].socket;
	}
	free(v);
	return ktopo_count(kt);
}

/* Generate the sysfs tree of a spec and read it back; 0 or -errno. */
static int
load_sysfs(const char *name, const char *tmp, struct ktopo *kt)
{
	char spec[4096], dir[4096], cmd[12288], err[256];
	struct sysroot root;
	struct topo t;
	int r;

	snprintf(spec, sizeof(spec), "%s/tests/kubelet/%s.spec", top, name);
	snprintf(dir, sizeof(dir), "%s/%s", tmp, name);
	snprintf(cmd, sizeof(cmd), "python3 '%s/tests/gen-sysfs' '%s' '%s'",
		 top, spec, dir);
	r = system(cmd);
	if (r != 0)
		return -EIO;
	r = sysroot_open(&root, dir);
	if (r < 0)
		return r;
	memset(&t, 0, sizeof(t));
	r = topo_load(&t, &root, 0, err, sizeof(err));
	sysroot_close(&root);
	if (r < 0) {
		printf("# topo_load %s: %s\n", name, err);
		return r;
	}
	r = ktopo_from_topo(kt, &t);
	topo_free(&t);
	return r;
}

/* ---- running table rows ------------------------------------------------ */

static char *
set_str(const struct cpuset *s)
{
	char *p = cpuset_to_list(s);

	if (!p)
		abort();
	return p;
}

/* The row's answer: a cpulist, "(empty)" or "ERROR: message". */
static char *
run_row(const struct ktopo *kt, const char *availtext, int n,
	const char *opts)
{
	struct cpuset avail = CPUSET_INIT, out = CPUSET_INIT;
	char err[256] = "", *res;
	int r;

	if (cpuset_parse_list(availtext, &avail, err, sizeof(err)) < 0)
		return strdup("bad cpulist");
	if (!strncmp(opts, "distributed,group=", 18))
		r = kubelet_take_distributed(kt, &avail, n, atoi(opts + 18),
					     false, false, &out, err,
					     sizeof(err));
	else
		r = kubelet_take_packed(kt, &avail, n,
					strstr(opts, "spread") != NULL,
					strstr(opts, "uncorecache") != NULL,
					&out, err, sizeof(err));
	if (r < 0) {
		res = malloc(strlen(err) + 8);
		sprintf(res, "ERROR: %s", err);
	} else if (cpuset_empty(&out)) {
		res = strdup("(empty)");
	} else {
		res = set_str(&out);
	}
	cpuset_free(&avail);
	cpuset_free(&out);
	return res;
}

struct fixture {
	char name[96];
	struct ktopo spec, sysfs;
	bool have_sysfs;
};

static struct fixture fixtures[32];
static int nfixtures;

static struct fixture *
fixture(const char *name, const char *tmp, bool sysfs)
{
	struct fixture *fx;
	int i;

	for (i = 0; i < nfixtures; i++)
		if (!strcmp(fixtures[i].name, name))
			return &fixtures[i];
	if (nfixtures == (int)ARRAY_SIZE(fixtures))
		abort();
	fx = &fixtures[nfixtures++];
	snprintf(fx->name, sizeof(fx->name), "%s", name);
	if (load_spec(name, &fx->spec) < 0) {
		printf("# cannot read the spec of %s\n", name);
		nfixtures--;
		return NULL;
	}
	if (sysfs) {
		char tname[200];

		fx->have_sysfs = load_sysfs(name, tmp, &fx->sysfs) == 0;
		snprintf(tname, sizeof(tname), "the generated sysfs tree of %s "
			 "loads", name);
		CHECK(tname, fx->have_sysfs);
	}
	return fx;
}

static void
table(const char *tmp, bool sysfs)
{
	char path[4096], line[2048];
	FILE *f;
	int rows = 0;

	snprintf(path, sizeof(path), "%s/tests/kubelet/cases.tsv", top);
	f = fopen(path, "r");
	CHECK("the kubelet case table can be read", f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *field[6], *p = line, *got, name[600];
		struct fixture *fx;
		int i;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < 6; i++) {
			field[i] = p;
			p = strchr(p, '\t');
			if (!p && i < 5)
				break;
			if (p)
				*p++ = '\0';
		}
		if (i < 5) {
			printf("not ok - table row %d has 6 fields\n", rows);
			unit_failed = 1;
			continue;
		}
		rows++;
		fx = fixture(field[1], tmp, sysfs);
		if (!fx) {
			printf("not ok - %s # no fixture %s\n", field[0],
			       field[1]);
			unit_failed = 1;
			continue;
		}
		snprintf(name, sizeof(name), "%s", field[0]);
		got = run_row(&fx->spec, field[2], atoi(field[3]), field[4]);
		CHECK_STR(name, got, field[5]);
		free(got);
		snprintf(name, sizeof(name), "%s (from a generated sysfs tree)",
			 field[0]);
		if (!sysfs) {
			printf("skip - %s # CPM_KUBELET_NO_SYSFS is set\n",
			       name);
			continue;
		}
		if (!fx->have_sysfs) {
			printf("not ok - %s\n# no tree\n", name);
			unit_failed = 1;
			continue;
		}
		got = run_row(&fx->sysfs, field[2], atoi(field[3]), field[4]);
		CHECK_STR(name, got, field[5]);
		free(got);
	}
	fclose(f);
	CHECK("the kubelet case table has its 61 rows", rows == 61);
}

/* ---- worked examples --------------------------------------------------- */

static char *
order_str(const struct ktopo *kt, const char *availtext,
	  enum kubelet_order which, bool spread)
{
	struct cpuset avail = CPUSET_INIT;
	int v[512], n, i;
	char *s = malloc(4096);
	size_t len = 0;

	if (availtext)
		cpuset_parse_list(availtext, &avail, NULL, 0);
	else
		cpuset_copy(&avail, &kt->all);
	n = kubelet_order(kt, &avail, which, spread, v, 512);
	s[0] = '\0';
	for (i = 0; i < n && i < 512; i++)
		len += (size_t)snprintf(s + len, 4096 - len, "%s%d",
					i ? " " : "", v[i]);
	cpuset_free(&avail);
	return s;
}

static void
check_order(const char *name, const struct ktopo *kt, const char *avail,
	    enum kubelet_order which, bool spread, const char *want)
{
	char *got = order_str(kt, avail, which, spread);

	CHECK_STR(name, got, want);
	free(got);
}

/* A machine of n CPUs, each CPU's values from set(), counted. */
static void
machine_of(struct ktopo *kt, int n, void (*set)(struct ktopo_cpu *p, int c))
{
	int c;

	if (ktopo_alloc(kt, n) < 0)
		abort();
	for (c = 0; c < n; c++)
		set(&kt->cpu[c], c);
	if (ktopo_count(kt) < 0)
		abort();
}

/* topoTripleSocketHT: core c/2; CPUs 0-5 socket 1, 6-11 socket 0,
 * 12-17 socket 2; NUMA = socket. */
static void
triple_cpu(struct ktopo_cpu *p, int c)
{
	p->core = c / 2;
	p->socket = p->numa = c < 6 ? 1 : c < 12 ? 0 : 2;
	p->uncore = 0;
}

static void
triple(struct ktopo *kt)
{
	machine_of(kt, 18, triple_cpu);
}

/* triple() with its socket, NUMA and uncore ids spread far apart (in
 * the same order), so that they are too sparse for a table. */
static void
triple_sparse_cpu(struct ktopo_cpu *p, int c)
{
	int s = c < 6 ? 1 : c < 12 ? 0 : 2;

	p->core = c / 2;
	p->socket = p->numa = s * 500000000 + 7;
	p->uncore = s * 300000000;
}

static void
triple_sparse(struct ktopo *kt)
{
	machine_of(kt, 18, triple_sparse_cpu);
}

/* 8 CPUs without SMT, two sockets (NUMA the same), uncore ids taking
 * turns: runs of values with a step. */
static void
alternating_cpu(struct ktopo_cpu *p, int c)
{
	p->core = c;
	p->socket = p->numa = c / 4;
	p->uncore = 3 + c % 2;
}

static void
alternating(struct ktopo *kt)
{
	machine_of(kt, 8, alternating_cpu);
}

/* 16 CPUs without SMT: two sockets of two NUMA nodes each (sub-NUMA
 * clustering), an uncore cache per node. */
static void
snc_cpu(struct ktopo_cpu *p, int c)
{
	p->core = c;
	p->socket = c / 8;
	p->numa = p->uncore = c / 4;
}

static char *
take_str(const struct ktopo *kt, const char *availtext, int n,
	 const struct ktake_opts *o, const char *nodes, const char *reserved)
{
	struct cpuset avail = CPUSET_INIT, out = CPUSET_INIT;
	struct cpuset pn = CPUSET_INIT, res = CPUSET_INIT;
	char err[256] = "", *s;
	int r;

	cpuset_parse_list(availtext, &avail, NULL, 0);
	if (nodes)
		cpuset_parse_list(nodes, &pn, NULL, 0);
	if (reserved)
		cpuset_parse_list(reserved, &res, NULL, 0);
	r = kubelet_take(kt, &avail, n, o, nodes ? &pn : NULL,
			 reserved ? &res : NULL, &out, err, sizeof(err));
	if (r < 0) {
		s = malloc(strlen(err) + 8);
		sprintf(s, "ERROR: %s", err);
	} else {
		s = set_str(&out);
	}
	cpuset_free(&avail);
	cpuset_free(&out);
	cpuset_free(&pn);
	cpuset_free(&res);
	return s;
}

static void
check_take(const char *name, const struct ktopo *kt, const char *avail, int n,
	   const struct ktake_opts *o, const char *nodes, const char *reserved,
	   const char *want)
{
	char *got = take_str(kt, avail, n, o, nodes, reserved);

	CHECK_STR(name, got, want);
	free(got);
}

static void
check_reserved(const char *name, const struct ktopo *kt, int n,
	       const struct ktake_opts *o, const char *want)
{
	struct cpuset out = CPUSET_INIT;
	char err[256] = "", *got;
	int r;

	r = kubelet_take_reserved(kt, n, o, &out, err, sizeof(err));
	if (r < 0) {
		got = malloc(strlen(err) + 8);
		sprintf(got, "ERROR: %s", err);
	} else {
		got = set_str(&out);
	}
	CHECK_STR(name, got, want);
	free(got);
	cpuset_free(&out);
}

static void
check_opts(const char *name, const struct ktopo *kt,
	   const struct ktake_opts *o, const char *want)
{
	char err[256] = "";
	int r = ktake_opts_check(kt, o, err, sizeof(err));

	CHECK_STR(name, r == 0 ? "ok" : err, want);
}

/* Ids far apart count and order as dense ones in the same order. */
static void
sparse_ids(const struct ktopo *dense)
{
	struct ktake_opts o = { 0 };
	struct ktopo sp;
	char *a, *b;
	int i;
	static const char *const avail[] = { NULL, "0-3,6-13", "1-5,7,9-17" };

	triple_sparse(&sp);
	CHECK("sparse ids: the same counts",
	      sp.num_cpus == dense->num_cpus &&
	      sp.num_cores == dense->num_cores &&
	      sp.num_sockets == dense->num_sockets &&
	      sp.num_numa == dense->num_numa &&
	      sp.num_uncore == 3 && dense->num_uncore == 1 &&
	      cpuset_equal(&sp.all, &dense->all));
	for (i = 0; i < 3; i++) {
		char name[96];

		snprintf(name, sizeof(name), "sparse ids: CPU order, %s free",
			 avail[i] ? avail[i] : "all");
		a = order_str(dense, avail[i], KORDER_CPU, false);
		b = order_str(&sp, avail[i], KORDER_CPU, false);
		CHECK_STR(name, b, a);
		free(a);
		free(b);
		snprintf(name, sizeof(name), "sparse ids: free cores, %s free",
			 avail[i] ? avail[i] : "all");
		a = order_str(dense, avail[i], KORDER_FREE_CORE, false);
		b = order_str(&sp, avail[i], KORDER_FREE_CORE, false);
		CHECK_STR(name, b, a);
		free(a);
		free(b);
		snprintf(name, sizeof(name), "sparse ids: take 5, %s free",
			 avail[i] ? avail[i] : "all");
		a = take_str(dense, avail[i] ? avail[i] : "0-17", 5, &o, NULL,
			     NULL);
		b = take_str(&sp, avail[i] ? avail[i] : "0-17", 5, &o, NULL,
			     NULL);
		CHECK_STR(name, b, a);
		free(a);
		free(b);
	}
	ktopo_free(&sp);
}

/* kt counted as ref: the same CPUs, counts, ids and ranks. */
static bool
same_counts(const struct ktopo *kt, const struct ktopo *ref)
{
	bool ok;
	int k, c;

	ok = kt->num_cpus == ref->num_cpus && kt->num_cores == ref->num_cores &&
	     kt->num_sockets == ref->num_sockets &&
	     kt->num_numa == ref->num_numa &&
	     kt->num_uncore == ref->num_uncore &&
	     cpuset_equal(&kt->all, &ref->all);
	for (k = 0; ok && k < 4; k++) {
		ok = kt->nids[k] == ref->nids[k] &&
		     !kt->rank[k] == !ref->rank[k] &&
		     memcmp(kt->ids[k], ref->ids[k],
			    (size_t)ref->nids[k] * sizeof(int)) == 0;
		for (c = 0; ok && kt->rank[k] && c < ref->nids[k]; c++)
			ok = kt->rank[k][ref->ids[k][c] - kt->rank_lo[k]] == c;
	}
	return ok;
}

/* ktopo_count_known() given what ktopo_count() finds keeps the same. */
static void
counted_known(void (*make)(struct ktopo *), const char *what)
{
	struct ktopo kt, ref;
	int k, c, n = 0, lo[4] = { 1 << 30, 1 << 30, 1 << 30, 1 << 30 };
	int hi[4] = { -1, -1, -1, -1 }, ok;
	char name[96];

	make(&ref);
	make(&kt);
	for (c = 0; c < kt.ncpus; c++) {
		const int v[4] = { kt.cpu[c].core, kt.cpu[c].socket,
				   kt.cpu[c].numa, kt.cpu[c].uncore };

		n++;
		for (k = 0; k < 4; k++) {
			lo[k] = v[k] < lo[k] ? v[k] : lo[k];
			hi[k] = v[k] > hi[k] ? v[k] : hi[k];
		}
	}
	ok = ktopo_count_known(&kt, &ref.all, n, lo, hi) == 0 &&
	     same_counts(&kt, &ref);
	snprintf(name, sizeof(name), "counted from known bounds: %s", what);
	CHECK(name, ok);
	ktopo_free(&kt);
	ktopo_free(&ref);
}

/* The values of ref (every slot a CPU) as the longest runs of one step,
 * as a layout keeps them. */
static void
runs_of(const struct ktopo *ref, struct krun *runs[4], int nruns[4])
{
	int k, c;

	for (k = 0; k < 4; k++) {
		runs[k] = calloc((size_t)ref->ncpus, sizeof(struct krun));
		nruns[k] = 0;
		for (c = 0; c < ref->ncpus; c++) {
			const int v[4] = { ref->cpu[c].core, ref->cpu[c].socket,
					   ref->cpu[c].numa, ref->cpu[c].uncore };
			struct krun *u = &runs[k][nruns[k] - 1];

			if (nruns[k] && (u->count == 1 ||
			    v[k] - u->first == u->step * u->count)) {
				if (u->count == 1)
					u->step = v[k] - u->first;
				u->count++;
				continue;
			}
			runs[k][nruns[k]++] = (struct krun){ v[k], 0, 1 };
		}
	}
}

/* 64 CPUs: two sockets of two NUMA nodes, SMT-2 with the siblings 32
 * apart (core c % 32), an uncore cache per 4 cores (8 CPUs). */
static void
big_cpu(struct ktopo_cpu *p, int c)
{
	int x = c % 32;

	p->core = x;
	p->socket = x / 16;
	p->numa = x / 8;
	p->uncore = 100 + x / 4;
}

static void
big(struct ktopo *kt)
{
	machine_of(kt, 64, big_cpu);
}

/* 48 CPUs without SMT in one socket, NUMA nodes of 12 CPUs with ids
 * counting down, an uncore cache per 6 CPUs. */
static void
flat_cpu(struct ktopo_cpu *p, int c)
{
	p->core = c;
	p->socket = 0;
	p->numa = 3 - c / 12;
	p->uncore = c / 6;
}

static void
flat(struct ktopo *kt)
{
	machine_of(kt, 48, flat_cpu);
}

/* 16 CPUs without SMT, each its own socket, two NUMA nodes of 8
 * sockets each: a node's socket changes within its run. */
static void
many_sockets_cpu(struct ktopo_cpu *p, int c)
{
	p->core = p->socket = c;
	p->numa = p->uncore = c / 8;
}

static void
many_sockets(struct ktopo *kt)
{
	machine_of(kt, 16, many_sockets_cpu);
}

/* 22 CPUs, SMT-2 with the siblings 11 apart: runs of 11 cores in a row
 * (the index fills them eight and four at a time, and the rest one by
 * one), two sockets of 6 and 5 cores, one NUMA node each, an uncore
 * cache per 3 cores. */
static void
odd_cpu(struct ktopo_cpu *p, int c)
{
	p->core = c % 11;
	p->socket = p->numa = c % 11 / 6;
	p->uncore = c % 11 / 3;
}

static void
odd(struct ktopo *kt)
{
	machine_of(kt, 22, odd_cpu);
}

/*
 * A topology made from runs without its per-CPU array (the index of a
 * take built from the runs) takes and orders CPUs as the same machine
 * counted CPU by CPU: every count, on an idle machine and on three of
 * busy CPUs, with each option, with NUMA hints and with CPUs reserved.
 */
/*
 * 65536 CPUs, the most a cpuset holds: SMT-2 with the siblings 32768
 * apart, 4 sockets of 2 NUMA nodes, an uncore cache per 32 cores.  The
 * index numbers CPUs and units in 16 bits: the highest must come out
 * whole, counted CPU by CPU and from runs.
 */
static void
largest_cpu(struct ktopo_cpu *p, int c)
{
	int x = c % 32768;

	p->core = x;
	p->socket = x / 8192;
	p->numa = x / 4096;
	p->uncore = x / 32;
}

static void
largest(void)
{
	static const struct krun one = { 0, 0, CPUSET_MAX_CPUS + 1 };
	const struct krun *const over[4] = { &one, &one, &one, &one };
	const int nover[4] = { 1, 1, 1, 1 };
	struct ktake_opts none = { 0 }, whole = { 0 };
	struct ktopo kt[2], bad;
	struct krun *runs[4];
	int nruns[4], k, i;
	char name[160];

	whole.full_cores = true;
	CHECK("more CPUs than a cpuset holds: refused by hand",
	      ktopo_alloc(&bad, CPUSET_MAX_CPUS + 1) == -EINVAL);
	CHECK("more CPUs than a cpuset holds: refused from runs",
	      ktopo_from_runs(&bad, CPUSET_MAX_CPUS + 1, over, nover) ==
	      -EINVAL);
	machine_of(&kt[0], CPUSET_MAX_CPUS, largest_cpu);
	runs_of(&kt[0], runs, nruns);
	CHECK("65536 CPUs from runs",
	      ktopo_from_runs(&kt[1], kt[0].ncpus,
			      (const struct krun *const *)runs, nruns) == 0);
	for (k = 0; k < 4; k++)
		free(runs[k]);
	for (i = 0; i < 2; i++) {
		const char *how = i ? "from runs" : "CPU by CPU";

		snprintf(name, sizeof(name), "65536 CPUs, %s: the last "
			 "threads", how);
		check_take(name, &kt[i], "65532-65535", 4, &none, NULL, NULL,
			   "65532-65535");
		snprintf(name, sizeof(name), "65536 CPUs, %s: the last core "
			 "whole", how);
		check_take(name, &kt[i], "32766-32767,65535", 2, &whole, NULL,
			   NULL, "32767,65535");
		snprintf(name, sizeof(name), "65536 CPUs, %s: whole cores of "
			 "the last NUMA node", how);
		check_take(name, &kt[i], "28672-32767,61440-65535", 4, &none,
			   NULL, NULL, "28672-28673,61440-61441");
		snprintf(name, sizeof(name), "65536 CPUs, %s: the first "
			 "cores of a free machine", how);
		check_take(name, &kt[i], "0-65535", 8, &none, NULL, NULL,
			   "0-3,32768-32771");
		ktopo_free(&kt[i]);
	}
}

static void
runs_take_same(void (*make)(struct ktopo *), const char *what)
{
	static const char *const busy[] = { NULL, "3,7-9,33,40-47",
					    "0-5,20,31-36,50-63", "1-62:1/2" };
	struct ktake_opts opts[7] = { { 0 } };
	struct ktopo kt, ref;
	struct krun *runs[4];
	int nruns[4], k, b, i, n, bad = 0, takes = 0;
	char name[160], avail[512], first[2048] = "";

	opts[1].spread_cores = true;
	opts[2].prefer_l3 = true;
	opts[3].distribute = 1;
	opts[4].full_cores = true;
	opts[4].distribute = 2;
	opts[5].align_socket = true;
	opts[6].full_cores = true;
	make(&ref);
	runs_of(&ref, runs, nruns);
	snprintf(name, sizeof(name), "made from runs without a per-CPU "
		 "array: %s", what);
	CHECK(name, ktopo_from_runs(&kt, ref.ncpus,
				    (const struct krun *const *)runs,
				    nruns) == 0 && kt.cpu == NULL);
	for (b = 0; b < 4; b++) {
		struct cpuset av = CPUSET_INIT, off = CPUSET_INIT;
		char *t;

		cpuset_copy(&av, &ref.all);
		if (busy[b]) {
			cpuset_parse_list(busy[b], &off, NULL, 0);
			cpuset_andnot(&av, &off);
		}
		t = set_str(&av);
		snprintf(avail, sizeof(avail), "%s", t);
		free(t);
		for (i = 0; i < 7; i++)
			for (n = 1; n <= ref.ncpus; n++) {
				static const char *const hints[] = { NULL, "0",
								     "1,2" };
				static const char *const res[] = { NULL, "0,32" };
				int h = n % 3, rv = n % 2;
				char *x = take_str(&kt, avail, n, &opts[i],
						   hints[h], res[rv]);
				char *y = take_str(&ref, avail, n, &opts[i],
						   hints[h], res[rv]);

				takes++;
				if (strcmp(x, y) != 0 && bad++ == 0)
					snprintf(first, sizeof(first),
						 "avail %s, %d CPUs, options "
						 "%d: %s, not %s", avail, n, i,
						 x, y);
				free(x);
				free(y);
			}
		for (k = KORDER_NUMA; k <= KORDER_CPU; k++)
			for (i = 0; i < 2; i++) {
				char *x = order_str(&kt, avail, k, i);
				char *y = order_str(&ref, avail, k, i);

				takes++;
				if (strcmp(x, y) != 0 && bad++ == 0)
					snprintf(first, sizeof(first),
						 "avail %s, order %d: %s, not "
						 "%s", avail, k, x, y);
				free(x);
				free(y);
			}
		cpuset_free(&av);
		cpuset_free(&off);
	}
	if (bad)
		printf("# %d of %d differ; first: %s\n", bad, takes, first);
	snprintf(name, sizeof(name), "takes and orders from runs are the "
		 "per-CPU ones: %s", what);
	CHECK(name, bad == 0 && takes >= 28 * ref.ncpus);
	snprintf(name, sizeof(name), "its per-CPU array made on demand is "
		 "the machine's: %s", what);
	CHECK(name, ktopo_cpus(&kt) == 0 && kt.cpu &&
	      memcmp(kt.cpu, ref.cpu, (size_t)ref.ncpus *
		     sizeof(*kt.cpu)) == 0);
	for (k = 0; k < 4; k++)
		free(runs[k]);
	ktopo_free(&kt);
	ktopo_free(&ref);
}

/*
 * ktopo_from_runs() given the values of a topology with every slot a CPU,
 * in the longest runs of one step, makes what ktopo_count() makes; runs
 * that do not cover the CPUs or hold a negative value are refused.
 */
static void
counted_from_runs(void (*make)(struct ktopo *), const char *what)
{
	struct ktopo kt, ref;
	struct krun *runs[4];
	int nruns[4], k, c, ok;
	char name[96];

	make(&ref);
	runs_of(&ref, runs, nruns);
	ok = ktopo_from_runs(&kt, ref.ncpus, (const struct krun *const *)runs,
			     nruns) == 0 && ktopo_cpus(&kt) == 0;
	for (c = 0; ok && c < ref.ncpus; c++)
		ok = memcmp(&kt.cpu[c], &ref.cpu[c], sizeof(kt.cpu[c])) == 0;
	ok = ok && same_counts(&kt, &ref);
	snprintf(name, sizeof(name), "counted from runs: %s", what);
	CHECK(name, ok);
	if (ok)
		ktopo_free(&kt);
	nruns[1]--;
	snprintf(name, sizeof(name), "runs short of the CPUs refused: %s",
		 what);
	CHECK(name, ktopo_from_runs(&kt, ref.ncpus,
				    (const struct krun *const *)runs,
				    nruns) == -EINVAL);
	nruns[1]++;
	runs[2][0].first = -1;
	snprintf(name, sizeof(name), "a negative value refused: %s", what);
	CHECK(name, ktopo_from_runs(&kt, ref.ncpus,
				    (const struct krun *const *)runs,
				    nruns) == -EINVAL);
	for (k = 0; k < 4; k++)
		free(runs[k]);
	ktopo_free(&ref);
}

/* The distinct ids ktopo_count() keeps, and takes without them. */
static void
kept_ids(struct ktopo *dense)
{
	struct ktake_opts o = { 0 };
	struct ktopo sp, bare;
	char *a, *b;
	int k, ok;

	/* triple(): cores 0-8, sockets 0-2 (NUMA the same), uncore 0. */
	CHECK("kept ids: counted", dense->ids[0] && dense->nids[0] == 9 &&
	      dense->nids[1] == 3 && dense->nids[2] == 3 &&
	      dense->nids[3] == 1);
	ok = dense->ids[1] && dense->ids[1][0] == 0 && dense->ids[1][2] == 2 &&
	     dense->rank[1] && dense->rank_lo[1] == 0 &&
	     dense->rank[1][2] == 2 && dense->rank[0] &&
	     dense->rank[0][8 - dense->rank_lo[0]] == 8;
	CHECK("kept ids: ascending, with a table of ranks", ok);
	triple_sparse(&sp);
	CHECK("kept ids: no table for ids far apart",
	      sp.rank[1] == NULL && sp.nids[1] == 3 &&
	      sp.ids[1][1] == 500000007 && sp.ids[3][2] == 600000000);
	ktopo_free(&sp);

	/* A topology whose ids were not kept takes the same. */
	triple(&bare);
	for (k = 0; k < 4; k++) {
		free(bare.ids[k]);
		free(bare.rank[k]);
		bare.ids[k] = bare.rank[k] = NULL;
	}
	a = take_str(dense, "1-5,7,9-17", 5, &o, NULL, NULL);
	b = take_str(&bare, "1-5,7,9-17", 5, &o, NULL, NULL);
	CHECK_STR("kept ids: a take without them", b, a);
	free(a);
	free(b);
	a = order_str(dense, "0-3,6-13", KORDER_CPU, false);
	b = order_str(&bare, "0-3,6-13", KORDER_CPU, false);
	CHECK_STR("kept ids: an order without them", b, a);
	free(a);
	free(b);

	/* Counted again after a change: CPUs 12-17 move to socket 5. */
	for (k = 12; k < 18; k++)
		bare.cpu[k].socket = bare.cpu[k].numa = 5;
	CHECK("kept ids: counted again", ktopo_count(&bare) == 0 &&
	      bare.nids[1] == 3 && bare.ids[1][2] == 5 &&
	      bare.rank[1][5 - bare.rank_lo[1]] == 2);
	a = order_str(dense, "0-3,6-13", KORDER_NUMA, false);
	b = order_str(&bare, "0-3,6-13", KORDER_NUMA, false);
	CHECK_STR("kept ids: the new ids in the order", b, "5 1 0");
	CHECK_STR("kept ids: as before under the old ids", a, "2 1 0");
	free(a);
	free(b);
	ktopo_free(&bare);
}

static void
examples(const char *tmp)
{
	struct fixture *ss = fixture("topoSingleSocketHT", tmp, false);
	struct fixture *ds = fixture("topoDualSocketHT", tmp, false);
	struct fixture *mn = fixture("topoDualSocketMultiNumaPerSocketHT", tmp,
				     false);
	struct fixture *un = fixture("topoUncoreSingleSocketSMT", tmp, false);
	struct ktake_opts none = { 0 }, o;
	struct ktopo tr, sn;

	if (!ss || !ds || !mn || !un) {
		CHECK("the example fixtures load", false);
		return;
	}
	check_order("free cores of an idle dual-socket HT machine are 0 2 4 1 3 5",
		    &ds->spec, NULL, KORDER_FREE_CORE, false, "0 2 4 1 3 5");
	check_order("with CPUs 0 and 6 busy the free cores are 2 4 1 3 5",
		    &ds->spec, "1-5,7-11", KORDER_FREE_CORE, false,
		    "2 4 1 3 5");
	check_order("packed CPU order of an idle dual-socket HT machine "
		    "keeps siblings together", &ds->spec, NULL, KORDER_CPU,
		    false, "0 6 2 8 4 10 1 7 3 9 5 11");
	check_order("spread CPU order of an idle dual-socket HT machine "
		    "reaches siblings last", &ds->spec, NULL, KORDER_CPU, true,
		    "0 2 4 6 8 10 1 3 5 7 9 11");
	triple(&tr);
	check_order("triple-socket packed CPU order starts with the fullest "
		    "NUMA node", &tr, "0-3,6-13", KORDER_CPU, false,
		    "12 13 0 1 2 3 6 7 8 9 10 11");
	check_order("triple-socket NUMA order is fullest first", &tr,
		    "0-3,6-13", KORDER_NUMA, false, "2 1 0");
	machine_of(&sn, 16, snc_cpu);
	check_order("nodes within sockets: a node with no free CPU is not "
		    "listed", &sn, "4-15", KORDER_NUMA, false, "1 2 3");
	check_order("nodes within sockets: fullest socket first, then its "
		    "fullest node", &sn, "0-3,5-7,9-15", KORDER_NUMA, false,
		    "1 0 2 3");
	check_order("nodes within sockets: socket order", &sn, "0-8",
		    KORDER_SOCKET, false, "1 0");
	ktopo_free(&sn);
	sparse_ids(&tr);
	kept_ids(&tr);
	counted_known(triple, "dense ids");
	counted_known(triple_sparse, "ids far apart");
	counted_from_runs(triple, "dense ids");
	counted_from_runs(triple_sparse, "ids far apart");
	counted_from_runs(alternating, "values with a step");
	counted_from_runs(big, "two sockets, SMT siblings apart");
	runs_take_same(big, "two sockets, SMT siblings apart");
	runs_take_same(flat, "no SMT, NUMA ids counting down");
	runs_take_same(many_sockets, "sockets within NUMA nodes");
	runs_take_same(odd, "runs of 11 cores, sockets of 6 and 5");
	largest();
	ktopo_free(&tr);
	check_order("uncore caches are listed per NUMA node, fullest first",
		    &un->spec, "1-7,9-15", KORDER_UNCORE, false, "0 1");

	check_reserved("2 reserved CPUs on a single-socket HT machine are "
		       "one core", &ss->spec, 2, &none, "0,4");
	check_reserved("2 reserved CPUs on a dual-socket HT machine are "
		       "core 0", &ds->spec, 2, &none, "0,6");
	check_reserved("3 reserved CPUs on a dual-socket HT machine stay "
		       "on socket 0", &ds->spec, 3, &none, "0,2,6");
	check_reserved("4 reserved CPUs on the 80-CPU machine are its two "
		       "lowest cores", &mn->spec, 4, &none, "0-1,40-41");
	check_reserved("0 reserved CPUs are none", &ss->spec, 0, &none, "");
	check_reserved("reserving more CPUs than exist fails like the kubelet",
		       &ss->spec, 9, &none, "ERROR: [cpumanager] unable to "
		       "reserve the required amount of CPUs (size of  did not "
		       "equal 9)");

	check_take("one CPU on a dual-socket HT machine with 0 and 6 busy "
		   "lands on socket 0", &ds->spec, "1-5,7-11", 1, &none, NULL,
		   NULL, "2");
	check_take("a NUMA hint takes the aligned CPUs first", &mn->spec,
		   "2,11,21,22", 2, &none, "0,2", NULL, "2,21");
	o = none;
	o.align_socket = true;
	check_take("align-by-socket widens the NUMA hint to its sockets",
		   &mn->spec, "2,11,21,22", 2, &o, "0,2", NULL, "2,11");
	check_take("a hint that cannot hold the request is topped up from "
		   "elsewhere", &mn->spec, "0-79", 22, &none, "1", NULL,
		   "0,10-19,40,50-59");
	o = none;
	o.full_cores = true;
	check_take("full-pcpus-only refuses an odd count", &ds->spec, "0-11",
		   3, &o, NULL, NULL, "ERROR: SMT Alignment Error: requested 3 "
		   "cpus not multiple cpus per core = 2");
	check_take("full-pcpus-only counts the siblings of reserved CPUs as "
		   "busy", &ss->spec, "1-3,5-7", 8, &o, NULL, "0",
		   "ERROR: SMT Alignment Error: not enough free physical CPUs: "
		   "available physical CPUs = 6, requested CPUs = 8, CPUs per "
		   "core = 2");
	check_take("full-pcpus-only takes whole cores", &ss->spec, "1-3,5-7",
		   4, &o, NULL, "0", "1-2,5-6");
	check_take("a take that does not fit reports the kubelet's numbers",
		   &ss->spec, "0,2,4,6", 5, &none, NULL, NULL,
		   "ERROR: not enough cpus available to satisfy request: "
		   "requested=5, available=4");
	o = none;
	o.distribute = 1;
	o.full_cores = true;
	check_take("full-pcpus-only makes the distribute group a whole core",
		   &mn->spec, "0-79", 26, &o, NULL, NULL,
		   "0-6,10-15,40-46,50-55");

	{
		struct fixture *lg = fixture(
		    "topoDualSocketMultiNumaPerSocketHTLarge", tmp, false);

		/*
		 * The kubelet keeps its best NUMA combination in a Go slice
		 * whose backing array later combinations overwrite (k = 4
		 * and k = 6 here): 128 CPUs over 8 idle nodes land on nodes
		 * 0, 1, 2 and 7, not 0-3.  Checked against the Go code.
		 */
		o = none;
		o.distribute = 1;
		if (lg) {
			check_take("distributing 128 CPUs over 8 idle NUMA nodes "
				   "keeps the kubelet's choice of nodes 0,1,2,7",
				   &lg->spec, "0-255", 128, &o, NULL, NULL,
				   "0-47,112-175,240-255");
			check_take("distributing 192 CPUs keeps the kubelet's "
				   "choice of nodes 0-4 and 7", &lg->spec,
				   "0-255", 192, &o, NULL, NULL,
				   "0-79,112-207,240-255");
			check_take("distributing 160 CPUs over 5 nodes is "
				   "not affected", &lg->spec, "0-255", 160, &o,
				   NULL, NULL, "0-79,128-207");
			o.align_socket = true;
			o.distribute = 2;
			check_take("align-by-socket does not protect the kubelet's "
				   "overwritten combination", &lg->spec, "0-255",
				   128, &o, NULL, NULL, "0-47,112-175,240-255");
		}
	}

	o = none;
	o.full_cores = o.spread_cores = true;
	check_opts("full-pcpus-only and distribute-cpus-across-cores conflict",
		   &ds->spec, &o, "static policy options full-pcpus-only and "
		   "distribute-cpus-across-cores can not be used at the same "
		   "time");
	o = none;
	o.distribute = 1;
	o.spread_cores = true;
	check_opts("distribute-cpus-across-numa and -cores conflict",
		   &ds->spec, &o, "static policy options "
		   "distribute-cpus-across-numa and distribute-cpus-across-cores "
		   "can not be used at the same time");
	o = none;
	o.prefer_l3 = o.spread_cores = true;
	check_opts("prefer-align-cpus-by-uncorecache and "
		   "distribute-cpus-across-cores conflict", &ds->spec, &o,
		   "static policy options prefer-align-cpus-by-uncorecache and "
		   "distribute-cpus-across-cores can not be used at the same "
		   "time");
	o = none;
	o.prefer_l3 = true;
	o.distribute = 1;
	check_opts("prefer-align-cpus-by-uncorecache and "
		   "distribute-cpus-across-numa conflict", &ds->spec, &o,
		   "static policy options prefer-align-cpus-by-uncorecache and "
		   "distribute-cpus-across-numa can not be used at the same "
		   "time");
	o = none;
	o.align_socket = o.single_numa_node = true;
	check_opts("align-by-socket refuses the single-numa-node policy",
		   &ds->spec, &o, "Topolgy manager single-numa-node policy is "
		   "incompatible with CPUManager align-by-socket policy option");
	o = none;
	o.align_socket = true;
	check_opts("align-by-socket works with one NUMA node per socket",
		   &ds->spec, &o, "ok");
	{
		struct fixture *ud = fixture("topoUncoreDualSocketNoSMT", tmp,
					     false);

		if (ud)
			check_opts("align-by-socket refuses more sockets than "
				   "NUMA nodes", &ud->spec, &o, "Align by "
				   "socket is not compatible with hardware "
				   "where number of sockets are more than "
				   "number of NUMA");
	}
	o = none;
	o.full_cores = o.prefer_l3 = true;
	o.distribute = 0;
	check_opts("full-pcpus-only and prefer-align-cpus-by-uncorecache "
		   "combine", &ds->spec, &o, "ok");
}

int
main(void)
{
	char tmp[] = "/tmp/cpm-kubelet.XXXXXX", cmd[64];
	const char *e = getenv("CPM_TOP");
	bool sysfs;
	int i;

	if (e && *e)
		top = e;
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	sysfs = getenv("CPM_KUBELET_NO_SYSFS") == NULL;
	table(tmp, sysfs);
	examples(tmp);
	for (i = 0; i < nfixtures; i++) {
		ktopo_free(&fixtures[i].spec);
		if (fixtures[i].have_sysfs)
			ktopo_free(&fixtures[i].sysfs);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		return 1;
	return unit_failed;
}
