// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kubelet Topology Manager, CPU manager hints and Memory Manager
 * static-policy hints.  Masks are 64-bit node masks; the subsets of the
 * nodes are visited as the kubelet's IterateBitMasks does: one-node masks
 * first, then two-node masks, each size in lexicographic order of the
 * sorted node ids.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/macros.h"
#include "base/strbuf.h"
#include "kube/topomgr.h"

static const char *const policy_names[] = {
	"none", "best-effort", "restricted", "single-numa-node",
};

int
tm_max_nodes_parse(const char *s, int *max, char *err, size_t errlen)
{
	const char *d = s + (*s == '+' || *s == '-');
	char *end;
	long v;

	/* As Go's strconv.Atoi reads it, and says why not. */
	errno = 0;
	v = *d >= '0' && *d <= '9' ? strtol(s, &end, 10) : 0;
	if (!(*d >= '0' && *d <= '9') || *end || errno || v != (int)v)
		return err_ret(err, errlen, -EINVAL, "unable to convert policy "
			       "option to integer \"max-allowable-numa-nodes\": "
			       "strconv.Atoi: parsing \"%s\": %s", s,
			       *d >= '0' && *d <= '9' && !*end ?
			       "value out of range" : "invalid syntax");
	if (v < TM_DEFAULT_MAX_NODES)
		return err_ret(err, errlen, -EINVAL, "the minimum value of "
			       "\"max-allowable-numa-nodes\" should not be less "
			       "than %d", TM_DEFAULT_MAX_NODES);
	if (v > TM_MAX_NODES)
		return err_ret(err, errlen, -EINVAL, "max-allowable-numa-nodes "
			       "%ld: cpm numbers NUMA nodes below %d", v,
			       TM_MAX_NODES);
	*max = (int)v;
	return 0;
}

int
tm_max_nodes_check(int nnodes, int max, char *err, size_t errlen)
{
	if (max <= 0)
		max = TM_DEFAULT_MAX_NODES;
	if (nnodes > max)
		return err_ret(err, errlen, -ENOSPC, "unsupported on machines "
			       "with more than %d NUMA Nodes", max);
	return 0;
}

int
tm_policy_parse(const char *s, int *policy)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policy_names); i++)
		if (strcmp(s, policy_names[i]) == 0) {
			*policy = (int)i;
			return 0;
		}
	return -EINVAL;
}

const char *
tm_policy_name(int policy)
{
	if (policy < 0 || (size_t)policy >= ARRAY_SIZE(policy_names))
		return "?";
	return policy_names[policy];
}

void
tm_hints_free(struct tm_hints *h)
{
	free(h->h);
	memset(h, 0, sizeof(*h));
}

static int
hints_add(struct tm_hints *h, uint64_t mask, bool preferred)
{
	if (h->n == h->cap) {
		int cap = h->cap ? h->cap * 2 : 16;
		struct tm_hint *n = realloc(h->h, (size_t)cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		h->h = n;
		h->cap = cap;
	}
	h->h[h->n].mask = mask;
	h->h[h->n].preferred = preferred;
	h->n++;
	return 0;
}

int
tm_mask_from_set(const struct cpuset *nodes, uint64_t *mask)
{
	int id;

	*mask = 0;
	cpuset_for_each(id, nodes) {
		if (id >= 64)
			return -ERANGE;
		*mask |= 1ULL << id;
	}
	return 0;
}

int
tm_mask_to_set(uint64_t mask, struct cpuset *nodes)
{
	int i;

	cpuset_zero(nodes);
	for (i = 0; i < 64; i++)
		if ((mask >> i & 1) && cpuset_set(nodes, (unsigned int)i) < 0)
			return -ENOMEM;
	return 0;
}

void
tm_mask_format(uint64_t mask, struct strbuf *sb)
{
	struct cpuset s = CPUSET_INIT;

	if (tm_mask_to_set(mask, &s) < 0)
		sb->oom = true;
	cpuset_format(&s, sb);
	cpuset_free(&s);
}

/*
 * Visit every non-empty subset of ids[0..n) in the kubelet's order,
 * calling fn with its mask.  n <= TM_MAX_NODES.
 */
typedef int (*mask_fn)(uint64_t mask, void *arg);

static int
iterate_masks(const int *ids, int n, mask_fn fn, void *arg)
{
	int idx[TM_MAX_NODES], k, i, r;

	for (k = 1; k <= n; k++) {
		for (i = 0; i < k; i++)
			idx[i] = i;
		for (;;) {
			uint64_t mask = 0;

			for (i = 0; i < k; i++)
				mask |= 1ULL << ids[idx[i]];
			if ((r = fn(mask, arg)) < 0)
				return r;
			/* Next combination in lexicographic order. */
			for (i = k - 1; i >= 0 && idx[i] == n - k + i; i--)
				;
			if (i < 0)
				break;
			idx[i]++;
			for (i++; i < k; i++)
				idx[i] = idx[i - 1] + 1;
		}
	}
	return 0;
}

static int
popcount(uint64_t m)
{
	return __builtin_popcountll(m);
}

/* CPU hints */

struct cpu_ctx {
	const struct ktopo *kt;
	const int *total, *avail;	/* per node id: all / available CPUs */
	const int *sockets_of_node;	/* per node id: socket, -1 */
	int n, min_affinity, nodes_per_socket;
	bool align_socket, pass2;
	struct tm_hints *out;
};

static int
cpu_visit(uint64_t mask, void *arg)
{
	struct cpu_ctx *c = arg;
	int tot = 0, av = 0, i, bits = popcount(mask);

	for (i = 0; i < 64; i++)
		if (mask >> i & 1) {
			tot += c->total[i];
			av += c->avail[i];
		}
	if (!c->pass2) {
		if (tot >= c->n && bits < c->min_affinity)
			c->min_affinity = bits;
		return 0;
	}
	if (av < c->n)
		return 0;
	{
		bool pref = bits == c->min_affinity;

		if (!pref && c->align_socket && c->nodes_per_socket > 0) {
			int min_sockets = (c->min_affinity +
					   c->nodes_per_socket - 1) /
					  c->nodes_per_socket;
			uint64_t socks = 0;

			for (i = 0; i < 64; i++)
				if ((mask >> i & 1) && c->sockets_of_node[i] >= 0
				    && c->sockets_of_node[i] < 64)
					socks |= 1ULL << c->sockets_of_node[i];
			pref = popcount(socks) == min_sockets;
		}
		return hints_add(c->out, mask, pref);
	}
}

int
tm_cpu_hints(const struct ktopo *kt, const struct cpuset *avail, int n,
	     bool align_socket, struct tm_hints *out)
{
	int total[64] = { 0 }, av[64] = { 0 }, sock[64], ids[TM_MAX_NODES];
	int nids = 0, cpu, i, r;
	uint64_t present = 0;
	struct cpu_ctx c;

	memset(out, 0, sizeof(*out));
	if (n <= 0) {
		out->dont_care = true;
		return 0;
	}
	for (i = 0; i < 64; i++)
		sock[i] = -1;
	cpuset_for_each(cpu, &kt->all) {
		int node = kt->cpu[cpu].numa;

		if (node < 0)
			continue;
		if (node >= 64)
			return -ERANGE;
		present |= 1ULL << node;
		total[node]++;
		if (cpuset_isset(avail, (unsigned int)cpu))
			av[node]++;
		if (sock[node] < 0)
			sock[node] = kt->cpu[cpu].socket;
	}
	if (popcount(present) > TM_MAX_NODES)
		return -ERANGE;
	for (i = 0; i < 64; i++)
		if (present >> i & 1)
			ids[nids++] = i;
	memset(&c, 0, sizeof(c));
	c.kt = kt;
	c.total = total;
	c.avail = av;
	c.sockets_of_node = sock;
	c.n = n;
	c.min_affinity = nids;
	c.align_socket = align_socket;
	c.nodes_per_socket = kt->num_sockets ? kt->num_numa / kt->num_sockets
					     : 0;
	c.out = out;
	iterate_masks(ids, nids, cpu_visit, &c);
	c.pass2 = true;
	r = iterate_masks(ids, nids, cpu_visit, &c);
	if (r < 0)
		tm_hints_free(out);
	return r;
}

/* Memory hints */

struct mem_ctx {
	const struct tm_mem_node *nodes;
	int nn;
	const uint64_t *req;
	int nres;
	int min_affinity;
	bool pass2;
	struct tm_hints *out;
};

static const struct tm_mem_node *
mem_node(const struct mem_ctx *c, int id)
{
	int i;

	for (i = 0; i < c->nn; i++)
		if (c->nodes[i].id == id)
			return &c->nodes[i];
	return NULL;
}

static int
mem_visit(uint64_t mask, void *arg)
{
	struct mem_ctx *c = arg;
	uint64_t total[TM_MEM_RES] = { 0 }, fr[TM_MEM_RES] = { 0 };
	int bits = popcount(mask), i, r;

	for (i = 0; i < 64; i++)
		if (mask >> i & 1) {
			const struct tm_mem_node *m = mem_node(c, i);

			for (r = 0; r < c->nres; r++) {
				total[r] += m->total[r];
				fr[r] += m->total[r] > m->booked[r] ?
					 m->total[r] - m->booked[r] : 0;
			}
		}
	for (r = 0; r < c->nres; r++)
		if (total[r] < c->req[r])
			return 0;
	if (!c->pass2) {
		if (bits < c->min_affinity)
			c->min_affinity = bits;
		return 0;
	}
	for (i = 0; i < 64; i++) {
		const struct tm_mem_node *m;

		if (!(mask >> i & 1))
			continue;
		m = mem_node(c, i);
		/* A node grouped with others serves only that group; a
		 * node with single-node bookings is never grouped. */
		if (bits == 1 && m->group && popcount(m->group) > 1)
			return 0;
		if (bits > 1 && m->group && m->group != mask)
			return 0;
	}
	for (r = 0; r < c->nres; r++)
		if (fr[r] < c->req[r])
			return 0;
	return hints_add(c->out, mask, bits == c->min_affinity);
}

int
tm_mem_hints(const struct tm_mem_node *nodes, int nn, const uint64_t *req,
	     int nres, struct tm_hints *out)
{
	int ids[TM_MAX_NODES], i, j, r;
	bool any = false;
	struct mem_ctx c;

	memset(out, 0, sizeof(*out));
	if (nres > TM_MEM_RES)
		nres = TM_MEM_RES;
	for (r = 0; r < nres; r++)
		any |= req[r] != 0;
	if (!any) {
		out->dont_care = true;
		return 0;
	}
	if (nn > TM_MAX_NODES)
		return -ERANGE;
	for (i = 0; i < nn; i++) {
		if (nodes[i].id < 0 || nodes[i].id >= 64)
			return -ERANGE;
		ids[i] = nodes[i].id;
	}
	/* Sorted ids, as the kubelet sorts them. */
	for (i = 1; i < nn; i++)
		for (j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			int t = ids[j];

			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	memset(&c, 0, sizeof(c));
	c.nodes = nodes;
	c.nn = nn;
	c.req = req;
	c.nres = nres;
	c.min_affinity = nn;
	c.out = out;
	iterate_masks(ids, nn, mem_visit, &c);
	c.pass2 = true;
	r = iterate_masks(ids, nn, mem_visit, &c);
	if (r < 0)
		tm_hints_free(out);
	return r;
}

/* Merging */

/* a narrower than b: fewer nodes, or as many with lower ids. */
static bool
narrower(uint64_t a, uint64_t b)
{
	if (popcount(a) == popcount(b))
		return a < b;
	return popcount(a) < popcount(b);
}

/*
 * prefer-closest-numa-nodes: at equal width, the lower mean distance over
 * all ordered pairs of the mask's nodes (self pairs included) wins.
 * Returns <0 when a is closer, >0 when b is, 0 on a tie.
 */
static int
closer(uint64_t a, uint64_t b, const int *dist)
{
	long sa = 0, sb = 0;
	int i, j, na = popcount(a), nb = popcount(b);

	for (i = 0; i < 64; i++)
		for (j = 0; j < 64; j++) {
			if ((a >> i & 1) && (a >> j & 1))
				sa += dist[i * 64 + j];
			if ((b >> i & 1) && (b >> j & 1))
				sb += dist[i * 64 + j];
		}
	/* Compare sa/na^2 with sb/nb^2 without rounding. */
	sa *= (long)nb * nb;
	sb *= (long)na * na;
	return sa < sb ? -1 : sa > sb;
}

static const struct tm_hint *
better_mask(const struct tm_hint *cur, const struct tm_hint *cand,
	    const int *dist)
{
	if (cand->mask == cur->mask)
		return cur;
	if (dist && popcount(cand->mask) == popcount(cur->mask)) {
		int c = closer(cand->mask, cur->mask, dist);

		if (c)
			return c < 0 ? cand : cur;
	}
	return narrower(cand->mask, cur->mask) ? cand : cur;
}

static const struct tm_hint *
compare(const struct tm_hint *cur, const struct tm_hint *cand, int best_np,
	const int *dist)
{
	int cc, nc;

	if (cand->mask == 0)
		return cur;
	if (!cur)
		return cand;
	if (!cur->preferred && cand->preferred)
		return cand;
	if (cur->preferred && !cand->preferred)
		return cur;
	if (cur->preferred && cand->preferred)
		return better_mask(cur, cand, dist);
	cc = popcount(cur->mask);
	nc = popcount(cand->mask);
	if (cc > best_np)
		return better_mask(cur, cand, dist);
	if (cc == best_np)
		return nc != best_np ? cur : better_mask(cur, cand, dist);
	if (nc > best_np)
		return cur;
	if (nc == best_np)
		return cand;
	if (nc > cc)
		return cand;
	if (nc < cc)
		return cur;
	return better_mask(cur, cand, dist);
}

struct merge_ctx {
	const struct tm_hint **lists;
	const int *lens;
	int nlists;
	uint64_t all;
	int best_np;
	const int *dist;
	const struct tm_hint *pick[8];
	struct tm_hint merged, best;
	bool have_best;
};

static void
merge_rec(struct merge_ctx *m, int depth)
{
	int i;

	if (depth == m->nlists) {
		uint64_t mask = m->all, first = 0;
		bool pref = true, have_first = false;
		const struct tm_hint *b;

		for (i = 0; i < m->nlists; i++) {
			const struct tm_hint *h = m->pick[i];

			if (h->mask) {
				if (!have_first) {
					first = h->mask;
					have_first = true;
				} else if (h->mask != first) {
					pref = false;
				}
				mask &= h->mask;
			}
			if (!h->preferred)
				pref = false;
		}
		m->merged.mask = mask;
		m->merged.preferred = pref;
		b = compare(m->have_best ? &m->best : NULL, &m->merged,
			    m->best_np, m->dist);
		if (b == &m->merged) {
			m->best = m->merged;
			m->have_best = true;
		}
		return;
	}
	for (i = 0; i < m->lens[depth]; i++) {
		m->pick[depth] = &m->lists[depth][i];
		merge_rec(m, depth + 1);
	}
}

bool
tm_merge(int policy, uint64_t all, const struct tm_hints *in, int nlists,
	 struct tm_hint *best)
{
	return tm_merge_closest(policy, all, in, nlists, NULL, best);
}

bool
tm_merge_closest(int policy, uint64_t all, const struct tm_hints *in,
		 int nlists, const int *dist, struct tm_hint *best)
{
	static const struct tm_hint any = { 0, true }, impossible = { 0, false };
	struct tm_hint *filtered[8] = { NULL };
	const struct tm_hint *lists[8];
	int lens[8], i, j;
	struct merge_ctx m;

	if (policy == TM_NONE || nlists > 8) {
		best->mask = 0;
		best->preferred = true;
		return true;
	}
	memset(&m, 0, sizeof(m));
	for (i = 0; i < nlists; i++) {
		int narrowest = 0;

		/* Normalisation: no opinion is "any, preferred"; no hint
		 * at all is "impossible". */
		if (in[i].dont_care) {
			lists[i] = &any;
			lens[i] = 1;
		} else if (in[i].n == 0) {
			lists[i] = &impossible;
			lens[i] = 1;
		} else {
			lists[i] = in[i].h;
			lens[i] = in[i].n;
		}
		for (j = 0; j < lens[i]; j++) {
			int c = popcount(lists[i][j].mask);

			if (lists[i][j].mask && (!narrowest || c < narrowest))
				narrowest = c;
		}
		if (narrowest > m.best_np)
			m.best_np = narrowest;
		if (policy == TM_SINGLE_NUMA) {
			int k = 0;

			filtered[i] = malloc((size_t)lens[i] *
					     sizeof(struct tm_hint));
			if (!filtered[i]) {
				lens[i] = 0;
				continue;
			}
			for (j = 0; j < lens[i]; j++) {
				const struct tm_hint *h = &lists[i][j];

				if (h->preferred && (h->mask == 0 ||
						     popcount(h->mask) == 1))
					filtered[i][k++] = *h;
			}
			lists[i] = filtered[i];
			lens[i] = k;
		}
	}
	m.lists = lists;
	m.lens = lens;
	m.nlists = nlists;
	m.all = all;
	/* The kubelet never applies "closest" to single-numa-node. */
	m.dist = policy == TM_SINGLE_NUMA ? NULL : dist;
	merge_rec(&m, 0);
	for (i = 0; i < nlists; i++)
		free(filtered[i]);
	if (!m.have_best) {
		best->mask = all;
		best->preferred = false;
	} else {
		*best = m.best;
	}
	if (policy == TM_SINGLE_NUMA && best->mask == all &&
	    popcount(all) != 1)
		best->mask = 0;
	if (policy == TM_BEST_EFFORT)
		return true;
	return best->preferred;
}

int
tm_mem_book(const struct tm_mem_node *nodes, int nn, uint64_t mask,
	    int res, uint64_t req, struct mem_booking *out, int *nout)
{
	int i, id;

	*nout = 0;
	for (id = 0; id < 64; id++) {
		if (!(mask >> id & 1))
			continue;
		for (i = 0; i < nn; i++) {
			const struct tm_mem_node *m = &nodes[i];
			uint64_t fr, take;

			if (m->id != id)
				continue;
			fr = m->total[res] > m->booked[res] ?
			     m->total[res] - m->booked[res] : 0;
			take = fr < req ? fr : req;
			/* Every node of the group is recorded, even with
			 * nothing booked on it: the group is what later
			 * hints must respect. */
			out[*nout].node = id;
			out[*nout].bytes = take;
			(*nout)++;
			req -= take;
		}
	}
	return req ? -ENOSPC : 0;
}

/* Device hints */

struct dev_ctx {
	uint64_t need;
	struct tm_hints *out;
};

static int
dev_visit(uint64_t mask, void *arg)
{
	const struct dev_ctx *c = arg;

	if ((mask & c->need) != c->need)
		return 0;
	/* The narrowest sets that hold the device are exactly need. */
	return hints_add(c->out, mask, mask == c->need);
}

int
tm_device_hints(uint64_t all, uint64_t need, struct tm_hints *out)
{
	int ids[TM_MAX_NODES], nids = 0, i, r;
	struct dev_ctx c = { need, out };

	memset(out, 0, sizeof(*out));
	if (popcount(all) > TM_MAX_NODES)
		return -ERANGE;
	if (!need || (need & ~all)) {
		out->dont_care = true;
		return 0;
	}
	for (i = 0; i < 64; i++)
		if (all >> i & 1)
			ids[nids++] = i;
	r = iterate_masks(ids, nids, dev_visit, &c);
	if (r < 0)
		tm_hints_free(out);
	return r;
}
