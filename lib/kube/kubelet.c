/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kubelet CPU Manager static policy's CPU selection (cpu_assignment.go
 * and the Allocate step of policy_static.go), reproduced decision for
 * decision so that cpm and a kubelet agree on every CPU.
 *
 * Terminology (the kubelet's):
 *   unit        a core, socket, NUMA node or uncore cache;
 *   free CPU    a CPU of the topology that is in the available set and
 *               not yet taken by the running accumulator;
 *   free unit   a unit whose CPUs are all free; for cores and sockets the
 *               kubelet compares with the header-derived CPUs per core /
 *               per socket, for NUMA nodes and uncore caches with the
 *               real CPU count;
 *   fullest     ordering by ascending free-CPU count, then ascending id
 *               (best fit).
 *
 * Units are numbered densely here, in ascending id order, so "lower id
 * first" is "lower index first".
 *
 * Deliberate differences, all in situations where the kubelet misbehaves
 * (they never change a result the kubelet returns normally):
 *   - taking a unit takes only its free CPUs and counts only those, so a
 *     busy CPU is never handed out even when the header counts make a
 *     partly used socket or core look free (asymmetric machines), and a
 *     unit listed twice is not counted twice;
 *   - the remainder hand-out of the distributed algorithm stops when a
 *     round makes no progress, where the kubelet would loop forever (this
 *     surfaces as its "accounting error" message);
 *   - a zero CPUs-per-core header skips the partial uncore step instead of
 *     dividing by zero.
 * What is reproduced although it looks accidental: the Go slice aliasing
 * of iterateCombinations (a combination kept as "best" can be rewritten
 * by later combinations that share its backing array; see go_append()).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/sort.h"
#include "kube/kubelet.h"

enum { K_CORE, K_SOCKET, K_NUMA, K_UNCORE, K_N, K_CPU_NONE = -1 };

/* A growable int vector. */
struct ivec {
	int *v;
	int n, cap;
};

static int
ivec_push(struct ivec *a, int x)
{
	if (a->n == a->cap) {
		int ncap = a->cap ? 2 * a->cap : 16;
		int *nv = realloc(a->v, (size_t)ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		a->v = nv;
		a->cap = ncap;
	}
	a->v[a->n++] = x;
	return 0;
}

static void
ivec_free(struct ivec *a)
{
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

/* p[0..n) = v, four at a time (GCC makes them one vector store). */
static void
fill_int(int *p, int v, int n)
{
	int j = 0;

	for (; j + 4 <= n; j += 4) {
		p[j] = v;
		p[j + 1] = v;
		p[j + 2] = v;
		p[j + 3] = v;
	}
	for (; j < n; j++)
		p[j] = v;
}

/* Four ints as one GCC generic vector (see kix8 below). */
typedef int int4 __attribute__((vector_size(4 * sizeof(int))));

/* p[0..n) += 1, four at a time. */
static void
add_one(int *p, int n)
{
	const int4 one = { 1, 1, 1, 1 };
	int j = 0;

	for (; j + 4 <= n; j += 4) {
		int4 x;

		memcpy(&x, p + j, sizeof(x));
		x += one;
		memcpy(p + j, &x, sizeof(x));
	}
	for (; j < n; j++)
		p[j]++;
}

/*
 * The index's CPUs and units (struct kindex) as 16 bits: a cpuset holds
 * CPUSET_MAX_CPUS (65536) CPUs at most, so no CPU or unit number is
 * above 65535, and half the memory of ints is half the pages a take
 * touches on a large machine.
 */
typedef uint16_t kix;

/* p[0..n) = v, four at a time. */
static void
fill_kix(kix *p, int v, int n)
{
	int j = 0;

	for (; j + 4 <= n; j += 4) {
		p[j] = (kix)v;
		p[j + 1] = (kix)v;
		p[j + 2] = (kix)v;
		p[j + 3] = (kix)v;
	}
	for (; j < n; j++)
		p[j] = (kix)v;
}

/* Eight kix: GCC's generic vectors, one SSE2 register on x86-64 (and
 * plain stores where a target has none). */
typedef kix kix8 __attribute__((vector_size(8 * sizeof(kix))));

/* p[0..n) = v, v + 1, ..., eight at a time (a 4096-CPU index is filled
 * with 512 vector adds and stores, not 4096 scalar ones). */
static void
fill_seq(kix *p, int v, int n)
{
	kix8 x = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const kix8 eight = { 8, 8, 8, 8, 8, 8, 8, 8 };
	int j = 0;

	x += (kix)v;
	for (; j + 8 <= n; j += 8) {
		memcpy(p + j, &x, sizeof(x));
		x += eight;
	}
	for (; j < n; j++)
		p[j] = (kix)(v + j);
}

/* ------------------------------------------------------------------ */
/* The topology                                                         */

int
ktopo_alloc(struct ktopo *kt, int ncpus)
{
	int c;

	memset(kt, 0, sizeof(*kt));
	if (ncpus < 0 || ncpus > CPUSET_MAX_CPUS)
		return -EINVAL;
	/* every slot is set below: no need to zero it first */
	kt->cpu = malloc((ncpus > 0 ? (size_t)ncpus : 1) * sizeof(*kt->cpu));
	if (!kt->cpu)
		return -ENOMEM;
	kt->ncpus = ncpus;
	for (c = 0; c < ncpus; c++) {
		kt->cpu[c].core = kt->cpu[c].socket = -1;
		kt->cpu[c].numa = kt->cpu[c].uncore = -1;
	}
	cpuset_init(&kt->all);
	return 0;
}

/* Forget the distinct ids ktopo_count() kept. */
static void
ktopo_drop_ids(struct ktopo *kt)
{
	int k;

	for (k = 0; k < K_N; k++) {
		free(kt->ids[k]);
		free(kt->rank[k]);
		free(kt->runs[k]);
		kt->ids[k] = kt->rank[k] = NULL;
		kt->runs[k] = NULL;
		kt->nids[k] = kt->rank_lo[k] = kt->nruns[k] = 0;
	}
}

void
ktopo_free(struct ktopo *kt)
{
	if (!kt)
		return;
	ktopo_drop_ids(kt);
	free(kt->cpu);
	cpuset_free(&kt->all);
	memset(kt, 0, sizeof(*kt));
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static bool
ktopo_is_cpu(const struct ktopo *kt, int c)
{
	const struct ktopo_cpu *p = &kt->cpu[c];

	/* all four >= 0: no sign bit in any */
	return (p->core | p->socket | p->numa | p->uncore) >= 0;
}

/* Where attribute k (K_CORE ...) is in a struct ktopo_cpu. */
static const size_t attr_offset[K_N] = {
	offsetof(struct ktopo_cpu, core), offsetof(struct ktopo_cpu, socket),
	offsetof(struct ktopo_cpu, numa), offsetof(struct ktopo_cpu, uncore),
};

static int
attr_of(const struct ktopo_cpu *p, int k)
{
	return *(const int *)((const char *)p + attr_offset[k]);
}

/* Values at most this far apart are ranked through a table. */
#define KINDEX_DIRECT(n) (64 * (size_t)(n) + 4096)

/* Whether ids lo..hi are close enough for a table of n CPUs' ranks. */
static inline bool
direct_span(long long lo, long long hi, int n)
{
	return (size_t)(hi - lo) + 1 <= KINDEX_DIRECT(n);
}

/*
 * The distinct values of v[0..n) (none negative), ascending, into
 * v[0..m); returns m.  When rank is not NULL, *rank gets a table
 * (malloc'ed) from value - *lo to the value's index in v, or NULL when
 * the values are too spread out for one (or memory is short).
 */
static int
distinct(int *v, int n, int **rank, int *lo)
{
	int i, m = 0, min, max, *t;
	size_t span, x;

	if (rank)
		*rank = NULL;
	if (n <= 0)
		return 0;
	min = max = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < min)
			min = v[i];
		if (v[i] > max)
			max = v[i];
	}
	span = (size_t)((long long)max - min) + 1;
	t = min >= 0 && span <= KINDEX_DIRECT(n) ?
	    calloc(span, sizeof(*t)) : NULL;
	if (!t)
		return (int)uniq_ints(v, (size_t)n);
	/* Mark each value, then number the marks in order. */
	for (i = 0; i < n; i++)
		t[v[i] - min] = 1;
	for (x = 0; x < span; x++)
		if (t[x]) {
			t[x] = m;
			v[m++] = min + (int)x;
		}
	if (rank) {
		*rank = t;
		*lo = min;
	} else {
		free(t);
	}
	return m;
}

static int count_ids(struct ktopo *kt, int n, const int *lo, const int *hi,
		     const struct krun *const *runs, const int *nruns);

int
ktopo_count(struct ktopo *kt)
{
	int n = 0, c, k, first = -1, r = 0, lo[K_N], hi[K_N];

	if (ktopo_cpus(kt) < 0)
		return -ENOMEM;
	cpuset_zero(&kt->all);
	ktopo_drop_ids(kt);
	for (k = 0; k < K_N; k++) {
		lo[k] = INT_MAX;
		hi[k] = -1;
	}
	/* One pass: the CPUs as ranges, and each attribute's bounds. */
	for (c = 0; c < kt->ncpus && r == 0; c++) {
		const struct ktopo_cpu *p = &kt->cpu[c];

		if (!ktopo_is_cpu(kt, c)) {
			if (first >= 0)
				r = cpuset_set_range(&kt->all,
						     (unsigned int)first,
						     (unsigned int)c - 1);
			first = -1;
			continue;
		}
		if (first < 0)
			first = c;
		n++;
		ktopo_bound(lo, hi, p);
	}
	if (r == 0 && first >= 0)
		r = cpuset_set_range(&kt->all, (unsigned int)first,
				     (unsigned int)kt->ncpus - 1);
	if (r < 0)
		return -ENOMEM;
	return count_ids(kt, n, lo, hi, NULL, NULL);
}

int
ktopo_count_known(struct ktopo *kt, const struct cpuset *all, int n,
		  const int lo[4], const int hi[4])
{
	if (ktopo_cpus(kt) < 0)
		return -ENOMEM;
	ktopo_drop_ids(kt);
	if (cpuset_copy(&kt->all, all) < 0)
		return -ENOMEM;
	return count_ids(kt, n, lo, hi, NULL, NULL);
}

_Static_assert(sizeof(struct ktopo_cpu) == K_N * sizeof(int),
	       "a CPU's attributes are K_N ints in K_ order");

/* kt->cpu[] from the runs (checked): attribute k of CPU c is
 * v[K_N * c + k]. */
static void
fill_from_runs(struct ktopo *kt, const struct krun *const runs[4],
	       const int nruns[4])
{
	int k, i;

	for (k = 0; k < K_N; k++) {
		int c = 0, *v = (int *)kt->cpu + k;

		for (i = 0; i < nruns[k]; i++) {
			const struct krun *u = &runs[k][i];
			int *p = v + (size_t)K_N * c;
			int *end = p + (size_t)K_N * u->count;
			unsigned int x = (unsigned int)u->first;

			if (u->step == 0)
				for (; p < end; p += K_N)
					*p = u->first;
			else
				for (; p < end; p += K_N, x += (unsigned int)u->step)
					*p = (int)x;
			c += u->count;
		}
	}
}

int
ktopo_from_runs(struct ktopo *kt, int ncpus, const struct krun *const runs[4],
		const int nruns[4])
{
	int k, i, lo[K_N], hi[K_N], r, total = 0;
	bool lean;

	memset(kt, 0, sizeof(*kt));
	if (ncpus < 1 || ncpus > CPUSET_MAX_CPUS)
		return -EINVAL;
	kt->ncpus = ncpus;
	for (k = 0; k < K_N; k++) {
		int c = 0;

		lo[k] = INT_MAX;
		hi[k] = -1;
		for (i = 0; i < nruns[k]; i++) {
			const struct krun *u = &runs[k][i];
			long long last = u->first + (long long)u->step *
					 (u->count - 1);
			/* The run's lowest and highest value are its ends. */
			int low = u->step < 0 ? (int)last : u->first;
			int high = u->step < 0 ? u->first : (int)last;

			if (u->count < 1 || u->count > ncpus - c ||
			    u->first < 0 || last < 0 || last > INT_MAX)
				goto inval;
			lo[k] = low < lo[k] ? low : lo[k];
			hi[k] = high > hi[k] ? high : hi[k];
			c += u->count;
		}
		if (c != ncpus)
			goto inval;
		total += nruns[k];
	}
	/*
	 * No more runs, all four values together, than CPUs (values
	 * mostly in long runs, as on most machines: the runs take less
	 * room than the per-CPU array) and ids close enough for tables of
	 * ranks: the runs are kept and the per-CPU array is left for
	 * ktopo_cpus(), the index of a take being built from the runs.
	 */
	lean = total <= ncpus;
	for (k = 0; k < K_N; k++)
		lean = lean && direct_span(lo[k], hi[k], ncpus);
	if (!lean) {
		kt->cpu = malloc((size_t)ncpus * sizeof(*kt->cpu));
		if (!kt->cpu)
			return -ENOMEM;
		fill_from_runs(kt, runs, nruns);
	}
	if (cpuset_set_range(&kt->all, 0, (unsigned int)ncpus - 1) < 0) {
		ktopo_free(kt);
		return -ENOMEM;
	}
	r = count_ids(kt, ncpus, lo, hi, runs, nruns);
	for (k = 0; k < K_N && r == 0 && lean; k++) {
		kt->runs[k] = malloc((size_t)nruns[k] * sizeof(struct krun));
		if (!kt->runs[k]) {
			r = -ENOMEM;
			break;
		}
		memcpy(kt->runs[k], runs[k], (size_t)nruns[k] *
		       sizeof(struct krun));
		kt->nruns[k] = nruns[k];
	}
	if (r < 0)
		ktopo_free(kt);
	return r;
inval:
	ktopo_free(kt);
	return -EINVAL;
}

int
ktopo_cpus(struct ktopo *kt)
{
	if (kt->cpu || kt->ncpus < 1)
		return 0;
	kt->cpu = malloc((size_t)kt->ncpus * sizeof(*kt->cpu));
	if (!kt->cpu)
		return -ENOMEM;
	fill_from_runs(kt, (const struct krun *const *)kt->runs, kt->nruns);
	return 0;
}

/*
 * The rest of ktopo_count(), given the number n of the topology's CPUs
 * and each attribute's bounds among them.
 */
static int
count_ids(struct ktopo *kt, int n, const int *lo, const int *hi,
	  const struct krun *const *runs, const int *nruns)
{
	int c, k, *t[K_N] = { 0 };

	kt->num_cpus = n;
	/*
	 * Ids are mostly small and dense: each attribute's values marked
	 * in a table from id - lo, in a second pass over the CPUs, then
	 * numbered in order; the ranks stay for the index every take
	 * builds.  Ids too far apart are sorted instead.
	 */
	for (k = 0; k < K_N && n > 0; k++)
		if (direct_span(lo[k], hi[k], n) &&
		    !(t[k] = calloc((size_t)(hi[k] - lo[k]) + 1, sizeof(int))))
			goto nomem;
	if (runs && t[K_CORE] && t[K_SOCKET] && t[K_NUMA] && t[K_UNCORE]) {
		/* Every slot a CPU, its values in runs: a run of one value
		 * is one mark. */
		for (k = 0; k < K_N; k++) {
			int i, j;

			for (i = 0; i < nruns[k]; i++) {
				const struct krun *u = &runs[k][i];
				int *m = t[k] + (u->first - lo[k]);

				if (u->step == 0) {
					*m = 1;
					continue;
				}
				if (u->step == 1) {
					fill_int(m, 1, u->count);
					continue;
				}
				for (j = 0; j < u->count; j++, m += u->step)
					*m = 1;
			}
		}
	} else if (t[K_CORE] && t[K_SOCKET] && t[K_NUMA] && t[K_UNCORE]) {
		/* The common case, with no test per attribute. */
		int *tc = t[K_CORE] - lo[K_CORE], *ts = t[K_SOCKET] - lo[K_SOCKET];
		int *tn = t[K_NUMA] - lo[K_NUMA], *tu = t[K_UNCORE] - lo[K_UNCORE];

		for (c = 0; c < kt->ncpus; c++) {
			const struct ktopo_cpu *p = &kt->cpu[c];

			if (ktopo_is_cpu(kt, c)) {
				tc[p->core] = 1;
				ts[p->socket] = 1;
				tn[p->numa] = 1;
				tu[p->uncore] = 1;
			}
		}
	} else {
		for (c = 0; c < kt->ncpus; c++) {
			const struct ktopo_cpu *p = &kt->cpu[c];

			if (!ktopo_is_cpu(kt, c))
				continue;
			for (k = 0; k < K_N; k++)
				if (t[k])
					t[k][attr_of(p, k) - lo[k]] = 1;
		}
	}
	for (k = 0; k < K_N; k++) {
		int m = 0, *ids;

		if (t[k]) {
			size_t x, span = (size_t)(hi[k] - lo[k]) + 1;

			for (x = 0; x < span; x++)
				m += t[k][x];
			ids = malloc((m ? (size_t)m : 1) * sizeof(int));
			if (!ids)
				goto nomem;
			for (x = 0, m = 0; x < span; x++)
				if (t[k][x]) {
					t[k][x] = m;
					ids[m++] = lo[k] + (int)x;
				}
			kt->rank[k] = t[k];
			kt->rank_lo[k] = lo[k];
			t[k] = NULL;
		} else {
			ids = malloc((n ? (size_t)n : 1) * sizeof(int));
			if (!ids)
				goto nomem;
			for (c = 0; c < kt->ncpus; c++)
				if (ktopo_is_cpu(kt, c))
					ids[m++] = attr_of(&kt->cpu[c], k);
			m = (int)uniq_ints(ids, (size_t)m);
		}
		kt->ids[k] = ids;
		kt->nids[k] = m;
	}
	kt->num_cores = kt->nids[K_CORE];
	kt->num_sockets = kt->nids[K_SOCKET];
	kt->num_numa = kt->nids[K_NUMA];
	kt->num_uncore = kt->nids[K_UNCORE];
	return 0;
nomem:
	for (k = 0; k < K_N; k++)
		free(t[k]);
	ktopo_drop_ids(kt);
	return -ENOMEM;
}

int
ktopo_from_topo(struct ktopo *kt, const struct topo *t)
{
	int c, r;

	r = ktopo_alloc(kt, t->ncpus);
	if (r < 0)
		return r;
	for (c = 0; c < t->ncpus; c++) {
		const struct topo_cpu *tc = &t->cpus[c];
		struct ktopo_cpu *p = &kt->cpu[c];

		/* cAdvisor lists online CPUs only. */
		if (!tc->online)
			continue;
		p->core = tc->core >= 0 ? tc->core : c;
		/* cAdvisor puts CPUs of a machine without NUMA information
		 * (and without a package id) in node 0 / socket 0. */
		p->socket = tc->socket >= 0 ? tc->socket : 0;
		p->numa = tc->node >= 0 ? tc->node : 0;
		if (tc->l3 >= 0 && tc->l3 < t->nl3)
			p->uncore = t->l3s[tc->l3].id;
		else
			p->uncore = p->socket;
	}
	r = ktopo_count(kt);
	if (r < 0)
		ktopo_free(kt);
	return r;
}

/* ------------------------------------------------------------------ */
/* Dense index of the topology, built once per top-level call           */

struct kindex {
	const struct ktopo *kt;
	int ncpus;
	int nall;
	kix *all;		/* topology CPUs, ascending (NULL: every
				 * slot, built from runs) */
	int nunit[K_N];
	const int *uid[K_N];	/* dense unit -> id (ascending): kt's ids[],
				 * or uid_own[] */
	int *uid_own[K_N];
	kix *unit[K_N];		/* [ncpus] CPU -> dense unit; slots of no
				 * CPU 0xffff (never a unit then) */
	int *off[K_N];		/* [nunit + 1] into mem[] */
	kix *mem[K_N];		/* CPUs of each unit, ascending */
	int *numa_socket;	/* [NUMA units] its only socket, -1 if several */
	bool numa_nested;	/* every NUMA unit within one socket */
	int nkinds;		/* kinds indexed: K_UNCORE (no uncore caches:
				 * only the uncore step reads them) or K_N */
	int per_core, per_socket, per_uncore;
	bool numa_first;
};

/*
 * The index of id in the ascending uid[0..m), where it is.  CPUs in
 * ascending order mostly stay in a unit or move to the next, so the
 * previous answer (hint) is tried first, then a binary search.
 */
static int
unit_of(const int *uid, int m, int id, int hint)
{
	int lo = 0, hi = m - 1;

	if (uid[hint] == id)
		return hint;
	if (hint + 1 < m && uid[hint + 1] == id)
		return hint + 1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (uid[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index's i-th CPU (ascending). */
static inline int
ix_cpu(const struct kindex *ix, int i)
{
	return ix->all ? ix->all[i] : i;
}

static void
kindex_free(struct kindex *ix)
{
	int k;

	free(ix->all);
	for (k = 0; k < K_N; k++) {
		free(ix->uid_own[k]);
		free(ix->unit[k]);
		free(ix->off[k]);
		free(ix->mem[k]);
	}
	free(ix->numa_socket);
	memset(ix, 0, sizeof(*ix));
}

static int
cpu_attr(const struct ktopo *kt, int c, int k)
{
	return attr_of(&kt->cpu[c], k);
}

/*
 * Units of kind k by runs: runs[0..nruns) give each CPU's id in order
 * (every slot a CPU), rank (indexed by id) its unit.  Fills unit[] and
 * counts each unit's CPUs into cnt[unit + 1].
 */
static void
units_by_runs(const struct krun *runs, int nruns, const int *rank, kix *unit,
	      int *cnt)
{
	int i, j, c = 0;

	for (i = 0; i < nruns; i++) {
		const struct krun *u = &runs[i];
		kix *p = unit + c;
		int x = u->first;

		if (u->step == 0) {
			int v = rank[x];

			fill_kix(p, v, u->count);
			cnt[v + 1] += u->count;
		} else if (u->step == 1) {
			/* Every id from first to last is in the run: their
			 * units are consecutive. */
			int v = rank[x];

			fill_seq(p, v, u->count);
			add_one(cnt + v + 1, u->count);
		} else {
			for (j = 0; j < u->count; j++, x += u->step) {
				int v = rank[x];

				p[j] = (kix)v;
				cnt[v + 1]++;
			}
		}
		c += u->count;
	}
}

/*
 * Each unit's CPUs by runs, ascending: a run of one unit's CPUs in a row
 * goes to the unit's cursor at once.
 */
static void
members_by_runs(const struct krun *runs, int nruns, const kix *unit,
		int *cur, kix *mem)
{
	int i, j, c = 0;

	for (i = 0; i < nruns; i++) {
		const struct krun *u = &runs[i];

		if (u->step == 0) {
			kix *p = mem + cur[unit[c]];

			cur[unit[c]] += u->count;
			fill_seq(p, c, u->count);
		} else {
			for (j = c; j < c + u->count; j++)
				mem[cur[unit[j]]++] = (kix)j;
		}
		c += u->count;
	}
}

/*
 * Each NUMA unit's only socket (ns[]: -2 none seen yet, -1 several) by
 * runs: where a NUMA run and a socket run both hold one value, one test
 * for the CPUs they share.
 */
static void
numa_socket_by_runs(const struct kindex *ix, int *ns)
{
	const struct ktopo *kt = ix->kt;
	const struct krun *rn = kt->runs[K_NUMA], *rs = kt->runs[K_SOCKET];
	const kix *un = ix->unit[K_NUMA], *us = ix->unit[K_SOCKET];
	int a = 0, b = 0, left_a = rn[0].count, left_b = rs[0].count, c = 0;

	while (c < ix->nall) {
		int len = left_a < left_b ? left_a : left_b, j;
		/* Both runs of one value: the piece's first CPU says all. */
		int look = rn[a].step == 0 && rs[b].step == 0 ? 1 : len;

		for (j = c; j < c + look; j++) {
			int u = un[j], s = us[j];

			ns[u] = ns[u] == -2 || ns[u] == s ? s : -1;
		}
		c += len;
		left_a -= len;
		left_b -= len;
		if (left_a == 0 && ++a < kt->nruns[K_NUMA])
			left_a = rn[a].count;
		if (left_b == 0 && ++b < kt->nruns[K_SOCKET])
			left_b = rs[b].count;
	}
}

/* The index of kt; the uncore caches' part only with uncore. */
static int
kindex_build(struct kindex *ix, const struct ktopo *kt, bool uncore)
{
	int c, k, i, n = 0, *mine[K_N] = { 0 }, lo[K_N] = { 0 };
	int *cur[K_N] = { 0 }, *curs = NULL, *ns, *v = NULL;
	const int *direct[K_N] = { 0 };
	size_t nc = kt->ncpus > 0 ? (size_t)kt->ncpus : 1, ncur = 0;
	bool all_direct = true, by_runs;

	/* ktopo_alloc() and ktopo_from_runs() refuse more CPUs than a
	 * kix numbers. */
	memset(ix, 0, sizeof(*ix));
	ix->kt = kt;
	ix->ncpus = kt->ncpus;
	/* ktopo_from_runs() keeps all four kinds' runs, and only with
	 * every slot a CPU and a table of ranks for each. */
	by_runs = kt->runs[K_CORE] != NULL;
	/* By runs, every slot is a CPU: the list would be 0, 1, ... and
	 * nothing below reads it. */
	ix->all = by_runs ? NULL : malloc(nc * sizeof(kix));
	if (!by_runs && !ix->all)
		goto nomem;
	if (by_runs) {
		n = kt->ncpus;
	} else if (cpuset_count(&kt->all) == (unsigned int)kt->ncpus) {
		/* Every slot a CPU (ktopo_count() keeps them in all). */
		fill_seq(ix->all, 0, kt->ncpus);
		n = kt->ncpus;
	} else {
		for (c = 0; c < kt->ncpus; c++)
			if (ktopo_is_cpu(kt, c))
				ix->all[n++] = (kix)c;
	}
	ix->nall = n;
	ix->nkinds = uncore ? K_N : K_UNCORE;
	for (k = 0; k < ix->nkinds; k++) {
		int m;

		ix->unit[k] = malloc(nc * sizeof(kix));
		ix->mem[k] = malloc((n ? (size_t)n : 1) * sizeof(kix));
		if (!ix->unit[k] || !ix->mem[k])
			goto nomem;
		/* Ids are mostly small and dense: a table from id to unit
		 * instead of a search per CPU.  ktopo_count() kept both. */
		if (kt->ids[k]) {
			m = kt->nids[k];
			ix->uid[k] = kt->ids[k];
			direct[k] = kt->rank[k];
			lo[k] = kt->rank_lo[k];
		} else {
			/* The CPUs' values, made distinct in place. */
			if (!v && !(v = malloc((n ? (size_t)n : 1) *
					       sizeof(int))))
				goto nomem;
			for (i = 0; i < n; i++)
				v[i] = cpu_attr(kt, ix->all[i], k);
			m = distinct(v, n, &mine[k], &lo[k]);
			direct[k] = mine[k];
			ix->uid_own[k] = malloc((m ? (size_t)m : 1) *
					       sizeof(int));
			if (!ix->uid_own[k])
				goto nomem;
			memcpy(ix->uid_own[k], v, (size_t)m * sizeof(int));
			ix->uid[k] = ix->uid_own[k];
		}
		ix->nunit[k] = m;
		ix->off[k] = calloc((size_t)m + 1, sizeof(int));
		if (!ix->off[k])
			goto nomem;
		/* Slots of no CPU stay 0xffff; with every slot a CPU, none. */
		if ((size_t)n < nc)
			memset(ix->unit[k], 0xff, nc * sizeof(kix));
		if (!direct[k])
			all_direct = false;
		ncur += (size_t)m;
	}
	ns = ix->numa_socket = malloc((ix->nunit[K_NUMA] ?
				       (size_t)ix->nunit[K_NUMA] : 1) *
				      sizeof(int));
	curs = malloc((ncur ? ncur : 1) * sizeof(int));
	if (!ns || !curs)
		goto nomem;
	/* Each node's only socket: -2 none seen yet, -1 several. */
	for (i = 0; i < ix->nunit[K_NUMA]; i++)
		ns[i] = -2;
	if (by_runs) {
		/* Kept runs: a run of one value is one fill. */
		for (k = 0; k < ix->nkinds; k++)
			units_by_runs(kt->runs[k], kt->nruns[k],
				      direct[k] - lo[k], ix->unit[k],
				      ix->off[k]);
		if (n > 0)
			numa_socket_by_runs(ix, ns);
	} else if (all_direct) {
		/* Each CPU's units, all kinds in one pass, from the tables. */
		const int *rc = direct[K_CORE] - lo[K_CORE];
		const int *rs = direct[K_SOCKET] - lo[K_SOCKET];
		const int *rn = direct[K_NUMA] - lo[K_NUMA];
		const int *ru = uncore ? direct[K_UNCORE] - lo[K_UNCORE] : NULL;

		for (i = 0; i < n; i++) {
			const struct ktopo_cpu *p;
			int u, us;

			c = ix->all[i];
			p = &kt->cpu[c];
			u = rc[p->core];
			ix->unit[K_CORE][c] = (kix)u;
			ix->off[K_CORE][u + 1]++;
			us = rs[p->socket];
			ix->unit[K_SOCKET][c] = (kix)us;
			ix->off[K_SOCKET][us + 1]++;
			u = rn[p->numa];
			ix->unit[K_NUMA][c] = (kix)u;
			ix->off[K_NUMA][u + 1]++;
			ns[u] = ns[u] == -2 || ns[u] == us ? us : -1;
			if (ru) {
				u = ru[p->uncore];
				ix->unit[K_UNCORE][c] = (kix)u;
				ix->off[K_UNCORE][u + 1]++;
			}
		}
	} else {
		for (k = 0; k < ix->nkinds; k++) {
			int last = 0, m = ix->nunit[k];

			for (i = 0; i < n; i++) {
				int c2 = ix->all[i];
				int id = cpu_attr(kt, c2, k);
				int u = direct[k] ? direct[k][id - lo[k]] :
					unit_of(ix->uid[k], m, id, last);

				last = u;
				ix->unit[k][c2] = (kix)u;
				ix->off[k][u + 1]++;
			}
		}
		for (i = 0; i < n; i++) {
			int u = ix->unit[K_NUMA][ix->all[i]];
			int us = ix->unit[K_SOCKET][ix->all[i]];

			ns[u] = ns[u] == -2 || ns[u] == us ? us : -1;
		}
	}
	ix->numa_nested = true;
	for (i = 0; i < ix->nunit[K_NUMA]; i++)
		ix->numa_nested = ix->numa_nested && ns[i] >= 0;
	/* Each unit's CPUs, ascending: the CPUs in order, each placed at
	 * its units' cursors (all kinds in one pass). */
	for (k = 0, ncur = 0; k < ix->nkinds; k++) {
		int m = ix->nunit[k];

		free(mine[k]);
		mine[k] = NULL;
		for (i = 0; i < m; i++)
			ix->off[k][i + 1] += ix->off[k][i];
		cur[k] = curs + ncur;
		ncur += (size_t)m;
		memcpy(cur[k], ix->off[k], (size_t)m * sizeof(int));
	}
	if (by_runs) {
		for (k = 0; k < ix->nkinds; k++)
			members_by_runs(kt->runs[k], kt->nruns[k], ix->unit[k],
					cur[k], ix->mem[k]);
	} else {
		const kix *uc = ix->unit[K_CORE], *us = ix->unit[K_SOCKET];
		const kix *un = ix->unit[K_NUMA], *uu = ix->unit[K_UNCORE];
		kix *mc = ix->mem[K_CORE], *ms = ix->mem[K_SOCKET];
		kix *mn = ix->mem[K_NUMA], *mu = ix->mem[K_UNCORE];

		for (i = 0; i < n; i++) {
			kix x = ix->all[i];

			mc[cur[K_CORE][uc[x]]++] = x;
			ms[cur[K_SOCKET][us[x]]++] = x;
			mn[cur[K_NUMA][un[x]]++] = x;
			if (uu)
				mu[cur[K_UNCORE][uu[x]]++] = x;
		}
	}
	free(curs);
	free(v);
	ix->per_core = kt->num_cores ? kt->num_cpus / kt->num_cores : 0;
	ix->per_socket = kt->num_sockets ? kt->num_cpus / kt->num_sockets : 0;
	ix->per_uncore = kt->num_uncore ? kt->num_cpus / kt->num_uncore : 0;
	ix->numa_first = kt->num_sockets >= kt->num_numa;
	return 0;
nomem:
	for (k = 0; k < K_N; k++)
		free(mine[k]);
	free(curs);
	free(v);
	kindex_free(ix);
	return -ENOMEM;
}

static int
unit_size(const struct kindex *ix, int k, int u)
{
	return ix->off[k][u + 1] - ix->off[k][u];
}

/* ------------------------------------------------------------------ */
/* The accumulator                                                      */

struct kacc {
	const struct kindex *ix;
	unsigned char *isfree;	/* [ncpus] */
	struct cpuset took;	/* taken CPUs, room for every CPU */
	int *nfree[K_N];	/* free CPUs per unit */
	int *stamp[K_N];	/* scratch for de-duplication */
	int stampv[K_N];
	uint64_t *sortbuf;	/* scratch for sorting units */
	int nfree_all;
	int needed;
	bool spread;
};

static void
kacc_free(struct kacc *a)
{
	int k;

	free(a->isfree);
	cpuset_free(&a->took);
	for (k = 0; k < K_N; k++) {
		free(a->nfree[k]);
		free(a->stamp[k]);
	}
	free(a->sortbuf);
	memset(a, 0, sizeof(*a));
}

/* CPU c starts free, or not: one CPU fewer in each of its units. */
static inline void
kacc_mark(struct kacc *a, int c, bool free_cpu)
{
	int k;

	if (free_cpu) {
		a->isfree[c] = 1;
		return;
	}
	a->nfree_all--;
	for (k = 0; k < a->ix->nkinds; k++)
		a->nfree[k][a->ix->unit[k][c]]--;
}

static int
kacc_init(struct kacc *a, const struct kindex *ix, const struct cpuset *avail,
	  int n, bool spread)
{
	size_t nc = ix->ncpus > 0 ? (size_t)ix->ncpus : 1;
	int k, i, maxu = 1;

	memset(a, 0, sizeof(*a));
	a->ix = ix;
	a->needed = n;
	a->spread = spread;
	a->isfree = calloc(nc, 1);
	if (!a->isfree || cpuset_reserve(&a->took, (unsigned int)nc) < 0)
		goto nomem;
	for (k = 0; k < K_N; k++) {
		size_t m = ix->nunit[k] ? (size_t)ix->nunit[k] : 1;

		a->nfree[k] = calloc(m, sizeof(int));
		a->stamp[k] = calloc(m, sizeof(int));
		if (!a->nfree[k] || !a->stamp[k])
			goto nomem;
		if (ix->nunit[k] > maxu)
			maxu = ix->nunit[k];
	}
	a->sortbuf = malloc((size_t)maxu * sizeof(uint64_t));
	if (!a->sortbuf)
		goto nomem;
	/*
	 * Each unit starts with all its CPUs free and loses those not in
	 * avail: on a large machine most CPUs are free, and a free CPU
	 * then costs one test and one store.
	 */
	for (k = 0; k < ix->nkinds; k++)
		for (i = 0; i < ix->nunit[k]; i++)
			a->nfree[k][i] = ix->off[k][i + 1] - ix->off[k][i];
	a->nfree_all = ix->nall;
	if (ix->nall == ix->ncpus) {
		/* Every slot a CPU: a word of avail at a time, a word of
		 * free CPUs at once. */
		for (i = 0; i < ix->nall; i += 64) {
			unsigned int w = (unsigned int)i / 64;
			uint64_t bits = w < avail->nwords ? avail->bits[w] : 0;
			int c, end = ix->nall - i < 64 ? ix->nall : i + 64;

			if (bits == UINT64_MAX && end == i + 64) {
				memset(a->isfree + i, 1, 64);
				continue;
			}
			for (c = i; c < end; c++, bits >>= 1)
				kacc_mark(a, c, bits & 1);
		}
		return 0;
	}
	for (i = 0; i < ix->nall; i++)
		kacc_mark(a, ix->all[i],
			  cpuset_isset(avail, (unsigned int)ix->all[i]));
	return 0;
nomem:
	kacc_free(a);
	return -ENOMEM;
}

static bool
kacc_satisfied(const struct kacc *a)
{
	return a->needed < 1;
}

/* Move CPU c from the free set to the result; 1 if it was free. */
static int
kacc_take_cpu(struct kacc *a, int c)
{
	int k;

	if (!a->isfree[c])
		return 0;
	a->isfree[c] = 0;
	(void)cpuset_set(&a->took, (unsigned int)c);	/* reserved */
	a->nfree_all--;
	for (k = 0; k < a->ix->nkinds; k++)
		a->nfree[k][a->ix->unit[k][c]]--;
	return 1;
}

/* Take the (free) CPUs of unit u of kind k. */
static void
kacc_take_unit(struct kacc *a, int k, int u)
{
	const struct kindex *ix = a->ix;
	int j, got = 0;

	for (j = ix->off[k][u]; j < ix->off[k][u + 1]; j++)
		got += kacc_take_cpu(a, ix->mem[k][j]);
	a->needed -= got;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Units v[0..n) in ascending id order: ordered by free count (nfree),
 * then id, with a counting sort (stable, so ids stay ascending within a
 * count) into tmp and back.  Returns false, leaving v alone, when the
 * counts are too spread out for it (or out of memory).
 */
static bool
counting_sort(int *v, int n, const int *nfree, int *tmp)
{
	int i, max = 0, *pos;

	for (i = 0; i < n; i++)
		if (nfree[v[i]] > max)
			max = nfree[v[i]];
	if (max > 4 * n + 64)
		return false;
	pos = calloc((size_t)max + 2, sizeof(*pos));
	if (!pos)
		return false;
	for (i = 0; i < n; i++)
		pos[nfree[v[i]] + 1]++;
	for (i = 0; i < max; i++)
		pos[i + 1] += pos[i];
	for (i = 0; i < n; i++)
		tmp[pos[nfree[v[i]]]++] = v[i];
	memcpy(v, tmp, (size_t)n * sizeof(*v));
	free(pos);
	return true;
}

/* Sort out->v[start..] fullest first: free count, then id. */
static void
sort_fullest(struct kacc *a, int k, struct ivec *out, int start)
{
	int i, n = out->n - start, *v = out->v + start;

	if (n < 2)
		return;
	/* Units listed in id order (cores always are: a core's id is its
	 * lowest CPU) need only be ordered by count. */
	for (i = 1; i < n && v[i - 1] < v[i]; i++)
		;
	if (i == n && counting_sort(v, n, a->nfree[k], (int *)a->sortbuf))
		return;
	for (i = 0; i < n; i++)
		a->sortbuf[i] = (uint64_t)(unsigned int)a->nfree[k][out->v[start + i]]
		    << 32 | (unsigned int)out->v[start + i];
	qsort(a->sortbuf, (size_t)n, sizeof(uint64_t), cmp_u64);
	for (i = 0; i < n; i++)
		out->v[start + i] = (int)(a->sortbuf[i] & 0xffffffffu);
}

/*
 * Append to out the units of kind ck that hold a free CPU, inside unit pu
 * of kind pk (pk < 0: anywhere), fullest first.
 */
static int
children(struct kacc *a, int pk, int pu, int ck, struct ivec *out)
{
	const struct kindex *ix = a->ix;
	int start = out->n, u, j;

	if (pk < 0) {
		for (u = 0; u < ix->nunit[ck]; u++)
			if (a->nfree[ck][u] > 0 && ivec_push(out, u) < 0)
				return -ENOMEM;
	} else if (ix->numa_nested && pk == K_NUMA && ck == K_SOCKET) {
		/* A node within one socket: that socket, when the node has a
		 * free CPU. */
		if (a->nfree[K_NUMA][pu] > 0 &&
		    ivec_push(out, ix->numa_socket[pu]) < 0)
			return -ENOMEM;
	} else if (ix->numa_nested && pk == K_SOCKET && ck == K_NUMA) {
		/* The nodes within the socket that have a free CPU: a look at
		 * each node instead of each CPU of the socket. */
		for (u = 0; u < ix->nunit[K_NUMA]; u++)
			if (ix->numa_socket[u] == pu && a->nfree[K_NUMA][u] > 0 &&
			    ivec_push(out, u) < 0)
				return -ENOMEM;
	} else {
		int sv = ++a->stampv[ck];

		for (j = ix->off[pk][pu]; j < ix->off[pk][pu + 1]; j++) {
			int c = ix->mem[pk][j];

			if (!a->isfree[c])
				continue;
			u = ix->unit[ck][c];
			if (a->stamp[ck][u] == sv)
				continue;
			a->stamp[ck][u] = sv;
			if (ivec_push(out, u) < 0)
				return -ENOMEM;
		}
	}
	sort_fullest(a, ck, out, start);
	return 0;
}

/* For each unit in parents (kind pk), append its children of kind ck. */
static int
children_of_list(struct kacc *a, const struct ivec *parents, int pk, int ck,
		 struct ivec *out)
{
	int i;

	for (i = 0; i < parents->n; i++)
		if (children(a, pk, parents->v[i], ck, out) < 0)
			return -ENOMEM;
	return 0;
}

static int sorted_sockets(struct kacc *a, struct ivec *out);

/* sortAvailableNUMANodes */
static int
sorted_numas(struct kacc *a, struct ivec *out)
{
	struct ivec s = { 0 };
	int r;

	if (a->ix->numa_first)
		return children(a, -1, 0, K_NUMA, out);
	r = sorted_sockets(a, &s);
	if (r == 0)
		r = children_of_list(a, &s, K_SOCKET, K_NUMA, out);
	ivec_free(&s);
	return r;
}

/* sortAvailableSockets */
static int
sorted_sockets(struct kacc *a, struct ivec *out)
{
	struct ivec nl = { 0 };
	int r;

	if (!a->ix->numa_first)
		return children(a, -1, 0, K_SOCKET, out);
	r = sorted_numas(a, &nl);
	if (r == 0)
		r = children_of_list(a, &nl, K_NUMA, K_SOCKET, out);
	ivec_free(&nl);
	return r;
}

/* sortAvailableCores */
static int
sorted_cores(struct kacc *a, struct ivec *out)
{
	struct ivec p = { 0 };
	int r;

	if (a->ix->numa_first) {
		r = sorted_sockets(a, &p);
		if (r == 0)
			r = children_of_list(a, &p, K_SOCKET, K_CORE, out);
	} else {
		r = sorted_numas(a, &p);
		if (r == 0)
			r = children_of_list(a, &p, K_NUMA, K_CORE, out);
	}
	ivec_free(&p);
	return r;
}

/* sortAvailableUncoreCaches */
static int
sorted_uncores(struct kacc *a, struct ivec *out)
{
	struct ivec nl = { 0 };
	int r;

	r = sorted_numas(a, &nl);
	if (r == 0)
		r = children_of_list(a, &nl, K_NUMA, K_UNCORE, out);
	ivec_free(&nl);
	return r;
}

/* The free CPUs in the order single CPUs are taken (packed or spread). */
static int
sorted_cpus(struct kacc *a, struct ivec *out)
{
	const struct kindex *ix = a->ix;
	struct ivec units = { 0 };
	int k = a->spread ? K_SOCKET : K_CORE;
	int r, i, j;

	r = a->spread ? sorted_sockets(a, &units) : sorted_cores(a, &units);
	for (i = 0; r == 0 && i < units.n; i++) {
		int u = units.v[i];

		for (j = ix->off[k][u]; r == 0 && j < ix->off[k][u + 1]; j++)
			if (a->isfree[ix->mem[k][j]])
				r = ivec_push(out, ix->mem[k][j]);
	}
	ivec_free(&units);
	return r;
}

/* Is unit u of kind k free, by the kubelet's comparison? */
static bool
unit_free(const struct kacc *a, int k, int u)
{
	const struct kindex *ix = a->ix;

	switch (k) {
	case K_CORE:
		return a->nfree[k][u] == ix->per_core;
	case K_SOCKET:
		return a->nfree[k][u] == ix->per_socket;
	default:
		return a->nfree[k][u] == unit_size(ix, k, u);
	}
}

/*
 * takeFullCores: the free cores in sorted_cores() order, each taken while
 * the request still needs a whole core.  The cores are listed one parent
 * (socket or NUMA node) at a time, and no further than needed: a parent's
 * cores do not change while another parent's are taken (cores share no
 * CPU), so this is the order and the choice of the whole list, fixed
 * before anything is taken, without sorting every core of the machine
 * for a request of a few.
 */
static int
take_full_cores(struct kacc *a)
{
	int pk = a->ix->numa_first ? K_SOCKET : K_NUMA;
	struct ivec p = { 0 }, l = { 0 };
	int i, j, r;

	r = pk == K_SOCKET ? sorted_sockets(a, &p) : sorted_numas(a, &p);
	for (i = 0; r == 0 && i < p.n && a->needed > 0; i++) {
		l.n = 0;
		r = children(a, pk, p.v[i], K_CORE, &l);
		for (j = 0; r == 0 && j < l.n; j++)
			if (unit_free(a, K_CORE, l.v[j]) &&
			    a->needed >= unit_size(a->ix, K_CORE, l.v[j]))
				kacc_take_unit(a, K_CORE, l.v[j]);
	}
	ivec_free(&p);
	ivec_free(&l);
	return r;
}

/*
 * takeFullNUMANodes, takeFullSockets, takeFullUncore, takeFullCores: walk
 * the list of free units once and take each that still fits the need.
 */
static int
take_full_units(struct kacc *a, int k)
{
	struct ivec l = { 0 };
	int i, r;

	if (k == K_CORE)
		return take_full_cores(a);
	switch (k) {
	case K_NUMA:
		r = sorted_numas(a, &l);
		break;
	case K_SOCKET:
		r = sorted_sockets(a, &l);
		break;
	case K_UNCORE:
		r = sorted_uncores(a, &l);
		break;
	default:
		r = sorted_cores(a, &l);
		break;
	}
	if (r < 0)
		goto out;
	/* The free list is fixed before anything is taken. */
	for (i = 0; i < l.n; i++)
		l.v[i] = unit_free(a, k, l.v[i]) ? l.v[i] : -1;
	for (i = 0; i < l.n; i++) {
		if (l.v[i] < 0)
			continue;
		if (a->needed < unit_size(a->ix, k, l.v[i]))
			continue;
		kacc_take_unit(a, k, l.v[i]);
	}
out:
	ivec_free(&l);
	return r;
}

/* takePartialUncore */
static int
take_partial_uncore(struct kacc *a, int u)
{
	const struct kindex *ix = a->ix;
	struct ivec cores = { 0 }, cpus = { 0 };
	int per_core = ix->per_core, ncores, sv, i, j, r = 0;

	if (per_core <= 0)
		return 0;
	ncores = (a->needed + per_core - 1) / per_core;
	sv = ++a->stampv[K_CORE];
	for (j = ix->off[K_UNCORE][u]; j < ix->off[K_UNCORE][u + 1]; j++) {
		int c = ix->mem[K_UNCORE][j], co;

		if (!a->isfree[c])
			continue;
		co = ix->unit[K_CORE][c];
		if (a->stamp[K_CORE][co] == sv)
			continue;
		a->stamp[K_CORE][co] = sv;
		if ((r = ivec_push(&cores, co)) < 0)
			goto out;
	}
	/* Lowest core ids first (none: no array to sort). */
	if (cores.n > 1)
		qsort(cores.v, (size_t)cores.n, sizeof(int), cmp_int);
	if (cores.n > ncores)
		cores.n = ncores;
	for (i = 0; i < cores.n; i++) {
		int co = cores.v[i];

		for (j = ix->off[K_CORE][co]; j < ix->off[K_CORE][co + 1]; j++)
			if (a->isfree[ix->mem[K_CORE][j]] &&
			    (r = ivec_push(&cpus, ix->mem[K_CORE][j])) < 0)
				goto out;
	}
	if (cpus.n > 1)
		qsort(cpus.v, (size_t)cpus.n, sizeof(int), cmp_int);
	/* An odd need on SMT: leave the last core's highest thread. */
	if (a->needed % 2 != 0 && per_core > 1 && cpus.n > a->needed)
		cpus.n--;
	if (cpus.n == a->needed) {
		for (i = 0; i < cpus.n; i++)
			kacc_take_cpu(a, cpus.v[i]);
		a->needed -= cpus.n;
	}
out:
	ivec_free(&cores);
	ivec_free(&cpus);
	return r;
}

/* takeUncoreCache */
static int
take_uncore(struct kacc *a)
{
	struct ivec l = { 0 };
	bool full_done = false;
	int i, r;

	r = sorted_uncores(a, &l);
	for (i = 0; r == 0 && i < l.n; i++) {
		/*
		 * The kubelet repeats the full-uncore pass on every turn, but
		 * only the first can take anything: units only lose free CPUs
		 * and the need only shrinks, so a cache skipped or partly
		 * taken once stays out.
		 */
		if (a->needed >= a->ix->per_uncore && !full_done) {
			full_done = true;
			if ((r = take_full_units(a, K_UNCORE)) < 0)
				break;
		}
		if (kacc_satisfied(a))
			break;
		if ((r = take_partial_uncore(a, l.v[i])) < 0)
			break;
		if (kacc_satisfied(a))
			break;
	}
	ivec_free(&l);
	return r;
}

/* takeRemainingCPUs */
static int
take_remaining(struct kacc *a)
{
	struct ivec l = { 0 };
	int i, r;

	r = sorted_cpus(a, &l);
	for (i = 0; r == 0 && i < l.n; i++) {
		a->needed -= kacc_take_cpu(a, l.v[i]);
		if (kacc_satisfied(a))
			break;
	}
	ivec_free(&l);
	return r;
}

static int
kacc_result(const struct kacc *a, struct cpuset *out)
{
	return cpuset_copy(out, &a->took);
}

static int
not_enough(const struct cpuset *avail, int n, char *err, size_t errlen)
{
	err_set(err, errlen, "not enough cpus available to satisfy request: "
		"requested=%d, available=%u", n, cpuset_count(avail));
	return -ENOSPC;
}

/* takeByTopologyNUMAPacked */
static int
packed(const struct kindex *ix, const struct cpuset *avail, int n,
       bool spread, bool prefer_uncore, struct cpuset *out,
       char *err, size_t errlen)
{
	struct kacc a;
	int r;

	cpuset_zero(out);
	if ((r = kacc_init(&a, ix, avail, n, spread)) < 0)
		return r;
	if (kacc_satisfied(&a))
		goto done;
	if (a.needed > a.nfree_all) {
		r = not_enough(avail, n, err, errlen);
		goto done;
	}
	r = take_full_units(&a, ix->numa_first ? K_NUMA : K_SOCKET);
	if (r < 0 || kacc_satisfied(&a))
		goto done;
	r = take_full_units(&a, ix->numa_first ? K_SOCKET : K_NUMA);
	if (r < 0 || kacc_satisfied(&a))
		goto done;
	if (prefer_uncore) {
		r = take_uncore(&a);
		if (r < 0 || kacc_satisfied(&a))
			goto done;
	}
	if (!spread) {
		r = take_full_units(&a, K_CORE);
		if (r < 0 || kacc_satisfied(&a))
			goto done;
	}
	r = take_remaining(&a);
	if (r == 0 && !kacc_satisfied(&a)) {
		err_set(err, errlen, "failed to allocate cpus");
		r = -ENOSPC;
	}
done:
	if (r == 0)
		r = kacc_result(&a, out);
	if (r < 0)
		cpuset_zero(out);
	kacc_free(&a);
	return r;
}

/* ------------------------------------------------------------------ */
/* takeByTopologyNUMADistributed                                        */

/*
 * Go slices, as far as iterateCombinations needs them.  The kubelet builds
 * each combination with append(accum, x) on a shared prefix; when the
 * prefix's backing array has spare capacity the element is written in
 * place, so every combination that shares that array sees the last write.
 * A combination stored as the best one therefore reads back as whatever
 * was written last into its array.  Capacities grow as Go's do for small
 * int slices: 0, 1, 2, 4, 8, ... (doubling below 256 elements).
 */
struct goslice {
	int *a;
	int len, cap;
};

/* n ints from the arena ar. */
static int *
ints_alloc(struct arena *ar, int n)
{
	return arena_alloc(ar, (size_t)n * sizeof(int), sizeof(int));
}

static int
go_append(struct arena *ar, struct goslice s, int x, struct goslice *out)
{
	if (s.len < s.cap) {
		s.a[s.len] = x;
		out->a = s.a;
		out->len = s.len + 1;
		out->cap = s.cap;
		return 0;
	}
	out->cap = s.cap == 0 ? 1 : s.cap < 256 ? 2 * s.cap :
	    s.cap + (s.cap + 3 * 256) / 4;
	out->a = ints_alloc(ar, out->cap);
	if (!out->a)
		return -ENOMEM;
	if (s.len)
		memcpy(out->a, s.a, (size_t)s.len * sizeof(int));
	out->a[s.len] = x;
	out->len = s.len + 1;
	return 0;
}

enum { LOOP_CONTINUE = 0, LOOP_BREAK = 1 };

typedef int (*comb_fn)(void *ctx, struct goslice combo);

static int
comb_helper(struct arena *ar, const int *n, int nn, int k, int start,
	    struct goslice accum, comb_fn f, void *ctx)
{
	int i, r;

	if (k == 0)
		return f(ctx, accum);
	for (i = start; i <= nn - k; i++) {
		struct goslice next;

		if (go_append(ar, accum, n[i], &next) < 0)
			return -ENOMEM;
		r = comb_helper(ar, n, nn, k - 1, i + 1, next, f, ctx);
		if (r != LOOP_CONTINUE)
			return r;
	}
	return LOOP_CONTINUE;
}

/* iterateCombinations: every k-subset of n[], lexicographic by position. */
static int
iterate_combinations(struct arena *ar, const int *n, int nn, int k, comb_fn f,
		     void *ctx)
{
	struct goslice empty = { NULL, 0, 0 };
	int r;

	if (k < 1)
		return 0;
	r = comb_helper(ar, n, nn, k, 0, empty, f, ctx);
	return r < 0 ? r : 0;
}

/* round(): halves away from zero, without libm. */
static double
round_half_away(double x)
{
	double a = x < 0 ? -x : x, t;

	if (!(a < 4503599627370496.0))	/* 2^52 and up are whole (or NaN) */
		return x;
	t = (double)(int64_t)a;
	if (a - t >= 0.5)		/* exact: a and t are this close */
		t += 1;
	return x < 0 ? -t : t;
}

static double
round3(double x)
{
	return round_half_away(x * 1000) / 1000;
}

struct dist {
	struct kacc *a;
	struct arena ar;	/* combinations of NUMA nodes, per k */
	struct arena sub;	/* remainder subsets, per combination */
	int *best_rem_buf;	/* the best remainder subset, kept */
	const int *numas;	/* L */
	int nnumas;
	int *lset;		/* distinct NUMA units of L */
	int nlset;
	int *after;		/* [NUMA units] */
	int *scratch;		/* [NUMA units] */
	int n, group;
	bool align;
	/* per combination */
	int remainder;
	double best_local;
	struct goslice best_local_rem;
	/* per k */
	double best;
	bool best_one_socket;
	struct goslice best_combo, best_rem;
};

/* standardDeviation over the values of availableAfterAllocation */
static double
balance_of(const struct dist *d, const int *after)
{
	double sum = 0, m, s = 0;
	int i;

	for (i = 0; i < d->nlset; i++)
		sum += after[d->lset[i]];
	m = round3(sum / d->nlset);
	for (i = 0; i < d->nlset; i++) {
		double x = after[d->lset[i]] - m;

		s += x * x;
	}
	return round3(sqrt(s / d->nlset));
}

/* Score one subset of the remainder candidates. */
static int
score_subset(void *ctx, struct goslice subset)
{
	struct dist *d = ctx;
	int *after = d->scratch, rem = d->remainder, sum = 0, i;
	double balance;

	memcpy(after, d->after, (size_t)d->a->ix->nunit[K_NUMA] * sizeof(int));
	for (i = 0; i < subset.len; i++)
		sum += after[subset.a[i]];
	if (sum < rem)
		return LOOP_CONTINUE;
	while (rem > 0) {
		bool progress = false;

		for (i = 0; i < subset.len; i++) {
			if (rem == 0)
				break;
			if (after[subset.a[i]] < d->group)
				continue;
			after[subset.a[i]] -= d->group;
			rem -= d->group;
			progress = true;
		}
		/* The kubelet would spin here forever. */
		if (!progress)
			return LOOP_CONTINUE;
	}
	balance = balance_of(d, after);
	if (balance < d->best_local) {
		d->best_local = balance;
		d->best_local_rem = subset;
	}
	return LOOP_CONTINUE;
}

static bool
numas_in_one_socket(const struct dist *d, struct goslice combo)
{
	const struct kindex *ix = d->a->ix;
	int i, s = -1;

	for (i = 0; i < combo.len; i++) {
		int ns = ix->numa_socket[combo.a[i]];

		if (ns < 0 || (s >= 0 && ns != s))
			return false;
		s = ns;
	}
	return combo.len > 0;
}

/* Evaluate one combination of NUMA nodes. */
static int
score_combo(void *ctx, struct goslice combo)
{
	struct dist *d = ctx;
	struct kacc *a = d->a;
	const int *nf = a->nfree[K_NUMA];
	int G = d->group, i, dist, total = 0, groups = 0, sv, kk, r;
	struct ivec rc = { 0 };
	bool one_socket = false, better;

	if (d->best == 0 && (!d->align || d->best_one_socket))
		return LOOP_BREAK;
	/* Free CPUs of the union of the combination's nodes. */
	sv = ++a->stampv[K_NUMA];
	for (i = 0; i < combo.len; i++) {
		if (a->stamp[K_NUMA][combo.a[i]] == sv)
			continue;
		a->stamp[K_NUMA][combo.a[i]] = sv;
		total += nf[combo.a[i]];
	}
	if (total < d->n)
		return LOOP_CONTINUE;
	for (i = 0; i < combo.len; i++)
		groups += nf[combo.a[i]] / G;
	if (groups * G < d->n)
		return LOOP_CONTINUE;
	dist = d->n / combo.len / G * G;
	if (d->align)
		for (i = 0; i < combo.len; i++)
			if (dist > nf[combo.a[i]] / G * G)
				dist = nf[combo.a[i]] / G * G;
	for (i = 0; i < combo.len; i++)
		if (nf[combo.a[i]] < dist)
			return LOOP_CONTINUE;
	for (i = 0; i < d->nlset; i++)
		d->after[d->lset[i]] = nf[d->lset[i]];
	for (i = 0; i < combo.len; i++)
		d->after[combo.a[i]] -= dist;
	d->remainder = d->n - dist * combo.len;
	for (i = 0; i < combo.len; i++)
		if (d->after[combo.a[i]] >= G &&
		    ivec_push(&rc, combo.a[i]) < 0)
			return -ENOMEM;
	d->best_local = HUGE_VAL;
	d->best_local_rem = (struct goslice){ NULL, 0, 0 };
	if (d->remainder == 0)
		d->best_local = balance_of(d, d->after);
	for (kk = rc.n; d->remainder > 0 && kk >= 1; kk--) {
		r = iterate_combinations(&d->sub, rc.v, rc.n, kk, score_subset,
					 d);
		if (r < 0) {
			ivec_free(&rc);
			return r;
		}
	}
	ivec_free(&rc);
	if (d->align)
		one_socket = numas_in_one_socket(d, combo);
	better = d->best_local < d->best;
	if (d->align && one_socket != d->best_one_socket)
		better = one_socket;
	if (better) {
		/*
		 * The subsets' arrays are final once this combination's
		 * scoring is over (only the combinations' own arrays are
		 * written again later), so a copy keeps the kubelet's view.
		 */
		d->best = d->best_local;
		d->best_rem = d->best_local_rem;
		if (d->best_rem.len) {
			memcpy(d->best_rem_buf, d->best_rem.a,
			       (size_t)d->best_rem.len * sizeof(int));
			d->best_rem.a = d->best_rem_buf;
		}
		d->best_combo = combo;
		if (d->align)
			d->best_one_socket = one_socket;
	}
	arena_reset(&d->sub);
	return LOOP_CONTINUE;
}

/* packed() within the free CPUs of NUMA unit u, taken into a. */
static int
take_packed_in_numa(struct kacc *a, int u, int n)
{
	const struct kindex *ix = a->ix;
	struct cpuset sub = CPUSET_INIT, got = CPUSET_INIT;
	int j, c, r = 0;

	for (j = ix->off[K_NUMA][u]; j < ix->off[K_NUMA][u + 1]; j++)
		if (a->isfree[ix->mem[K_NUMA][j]] &&
		    (r = cpuset_set(&sub, (unsigned int)ix->mem[K_NUMA][j])) < 0)
			goto out;
	/* The kubelet ignores this call's error: a failure takes nothing. */
	r = packed(ix, &sub, n, a->spread, false, &got, NULL, 0);
	if (r == -ENOMEM)
		goto out;
	r = 0;
	cpuset_for_each(c, &got)
		a->needed -= kacc_take_cpu(a, c);
out:
	cpuset_free(&sub);
	cpuset_free(&got);
	return r;
}

static int
distributed(const struct kindex *ix, const struct cpuset *avail, int n,
	    int group, bool spread, bool align, struct cpuset *out,
	    char *err, size_t errlen)
{
	struct kacc a;
	struct dist d;
	struct ivec numas = { 0 };
	int r, i, k, kmin, kmax, nnuma_topo, nnuma_avail;
	int ngroups, per_numa, needed_groups;

	cpuset_zero(out);
	if (group < 1)
		group = 1;
	if (n % group != 0)
		return packed(ix, avail, n, spread, false, out, err, errlen);
	if ((r = kacc_init(&a, ix, avail, n, spread)) < 0)
		return r;
	memset(&d, 0, sizeof(d));
	d.ar.block_size = d.sub.block_size = 8192 * sizeof(int);
	if (kacc_satisfied(&a)) {
		kacc_free(&a);
		return 0;
	}
	if (a.needed > a.nfree_all) {
		kacc_free(&a);
		return not_enough(avail, n, err, errlen);
	}
	if ((r = sorted_numas(&a, &numas)) < 0)
		goto out;
	d.a = &a;
	d.numas = numas.v;
	d.nnumas = numas.n;
	d.n = n;
	d.group = group;
	d.align = align;
	d.lset = malloc(((size_t)ix->nunit[K_NUMA] + 1) * sizeof(int));
	d.after = calloc((size_t)ix->nunit[K_NUMA] + 1, sizeof(int));
	d.scratch = calloc((size_t)ix->nunit[K_NUMA] + 1, sizeof(int));
	d.best_rem_buf = malloc(((size_t)numas.n + 1) * sizeof(int));
	if (!d.lset || !d.after || !d.scratch || !d.best_rem_buf) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < ix->nunit[K_NUMA]; i++)
		if (a.nfree[K_NUMA][i] > 0)
			d.lset[d.nlset++] = i;

	/* rangeNUMANodesNeededToSatisfy */
	nnuma_topo = ix->nunit[K_NUMA];
	nnuma_avail = d.nlset;
	ngroups = (ix->nall - 1) / group + 1;
	per_numa = (ngroups - 1) / nnuma_topo + 1;
	needed_groups = (a.needed - 1) / group + 1;
	kmin = (needed_groups - 1) / per_numa + 1;
	kmax = needed_groups < nnuma_avail ? needed_groups : nnuma_avail;

	for (k = kmin; k <= kmax; k++) {
		int dist, rem;

		d.best = HUGE_VAL;
		d.best_one_socket = false;
		d.best_combo = d.best_rem = (struct goslice){ NULL, 0, 0 };
		r = iterate_combinations(&d.ar, d.numas, d.nnumas, k,
					 score_combo, &d);
		if (r < 0)
			goto out;
		if (d.best_combo.len == 0) {
			arena_free(&d.ar);
			continue;
		}
		dist = n / d.best_combo.len / group * group;
		for (i = 0; i < d.best_combo.len; i++) {
			int f = a.nfree[K_NUMA][d.best_combo.a[i]] / group *
			    group;

			if (dist > f)
				dist = f;
		}
		for (i = 0; i < d.best_combo.len; i++)
			if ((r = take_packed_in_numa(&a, d.best_combo.a[i],
						     dist)) < 0)
				goto out;
		rem = n - dist * d.best_combo.len;
		while (rem > 0) {
			bool progress = false;

			for (i = 0; i < d.best_rem.len; i++) {
				int u = d.best_rem.a[i];

				if (rem == 0)
					break;
				if (a.nfree[K_NUMA][u] < group)
					continue;
				if ((r = take_packed_in_numa(&a, u, group)) < 0)
					goto out;
				rem -= group;
				progress = true;
			}
			if (!progress)
				break;
		}
		if (a.needed > 0) {
			err_set(err, errlen, "accounting error, not enough "
				"CPUs allocated, remaining: %d", a.needed);
			r = -ENOSPC;
		} else if (a.needed < 0) {
			err_set(err, errlen, "accounting error, too many CPUs "
				"allocated, remaining: %d", a.needed);
			r = -ENOSPC;
		} else {
			r = kacc_result(&a, out);
		}
		goto out;
	}
	/* No combination works: pack. */
	r = packed(ix, avail, n, spread, false, out, err, errlen);
out:
	arena_free(&d.ar);
	arena_free(&d.sub);
	free(d.best_rem_buf);
	free(d.lset);
	free(d.after);
	free(d.scratch);
	ivec_free(&numas);
	kacc_free(&a);
	if (r < 0)
		cpuset_zero(out);
	return r;
}

/* ------------------------------------------------------------------ */
/* Exported entry points                                                */

int
kubelet_take_packed(const struct ktopo *kt, const struct cpuset *avail,
		    int n, bool spread, bool prefer_uncore,
		    struct cpuset *out, char *err, size_t errlen)
{
	struct kindex ix;
	int r;

	if ((r = kindex_build(&ix, kt, prefer_uncore)) < 0)
		return r;
	r = packed(&ix, avail, n, spread, prefer_uncore, out, err, errlen);
	kindex_free(&ix);
	return r;
}

int
kubelet_take_distributed(const struct ktopo *kt, const struct cpuset *avail,
			 int n, int group, bool spread, bool align_socket,
			 struct cpuset *out, char *err, size_t errlen)
{
	struct kindex ix;
	int r;

	if ((r = kindex_build(&ix, kt, false)) < 0)
		return r;
	r = distributed(&ix, avail, n, group, spread, align_socket, out, err,
			errlen);
	kindex_free(&ix);
	return r;
}

int
kubelet_order(const struct ktopo *kt, const struct cpuset *avail,
	      enum kubelet_order which, bool spread, int *out, int max)
{
	struct kindex ix;
	struct kacc a;
	struct ivec l = { 0 };
	int r, i, k = K_CPU_NONE, n = 0;

	if ((r = kindex_build(&ix, kt, true)) < 0)
		return r;
	if ((r = kacc_init(&a, &ix, avail, 0, spread)) < 0) {
		kindex_free(&ix);
		return r;
	}
	switch (which) {
	case KORDER_NUMA:
		k = K_NUMA;
		r = sorted_numas(&a, &l);
		break;
	case KORDER_SOCKET:
		k = K_SOCKET;
		r = sorted_sockets(&a, &l);
		break;
	case KORDER_CORE:
	case KORDER_FREE_CORE:
		k = K_CORE;
		r = sorted_cores(&a, &l);
		break;
	case KORDER_UNCORE:
		k = K_UNCORE;
		r = sorted_uncores(&a, &l);
		break;
	default:
		r = sorted_cpus(&a, &l);
		break;
	}
	for (i = 0; r == 0 && i < l.n; i++) {
		int v = l.v[i];

		if (which == KORDER_FREE_CORE && !unit_free(&a, K_CORE, v))
			continue;
		if (k != K_CPU_NONE)
			v = ix.uid[k][v];
		if (n < max)
			out[n] = v;
		n++;
	}
	ivec_free(&l);
	kacc_free(&a);
	kindex_free(&ix);
	return r < 0 ? r : n;
}

/* The group size the kubelet uses for distribute-cpus-across-numa. */
static int
dist_group(const struct kindex *ix, const struct ktake_opts *o)
{
	int g = o->distribute;

	if (o->full_cores && g == 1)
		g = ix->per_core;
	return g < 1 ? 1 : g;
}

/* staticPolicy.takeByTopology */
/* Does take_by_topology() with o read the uncore caches? */
static bool
uses_uncore(const struct ktake_opts *o)
{
	return o->distribute <= 0 && o->prefer_l3;
}

static int
take_by_topology(const struct kindex *ix, const struct ktake_opts *o,
		 const struct cpuset *avail, int n, struct cpuset *out,
		 char *err, size_t errlen)
{
	if (o->distribute > 0)
		return distributed(ix, avail, n, dist_group(ix, o),
				   o->spread_cores, o->align_socket, out, err,
				   errlen);
	return packed(ix, avail, n, o->spread_cores, o->prefer_l3, out, err,
		      errlen);
}

int
ktake_opts_check(const struct ktopo *kt, const struct ktake_opts *o,
		 char *err, size_t errlen)
{
	static const char both[] =
	    "static policy options %s and %s can not be used at the same time";

	if (o->distribute < 0) {
		err_set(err, errlen, "the distribute group size must be "
			"positive, not %d", o->distribute);
		return -EINVAL;
	}
	if (o->full_cores && o->spread_cores) {
		err_set(err, errlen, both, "full-pcpus-only",
			"distribute-cpus-across-cores");
		return -EINVAL;
	}
	if (o->distribute && o->spread_cores) {
		err_set(err, errlen, both, "distribute-cpus-across-numa",
			"distribute-cpus-across-cores");
		return -EINVAL;
	}
	if (o->prefer_l3 && o->spread_cores) {
		err_set(err, errlen, both, "prefer-align-cpus-by-uncorecache",
			"distribute-cpus-across-cores");
		return -EINVAL;
	}
	if (o->prefer_l3 && o->distribute) {
		err_set(err, errlen, both, "prefer-align-cpus-by-uncorecache",
			"distribute-cpus-across-numa");
		return -EINVAL;
	}
	if (o->align_socket) {
		/* The kubelet's message, spelling included. */
		if (o->single_numa_node) {
			err_set(err, errlen, "Topolgy manager single-numa-node "
				"policy is incompatible with CPUManager "
				"align-by-socket policy option");
			return -EINVAL;
		}
		if (kt->num_sockets > kt->num_numa) {
			err_set(err, errlen, "Align by socket is not compatible "
				"with hardware where number of sockets are more "
				"than number of NUMA");
			return -EINVAL;
		}
	}
	return 0;
}

/* CPUs of the topology whose attribute k is one of the ids in ids. */
static int
cpus_with(const struct kindex *ix, int k, const struct cpuset *ids,
	  struct cpuset *out)
{
	int u, j;

	cpuset_zero(out);
	for (u = 0; u < ix->nunit[k]; u++) {
		int id = ix->uid[k][u];

		if (id < 0 || !cpuset_isset(ids, (unsigned int)id))
			continue;
		for (j = ix->off[k][u]; j < ix->off[k][u + 1]; j++)
			if (cpuset_set(out, (unsigned int)ix->mem[k][j]) < 0)
				return -ENOMEM;
	}
	return 0;
}

int
kubelet_take(const struct ktopo *kt, const struct cpuset *avail, int n,
	     const struct ktake_opts *o, const struct cpuset *prefer_nodes,
	     const struct cpuset *reserved, struct cpuset *out,
	     char *err, size_t errlen)
{
	struct kindex ix;
	struct cpuset result = CPUSET_INIT, part = CPUSET_INIT;
	struct cpuset aligned = CPUSET_INIT, rest = CPUSET_INIT;
	int r, i;

	cpuset_zero(out);
	if ((r = kindex_build(&ix, kt, uses_uncore(o))) < 0)
		return r;
	if (o->full_cores) {
		int per_core = ix.per_core > 0 ? ix.per_core : 1;
		unsigned int phys = 0;

		if (n % per_core != 0) {
			err_set(err, errlen, "SMT Alignment Error: requested %d "
				"cpus not multiple cpus per core = %d", n,
				per_core);
			r = -EINVAL;
			goto out;
		}
		/* Free CPUs minus every thread of a core that holds a
		 * reserved CPU (reservedPhysicalCPUs). */
		for (i = 0; i < ix.nall; i++) {
			int c = ix_cpu(&ix, i), co = ix.unit[K_CORE][c], j;
			bool res = false;

			if (!cpuset_isset(avail, (unsigned int)c))
				continue;
			for (j = ix.off[K_CORE][co]; reserved && !res &&
			     j < ix.off[K_CORE][co + 1]; j++)
				res = cpuset_isset(reserved, (unsigned int)
						   ix.mem[K_CORE][j]);
			if (!res)
				phys++;
		}
		if (n > (int)phys) {
			err_set(err, errlen, "SMT Alignment Error: not enough "
				"free physical CPUs: available physical CPUs = "
				"%u, requested CPUs = %d, CPUs per core = %d",
				phys, n, per_core);
			r = -ENOSPC;
			goto out;
		}
	}
	if (prefer_nodes) {
		struct cpuset sockets = CPUSET_INIT;
		unsigned int m;

		if (o->align_socket) {
			/* Widen the NUMA hint to the sockets holding it. */
			r = cpus_with(&ix, K_NUMA, prefer_nodes, &aligned);
			for (i = 0; r == 0 && i < ix.nall; i++)
				if (cpuset_isset(&aligned,
						 (unsigned int)ix_cpu(&ix, i)))
					r = cpuset_set(&sockets, (unsigned int)
						       ix.uid[K_SOCKET][ix.unit[K_SOCKET]
								[ix_cpu(&ix, i)]]);
			if (r == 0)
				r = cpus_with(&ix, K_SOCKET, &sockets,
					      &aligned);
		} else {
			r = cpus_with(&ix, K_NUMA, prefer_nodes, &aligned);
		}
		cpuset_free(&sockets);
		if (r < 0)
			goto out;
		cpuset_and(&aligned, avail);
		m = cpuset_count(&aligned);
		if ((unsigned int)n < m)
			m = (unsigned int)n;
		r = take_by_topology(&ix, o, &aligned, (int)m, &part, err,
				     errlen);
		if (r < 0 || (r = cpuset_or(&result, &part)) < 0)
			goto out;
	}
	if ((r = cpuset_copy(&rest, avail)) < 0)
		goto out;
	cpuset_andnot(&rest, &result);
	r = take_by_topology(&ix, o, &rest, n - (int)cpuset_count(&result),
			     &part, err, errlen);
	if (r < 0 || (r = cpuset_or(&result, &part)) < 0)
		goto out;
	r = cpuset_copy(out, &result);
out:
	if (r < 0)
		cpuset_zero(out);
	cpuset_free(&result);
	cpuset_free(&part);
	cpuset_free(&aligned);
	cpuset_free(&rest);
	kindex_free(&ix);
	return r;
}

int
kubelet_take_reserved(const struct ktopo *kt, int n,
		      const struct ktake_opts *o, struct cpuset *out,
		      char *err, size_t errlen)
{
	struct kindex ix;
	int r;

	cpuset_zero(out);
	if ((r = kindex_build(&ix, kt, uses_uncore(o))) < 0)
		return r;
	/* As in the kubelet, an error of the take itself only shows as a
	 * wrong size. */
	r = take_by_topology(&ix, o, &kt->all, n, out, NULL, 0);
	kindex_free(&ix);
	if (r == -ENOMEM)
		return r;
	if ((int)cpuset_count(out) != n) {
		char *s = cpuset_to_list(out);

		err_set(err, errlen, "[cpumanager] unable to reserve the "
			"required amount of CPUs (size of %s did not equal %d)",
			s ? s : "", n);
		free(s);
		cpuset_zero(out);
		return -ENOSPC;
	}
	return 0;
}
