// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocator's decisions: take (hints, merge, take, verify, memory
 * booking), resize, owners and check.  See alloc.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc/alloc.h"
#include "base/err.h"
#include "base/macros.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "machine/proc.h"

static int
oom(char *err, size_t errlen)
{
	return err_ret(err, errlen, -ENOMEM, "out of memory");
}

static int
threads_per_core(const struct ktopo *kt)
{
	return kt->num_cores ? kt->num_cpus / kt->num_cores : 1;
}

const struct ktopo *
alloc_machine_kt(const struct alloc_machine *m)
{
	if (!ktopo_made(m->kt) && ktopo_from_topo(m->kt, m->topo) < 0)
		return NULL;
	return m->kt;
}

int
alloc_opts_effective(const struct alloc_machine *m,
		     const struct alloc_opts *policy, struct alloc_opts *o,
		     char *err, size_t errlen)
{
	const struct ktopo *kt = alloc_machine_kt(m);

	if (!kt)
		return oom(err, errlen);
	alloc_opts_merge(o, policy);
	if (o->distribute_auto) {
		int tpc = threads_per_core(kt);

		o->k.distribute = o->k.full_cores && tpc > 0 ? tpc : 1;
	}
	o->k.single_numa_node = o->numa_policy == TM_SINGLE_NUMA;
	if (ktake_opts_check(kt, &o->k, err, errlen) < 0)
		return -EINVAL;
	return 0;
}

int
alloc_resize_opts(const struct alloc_machine *m,
		  const struct alloc_opts *policy, const struct alloc_entry *e,
		  struct alloc_opts *o, char *err, size_t errlen)
{
	*o = e->opts;
	if (o->distribute_auto)
		o->k.distribute = 0;
	return alloc_opts_effective(m, policy, o, err, errlen);
}

void
alloc_size_format(struct strbuf *sb, uint64_t b)
{
	static const char units[] = "KMGTPE";
	int u = -1;

	while (b && b % 1024 == 0 && u < 5) {
		b /= 1024;
		u++;
	}
	if (u < 0)
		strbuf_printf(sb, "%llu", (unsigned long long)b);
	else
		strbuf_printf(sb, "%llu%c", (unsigned long long)b, units[u]);
}

/* The resources rq asks for as the Memory Manager's request vector. */
static int
mem_request(const struct alloc_request *rq, uint64_t *req)
{
	int i;

	req[0] = rq->mem;
	for (i = 0; i < rq->nhuge && i < ALLOC_HUGE_MAX; i++)
		req[1 + i] = rq->huge[i].bytes;
	return 1 + i;
}

/* The mask of the nodes of e's memory and huge page bookings. */
static uint64_t
booking_group(const struct alloc_entry *e, int node, bool *here)
{
	uint64_t g = 0;
	int k;

	for (k = 0; k < e->nmem; k++) {
		if (e->mem[k].node < 64)
			g |= 1ULL << e->mem[k].node;
		*here |= e->mem[k].node == node;
	}
	for (k = 0; k < e->nhuge; k++) {
		if (e->huge[k].node < 64)
			g |= 1ULL << e->huge[k].node;
		*here |= e->huge[k].node == node;
	}
	return g;
}

/*
 * Memory Manager view of the nodes (the static policy's machine state):
 * huge pages of each size rq asks for from the node's nr_hugepages,
 * regular memory from meminfo MemTotal less every size of huge pages;
 * each less what is reserved on the node.
 */
static struct tm_mem_node *
mem_nodes(const struct topo *t, const struct alloc_state *st,
	  const struct alloc_request *rq)
{
	struct tm_mem_node *m = calloc((size_t)t->nnodes + 1, sizeof(*m));
	int i, k, x;

	if (!m)
		return NULL;
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];
		uint64_t huge = 0, total, res;

		m[i].id = n->id;
		for (k = 0; k < n->nhuge; k++)
			huge += n->huge[k].nr * n->huge[k].kb * 1024;
		total = n->mem_total_kb > 0 ? (uint64_t)n->mem_total_kb * 1024 :
			0;
		res = state_mem_reserved(st, n->id, 0) + huge;
		m[i].total[0] = total > res ? total - res : 0;
		m[i].booked[0] = state_mem_booked(st, n->id);
		for (k = 0; rq && k < rq->nhuge && k < ALLOC_HUGE_MAX; k++) {
			unsigned int kb = rq->huge[k].kb;
			const struct topo_huge *h = topo_node_huge(n, kb);

			total = h ? h->nr * kb * 1024 : 0;
			res = state_mem_reserved(st, n->id, kb);
			m[i].total[1 + k] = total > res ? total - res : 0;
			m[i].booked[1 + k] = state_huge_booked(st, kb, n->id);
		}
		for (x = 0; x < st->nentries; x++) {
			bool here = false;
			uint64_t g = booking_group(&st->entries[x], n->id,
						   &here);

			if (here)
				m[i].group |= g;
		}
	}
	return m;
}

static uint64_t
all_nodes_mask(const struct topo *t)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id < 64)
			m |= 1ULL << t->nodes[i].id;
	return m;
}

/* The mask of the nodes of cpus; -ENOMEM. */
static int
nodes_mask_of(const struct topo *t, const struct cpuset *cpus, uint64_t *m)
{
	struct cpuset nodes = CPUSET_INIT;

	*m = 0;
	if (topo_nodes_of(t, cpus, &nodes) < 0) {
		cpuset_free(&nodes);
		return -ENOMEM;
	}
	tm_mask_from_set(&nodes, m);
	cpuset_free(&nodes);
	return 0;
}

static void
free_per_node(const struct topo *t, const struct cpuset *avail,
	      struct strbuf *sb)
{
	int i;

	for (i = 0; i < t->nnodes; i++) {
		struct cpuset s = CPUSET_INIT;
		const struct topo_node *n = &t->nodes[i];

		if (cpuset_copy(&s, &n->cpus) < 0)
			sb->oom = true;
		cpuset_and(&s, avail);
		strbuf_printf(sb, "%s%d:%u", i ? " " : "", n->id,
			      cpuset_count(&s));
		cpuset_free(&s);
	}
}

/* Why a Topology Manager policy refused: one line into sb. */
static void
explain_refusal(const struct alloc_machine *m, const struct alloc_request *rq,
		const struct cpuset *avail, const struct tm_hints *cpu,
		const struct tm_hints *mem, const struct tm_hint *best,
		struct strbuf *sb)
{
	const struct alloc_opts *o = &rq->opts;
	int h;

	strbuf_printf(sb, "topology affinity error: the %s policy refuses "
		      "%d CPUs", tm_policy_name(o->numa_policy), rq->n);
	if (rq->have_mem && (rq->mem || !rq->nhuge)) {
		strbuf_puts(sb, " and ");
		alloc_size_format(sb, rq->mem);
		strbuf_puts(sb, " of memory");
	}
	for (h = 0; rq->have_mem && h < rq->nhuge; h++) {
		char name[64];

		alloc_huge_name(rq->huge[h].kb, name, sizeof(name));
		strbuf_puts(sb, " and ");
		alloc_size_format(sb, rq->huge[h].bytes);
		strbuf_printf(sb, " of %s", name);
	}
	if (rq->nnear) {
		int k;

		strbuf_puts(sb, " beside ");
		for (k = 0; k < rq->nnear; k++) {
			const struct alloc_near *d = &rq->near[k];

			if (k)
				strbuf_puts(sb, k + 1 < rq->nnear ? ", " :
					    " and ");
			strbuf_puts(sb, d->name);
			if (d->node < 0) {
				strbuf_puts(sb, " (NUMA node unknown)");
			} else {
				const struct topo_node *n =
					topo_node_by_id(m->topo, d->node);
				unsigned int nfree = n ?
					cpuset_count_and(&n->cpus, avail) : 0;

				strbuf_printf(sb, " (on NUMA node %d, %u CPU%s "
					      "free there)", d->node, nfree,
					      nfree == 1 ? "" : "s");
			}
		}
	}
	if (!cpu->dont_care && cpu->n == 0)
		strbuf_printf(sb, ": no NUMA node set has %d free CPUs", rq->n);
	else if (mem && !mem->dont_care && mem->n == 0)
		strbuf_puts(sb, ": no NUMA node set has that much free memory");
	else if (o->numa_policy == TM_SINGLE_NUMA && rq->nnear)
		strbuf_puts(sb, ": no single NUMA node can hold it with the "
			    "device");
	else if (o->numa_policy == TM_SINGLE_NUMA)
		strbuf_puts(sb, ": no single NUMA node can hold it");
	else if (rq->nnear)
		strbuf_puts(sb, ": no NUMA node set is preferred for both the "
			    "CPUs and the device");
	else if (mem && !mem->dont_care) {
		strbuf_puts(sb, ": no NUMA node set is preferred for both the "
			    "CPUs and the memory (best: ");
		tm_mask_format(best->mask, sb);
		strbuf_puts(sb, ")");
	} else {
		strbuf_puts(sb, ": the best NUMA node set ");
		tm_mask_format(best->mask, sb);
		strbuf_puts(sb, " is wider than the request needs on an idle "
			    "machine");
	}
	strbuf_puts(sb, " (free CPUs per node: ");
	free_per_node(m->topo, avail, sb);
	strbuf_puts(sb, ")");
}

/* Why these CPUs: one line into sb, after the take. */
static void
explain_choice(const struct topo *t, const struct alloc_request *rq,
	       const struct cpuset *avail, const struct cpuset *prefer,
	       const struct cpuset *got, struct strbuf *sb)
{
	const struct ktake_opts *k = &rq->opts.k;

	strbuf_puts(sb, "chose ");
	cpuset_format(got, sb);
	strbuf_printf(sb, " of %u free CPUs (per node: ", cpuset_count(avail));
	free_per_node(t, avail, sb);
	strbuf_puts(sb, ")");
	if (prefer) {
		strbuf_puts(sb, ", from NUMA nodes ");
		cpuset_format(prefer, sb);
		strbuf_puts(sb, " first");
	}
	if (k->distribute)
		strbuf_puts(sb, ": the static policy spreads them evenly over "
			    "the fewest NUMA nodes that hold them");
	else
		strbuf_puts(sb, ": the static policy takes whole NUMA nodes "
			    "or sockets, then whole cores, then single "
			    "threads, packed on the fewest");
	if (k->full_cores)
		strbuf_puts(sb, ", whole cores only");
	strbuf_puts(sb, "\n");
}

/*
 * The NUMA distance matrix by node id into d (64 x 64); false when the
 * kernel gave none.
 */
static bool
distances(const struct topo *t, int *d)
{
	int i, j;

	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *a = &t->nodes[i];

		if (!a->distance || a->id >= 64)
			return false;
		for (j = 0; j < t->nnodes; j++)
			if (t->nodes[j].id < 64)
				d[a->id * 64 + t->nodes[j].id] = a->distance[j];
	}
	return true;
}

static void
explain_hints(struct strbuf *sb, const char *what, const struct tm_hints *h)
{
	int i;

	strbuf_printf(sb, "%s: ", what);
	if (h->dont_care)
		strbuf_puts(sb, "any (no preference)");
	else if (h->n == 0)
		strbuf_puts(sb, "none (cannot be satisfied)");
	for (i = 0; i < h->n; i++) {
		if (i)
			strbuf_puts(sb, ", ");
		tm_mask_format(h->h[i].mask, sb);
		strbuf_puts(sb, h->h[i].preferred ? " preferred" : " -");
	}
	strbuf_puts(sb, "\n");
}

/*
 * The CPU and memory hints for n CPUs among avail; mem_h is "don't
 * care" without have_mem.  *mn gets the Memory Manager's view.  For a
 * Topology Manager policy (policy), a machine of more NUMA nodes than
 * max-allowable-numa-nodes is refused as the kubelet refuses it; other
 * uses keep to the 16 nodes cpm enumerates without it.
 */
static int
request_hints(const struct alloc_machine *m, const struct alloc_state *st,
	      const struct cpuset *avail, int n, bool align_socket,
	      const struct alloc_request *mrq, bool policy,
	      struct tm_mem_node **mn, struct tm_hints *cpu_h,
	      struct tm_hints *mem_h, char *err, size_t errlen)
{
	const struct ktopo *kt = alloc_machine_kt(m);
	int r;

	r = tm_max_nodes_check(m->topo->nnodes, policy ? m->max_nodes :
			       m->max_nodes > 16 ? m->max_nodes : 16, err,
			       errlen);
	if (r < 0)
		return r;

	*mn = mem_nodes(m->topo, st, mrq);
	/* The hints look at each CPU's node. */
	if (!*mn || !kt || ktopo_cpus(m->kt) < 0)
		return oom(err, errlen);
	r = tm_cpu_hints(kt, avail, n, align_socket, cpu_h);
	if (r == 0 && mrq && mrq->have_mem) {
		uint64_t req[TM_MEM_RES];
		int nres = mem_request(mrq, req);

		r = tm_mem_hints(*mn, m->topo->nnodes, req, nres, mem_h);
	} else
		mem_h->dont_care = true;
	if (r == -ERANGE)
		return err_ret(err, errlen, -ENOSPC, "NUMA hints need NUMA "
			       "nodes numbered below %d", TM_MAX_NODES);
	if (r < 0)
		return oom(err, errlen);
	return 0;
}

/*
 * The CPU manager drops a hint whose nodes do not hold every reusable
 * CPU (generateCPUTopologyHints): the CPUs of a pod's init members.
 */
static int
keep_reuse_hints(const struct topo *t, const struct cpuset *reuse,
		 struct tm_hints *h, char *err, size_t errlen)
{
	uint64_t need;
	int i, k = 0;

	if (h->dont_care || cpuset_empty(reuse))
		return 0;
	if (nodes_mask_of(t, reuse, &need) < 0)
		return oom(err, errlen);
	for (i = 0; i < h->n; i++)
		if ((h->h[i].mask & need) == need)
			h->h[k++] = h->h[i];
	h->n = k;
	return 0;
}

/* Whether the free memory of the nodes of mask holds every resource of
 * req (isAffinitySatisfyRequest). */
static bool
mask_holds(const struct tm_mem_node *mn, int nn, uint64_t mask,
	   const uint64_t *req, int nres)
{
	int i, r;

	for (r = 0; r < nres; r++) {
		uint64_t fr = 0;

		for (i = 0; i < nn; i++)
			if (mn[i].id < 64 && (mask >> mn[i].id & 1) &&
			    mn[i].total[r] > mn[i].booked[r])
				fr += mn[i].total[r] - mn[i].booked[r];
		if (fr < req[r])
			return false;
	}
	return true;
}

/*
 * The Memory Manager's answer to a merged hint whose nodes lack the free
 * memory (extendTopologyManagerHint, findBestHint): of its own hints
 * that hold every node of mask, a preferred one before the others, then
 * the narrowest.  Returns that hint's mask with *preferred, or 0.
 */
static uint64_t
extend_mask(const struct tm_hints *mem_h, uint64_t mask, bool *preferred)
{
	const struct tm_hint *b = NULL;
	int k;

	for (k = 0; k < mem_h->n; k++) {
		const struct tm_hint *h = &mem_h->h[k];
		int c, bc;

		if ((h->mask & mask) != mask)
			continue;
		if (!b || (h->preferred && !b->preferred)) {
			b = h;
			continue;
		}
		if (h->preferred != b->preferred)
			continue;
		c = __builtin_popcountll(h->mask);
		bc = __builtin_popcountll(b->mask);
		if (c < bc || (c == bc && h->mask < b->mask))
			b = h;
	}
	if (!b)
		return 0;
	*preferred = b->preferred;
	return b->mask;
}

/* "not enough free memory for ..." for resource res: -ENOSPC. */
static int
short_of(const struct topo *t, const struct alloc_request *rq,
	 const struct tm_mem_node *mn, int res, char *err, size_t errlen)
{
	struct strbuf sb;
	char name[64];
	int k;

	strbuf_init(&sb);
	if (res == 0) {
		strbuf_puts(&sb, "not enough free memory for ");
		alloc_size_format(&sb, rq->mem);
	} else {
		alloc_huge_name(rq->huge[res - 1].kb, name, sizeof(name));
		strbuf_printf(&sb, "not enough free %s for ", name);
		alloc_qty_format(&sb, rq->huge[res - 1].bytes);
	}
	strbuf_puts(&sb, " (free per node:");
	for (k = 0; k < t->nnodes; k++) {
		strbuf_printf(&sb, " %d:", mn[k].id);
		alloc_size_format(&sb, mn[k].total[res] > mn[k].booked[res] ?
				  mn[k].total[res] - mn[k].booked[res] : 0);
	}
	strbuf_puts(&sb, ")");
	if (sb.oom) {
		strbuf_free(&sb);
		return oom(err, errlen);
	}
	err_ret(err, errlen, -ENOSPC, "%s", sb.buf);
	strbuf_free(&sb);
	return -ENOSPC;
}

/*
 * Book each resource rq asks for on the nodes of mask, as the Memory
 * Manager's updateMachineState books it: regular memory into e->mem,
 * huge pages into e->huge (by size, then node).
 */
static int
book_on(const struct topo *t, const struct alloc_request *rq,
	const struct tm_mem_node *mn, uint64_t mask, struct alloc_entry *e,
	char *err, size_t errlen)
{
	struct mem_booking *tmp;
	int i, k, n;

	e->mem = calloc((size_t)t->nnodes + 1, sizeof(*e->mem));
	e->huge = calloc((size_t)t->nnodes * (size_t)(rq->nhuge + 1),
			 sizeof(*e->huge));
	tmp = calloc((size_t)t->nnodes + 1, sizeof(*tmp));
	if (!e->mem || !e->huge || !tmp) {
		free(tmp);
		return oom(err, errlen);
	}
	if (rq->mem > 0 && tm_mem_book(mn, t->nnodes, mask, 0, rq->mem,
				       e->mem, &e->nmem) < 0) {
		free(tmp);
		return short_of(t, rq, mn, 0, err, errlen);
	}
	for (i = 0; i < rq->nhuge && i < ALLOC_HUGE_MAX; i++) {
		if (tm_mem_book(mn, t->nnodes, mask, 1 + i, rq->huge[i].bytes,
				tmp, &n) < 0) {
			free(tmp);
			return short_of(t, rq, mn, 1 + i, err, errlen);
		}
		for (k = 0; k < n; k++) {
			struct huge_booking *h = &e->huge[e->nhuge++];

			h->kb = rq->huge[i].kb;
			h->node = tmp[k].node;
			h->bytes = tmp[k].bytes;
		}
	}
	free(tmp);
	return 0;
}

/*
 * Book rq's memory and huge pages for e on the merged hint's nodes
 * (best) or, with no Topology Manager decision, where the CPUs are when
 * that can hold it.  A merged hint whose nodes lack the free memory is
 * extended as the Memory Manager extends it; explain (or NULL) says so.
 */
static int
book_memory(const struct alloc_machine *m, const struct alloc_request *rq,
	    const struct tm_mem_node *mn, const struct tm_hints *mem_h,
	    const struct tm_hint *best, struct alloc_entry *e,
	    struct strbuf *explain, char *err, size_t errlen)
{
	const struct topo *t = m->topo;
	uint64_t mask = best->mask, req[TM_MEM_RES];
	int k, nres = mem_request(rq, req);

	if (rq->opts.numa_policy == TM_NONE || !mask) {
		uint64_t cm;
		struct tm_hint mb;

		if (nodes_mask_of(t, &e->cpus, &cm) < 0)
			return oom(err, errlen);
		mask = 0;
		for (k = 0; k < mem_h->n; k++)
			if (mem_h->h[k].mask == cm)
				mask = cm;
		if (!mask && tm_merge(TM_BEST_EFFORT, all_nodes_mask(t),
				      mem_h, 1, &mb) && mem_h->n)
			mask = mb.mask;
	} else if (!mask_holds(mn, t->nnodes, mask, req, nres)) {
		/*
		 * Only a merged hint that is not preferred gets here: a
		 * preferred one is one of the memory hints, which hold the
		 * request, so the kubelet's refusal of a preferred hint
		 * extended to one that is not never applies.
		 */
		bool pref = false;
		uint64_t ext = extend_mask(mem_h, mask, &pref);

		if (ext && explain) {
			strbuf_puts(explain, "memory: ");
			tm_mask_format(mask, explain);
			strbuf_puts(explain, " lacks the free memory: booked on ");
			tm_mask_format(ext, explain);
			strbuf_puts(explain, ", the narrowest memory hint that "
				    "holds it, as the Memory Manager extends "
				    "a merged hint\n");
		}
		mask = ext;
	}
	return mask ? book_on(t, rq, mn, mask, e, err, errlen) :
		      short_of(t, rq, mn, 0, err, errlen);
}

/*
 * The body of alloc_take() and alloc_take_avail(), inlined into both: a
 * take is one call deep whichever of them its caller uses.
 */
static inline __attribute__((always_inline)) int
take_among(const struct alloc_machine *m, const struct alloc_state *st,
	   struct cpuset *avail, const struct alloc_request *rq,
	   struct alloc_entry *e, struct strbuf *explain, char *err,
	   size_t errlen)
{
	const struct topo *t = m->topo;
	const struct alloc_opts *o = &rq->opts;
	struct cpuset prefer = CPUSET_INIT;
	struct tm_hints cpu_h = { 0 }, mem_h = { 0 }, *lists = NULL;
	struct tm_mem_node *mn = NULL;
	struct tm_hint best = { 0, true };
	const struct cpuset *prefer_p = rq->prefer;
	const struct ktopo *kt = alloc_machine_kt(m);
	bool numa = o->numa_policy != TM_NONE;
	int r, k, nlists = 2;

	if (!kt) {
		r = oom(err, errlen);
		goto out;
	}
	if (rq->from)
		cpuset_and(avail, rq->from);
	if (rq->affinity) {
		/* A pod's member: the pod's hint, merged once for all. */
		best = *rq->affinity;
		if (explain) {
			strbuf_puts(explain, "pod scope: the pod's hint ");
			if (best.mask)
				tm_mask_format(best.mask, explain);
			else
				strbuf_puts(explain, "any node");
			strbuf_puts(explain, "\n");
		}
		if (best.mask) {
			if (tm_mask_to_set(best.mask, &prefer) < 0) {
				r = oom(err, errlen);
				goto out;
			}
			prefer_p = &prefer;
		}
	} else if (numa || rq->have_mem || explain) {
		r = request_hints(m, st, avail, rq->n, o->k.align_socket,
				  rq, numa, &mn, &cpu_h, &mem_h, err, errlen);
		if (r == 0 && rq->reuse)
			r = keep_reuse_hints(t, rq->reuse, &cpu_h, err,
					     errlen);
		/* Hints asked only for the explanation fail it alone. */
		if (r < 0 && !numa && !rq->have_mem && r != -ENOMEM) {
			strbuf_printf(explain, "CPU hints: not computed: %s\n",
				      err);
			err[0] = '\0';
			tm_hints_free(&cpu_h);
			cpu_h.dont_care = true;
			r = 0;
		}
		if (r < 0)
			goto out;
		if (explain) {
			explain_hints(explain, "CPU hints", &cpu_h);
			if (rq->have_mem)
				explain_hints(explain, "memory hints", &mem_h);
		}
	}
	if (explain && !numa && !rq->affinity)
		strbuf_puts(explain, "none policy: no NUMA alignment asked "
			    "(--numa-policy): the hints are not used\n");
	if (numa && !rq->affinity) {
		int *dist = NULL;
		bool admit;

		/* CPUs, memory, then one list per device. */
		lists = calloc((size_t)rq->nnear + 2, sizeof(*lists));
		if (!lists) {
			r = oom(err, errlen);
			goto out;
		}
		lists[0] = cpu_h;
		lists[1] = mem_h;
		for (k = 0; k < rq->nnear; k++, nlists++) {
			int node = rq->near[k].node;

			r = tm_device_hints(all_nodes_mask(t), node >= 0 &&
					    node < 64 ? 1ULL << node : 0,
					    &lists[nlists]);
			if (r < 0) {
				r = r == -ERANGE ? err_ret(err, errlen, -ENOSPC,
					"NUMA hints need NUMA nodes numbered "
					"below %d", TM_MAX_NODES) :
					oom(err, errlen);
				goto out;
			}
			if (explain) {
				strbuf_printf(explain, "device hints (%s",
					      rq->near[k].name);
				if (node >= 0)
					strbuf_printf(explain, ", NUMA node %d",
						      node);
				strbuf_puts(explain, ")");
				explain_hints(explain, "", &lists[nlists]);
			}
		}

		if (o->closest) {
			dist = calloc(64 * 64, sizeof(int));
			if (!dist) {
				r = oom(err, errlen);
				goto out;
			}
			if (!distances(t, dist)) {
				free(dist);
				dist = NULL;
			}
		}
		admit = tm_merge_closest(o->numa_policy, all_nodes_mask(t),
					 lists, nlists, dist, &best);
		free(dist);
		if (explain) {
			strbuf_printf(explain, "%s policy: merged hint ",
				      tm_policy_name(o->numa_policy));
			if (best.mask)
				tm_mask_format(best.mask, explain);
			else
				strbuf_puts(explain, "any node");
			strbuf_printf(explain, "%s: %s\n",
				      best.preferred ? " preferred" : " -",
				      admit ? "admitted" : "refused");
		}
		if (!admit) {
			struct strbuf sb;

			strbuf_init(&sb);
			explain_refusal(m, rq, avail, &cpu_h, &mem_h, &best,
					&sb);
			r = sb.oom ? oom(err, errlen) :
				err_ret(err, errlen, -ENOSPC, "%s", sb.buf);
			strbuf_free(&sb);
			goto out;
		}
		if (best.mask) {
			if (tm_mask_to_set(best.mask, &prefer) < 0) {
				r = oom(err, errlen);
				goto out;
			}
			prefer_p = &prefer;
		}
	}
	if (rq->admit) {
		*rq->admit = best;
		r = 0;
		goto out;
	}
	r = kubelet_take(kt, avail, rq->n, &o->k, prefer_p, &st->reserved,
			 &e->cpus, err, errlen);
	if (r == -ENOMEM)
		r = oom(err, errlen);
	if (r < 0) {
		if (r != -ENOMEM)
			r = -ENOSPC;
		goto out;
	}
	if (explain)
		explain_choice(t, rq, avail, prefer_p, &e->cpus, explain);
	/* single-numa-node and restricted promise the hint's nodes. */
	if ((o->numa_policy == TM_SINGLE_NUMA ||
	     o->numa_policy == TM_RESTRICTED) && best.mask) {
		uint64_t got;

		if (nodes_mask_of(t, &e->cpus, &got) < 0) {
			r = oom(err, errlen);
			goto out;
		}
		if (got & ~best.mask) {
			r = err_ret(err, errlen, -ENOSPC, "topology affinity "
				    "error: %d CPUs do not fit on the NUMA "
				    "nodes the %s policy chose", rq->n,
				    tm_policy_name(o->numa_policy));
			goto out;
		}
	}
	if (rq->have_mem && (rq->mem > 0 || rq->nhuge)) {
		r = book_memory(m, rq, mn, &mem_h, &best, e, explain, err,
				errlen);
		if (r < 0)
			goto out;
	}
	e->name = strdup(rq->name);
	if (!e->name) {
		r = oom(err, errlen);
		goto out;
	}
	e->n = rq->n;
	e->mode = rq->mode;
	e->opts = *o;
	e->opts.k.distribute = o->distribute_auto ? 0 : o->k.distribute;
	r = 0;
out:
	free(mn);
	tm_hints_free(&cpu_h);
	tm_hints_free(&mem_h);
	for (k = 2; k < nlists; k++)
		tm_hints_free(&lists[k]);
	free(lists);
	cpuset_free(avail);
	cpuset_free(&prefer);
	return r;
}

int
alloc_take(const struct alloc_machine *m, const struct alloc_state *st,
	   const struct alloc_request *rq, struct alloc_entry *e,
	   struct strbuf *explain, char *err, size_t errlen)
{
	struct cpuset avail = CPUSET_INIT;

	if (state_available(st, &m->topo->online, NULL, &avail) < 0) {
		cpuset_free(&avail);
		return oom(err, errlen);
	}
	return take_among(m, st, &avail, rq, e, explain, err, errlen);
}

int
alloc_take_avail(const struct alloc_machine *m, const struct alloc_state *st,
		 struct cpuset *avail, const struct alloc_request *rq,
		 struct alloc_entry *e, struct strbuf *explain, char *err,
		 size_t errlen)
{
	return take_among(m, st, avail, rq, e, explain, err, errlen);
}

int
alloc_hints(const struct alloc_machine *m, const struct alloc_state *st,
	    int n, bool align_socket, const struct alloc_request *mrq,
	    struct tm_hints *out, char *err, size_t errlen)
{
	struct cpuset avail = CPUSET_INIT;
	struct tm_hints cpu_h = { 0 }, mem_h = { 0 };
	struct tm_mem_node *mn = NULL;
	const struct tm_hints *list;
	int r, i, k;

	memset(out, 0, sizeof(*out));
	if (state_available(st, &m->topo->online, NULL, &avail) < 0) {
		r = oom(err, errlen);
		goto done;
	}
	r = request_hints(m, st, &avail, n, align_socket, mrq, true, &mn,
			  &cpu_h, &mem_h, err, errlen);
	if (r < 0)
		goto done;
	/*
	 * With memory too, a node set can hold the request when both
	 * providers offer it; it is preferred when both prefer it.
	 */
	list = cpu_h.dont_care ? &mem_h : &cpu_h;
	out->dont_care = list->dont_care;
	for (i = 0; i < list->n; i++) {
		struct tm_hint h = list->h[i];
		bool ok = true;

		if (list == &cpu_h && !mem_h.dont_care) {
			ok = false;
			for (k = 0; k < mem_h.n; k++)
				if (mem_h.h[k].mask == h.mask) {
					ok = true;
					h.preferred = h.preferred &&
						mem_h.h[k].preferred;
				}
		}
		if (!ok)
			continue;
		if (out->n == out->cap) {
			int cap = out->cap ? out->cap * 2 : 8;
			struct tm_hint *nh = realloc(out->h,
						     (size_t)cap * sizeof(*nh));

			if (!nh) {
				tm_hints_free(out);
				r = oom(err, errlen);
				goto done;
			}
			out->h = nh;
			out->cap = cap;
		}
		out->h[out->n++] = h;
	}
	r = 0;
done:
	free(mn);
	tm_hints_free(&cpu_h);
	tm_hints_free(&mem_h);
	cpuset_free(&avail);
	return r;
}

/* Fill the free threads of the cores e already uses, so its cores fill
 * up before new ones are started; need is decremented per CPU taken. */
static int
fill_own_cores(const struct topo *t, const struct alloc_entry *e,
	       struct cpuset *avail, struct cpuset *more, int *need)
{
	int cpu, sib;

	cpuset_for_each(cpu, &e->cpus) {
		if (cpu >= t->ncpus || t->cpus[cpu].core < 0)
			continue;
		for (sib = t->cpus[cpu].core; sib >= 0 && *need > 0;
		     sib = t->cpus[sib].next_thread)
			if (cpuset_isset(avail, (unsigned int)sib)) {
				cpuset_clear(avail, (unsigned int)sib);
				if (cpuset_set(more, (unsigned int)sib) < 0)
					return -ENOMEM;
				(*need)--;
			}
	}
	return 0;
}

static int
grow(const struct alloc_machine *m, const struct ktopo *kt,
     const struct alloc_state *st, struct alloc_entry *e, int n,
     const struct alloc_opts *o, struct cpuset *more, char *err,
     size_t errlen)
{
	const struct topo *t = m->topo;
	struct cpuset avail = CPUSET_INIT, nodes = CPUSET_INIT,
		got = CPUSET_INIT;
	const struct cpuset *prefer_p = NULL;
	bool on_nodes = false;
	int need = n - e->n, r = -ENOMEM;

	if (state_available(st, &t->online, NULL, &avail) < 0)
		goto out;
	if (!cpuset_empty(&e->cpus)) {
		if (topo_nodes_of(t, &e->cpus, &nodes) < 0)
			goto out;
		prefer_p = &nodes;
		/* The single-NUMA and restricted policies keep the
		 * allocation on the nodes it has. */
		if (o->numa_policy == TM_SINGLE_NUMA ||
		    o->numa_policy == TM_RESTRICTED) {
			struct cpuset on = CPUSET_INIT;

			if (topo_cpus_of_nodes(t, &nodes, &on) < 0) {
				cpuset_free(&on);
				goto out;
			}
			cpuset_and(&avail, &on);
			cpuset_free(&on);
			on_nodes = true;
		}
	}
	if (!o->k.full_cores && !o->k.spread_cores &&
	    fill_own_cores(t, e, &avail, more, &need) < 0)
		goto out;
	if (need > 0) {
		char why[512];

		r = kubelet_take(kt, &avail, need, &o->k, prefer_p,
				 &st->reserved, &got, why, sizeof(why));
		if (r == -ENOMEM)
			goto out;
		if (r < 0 && on_nodes) {
			/* The policy, not the machine, is what limits. */
			struct strbuf sb;

			strbuf_init(&sb);
			cpuset_format(&nodes, &sb);
			r = sb.oom ? -ENOMEM :
			    err_ret(err, errlen, -ENOSPC, "cannot grow '%s' to "
				    "%d CPUs: the %s policy grows it only "
				    "within NUMA node%s %s: %u free there, %d "
				    "needed", e->name, n,
				    tm_policy_name(o->numa_policy),
				    cpuset_count(&nodes) > 1 ? "s" : "",
				    sb.buf, cpuset_count(&avail), need);
			strbuf_free(&sb);
			goto out;
		}
		if (r < 0) {
			r = err_ret(err, errlen, -ENOSPC, "cannot grow '%s' to "
				    "%d CPUs: %s", e->name, n, why);
			goto out;
		}
		if (cpuset_or(more, &got) < 0) {
			r = -ENOMEM;
			goto out;
		}
	}
	r = alloc_entry_own_cpus(e) < 0 || cpuset_or(&e->cpus, more) < 0 ?
	    -ENOMEM : 0;
out:
	if (r == -ENOMEM)
		oom(err, errlen);
	cpuset_free(&avail);
	cpuset_free(&nodes);
	cpuset_free(&got);
	return r;
}

int
alloc_resize(const struct alloc_machine *m, struct alloc_state *st,
	     struct alloc_entry *e, int n, const struct alloc_opts *o,
	     char *err, size_t errlen)
{
	struct cpuset more = CPUSET_INIT;
	const struct ktopo *kt = alloc_machine_kt(m);
	int tpc, r = 0;

	if (!kt)
		return oom(err, errlen);
	tpc = threads_per_core(kt);
	if (o->k.full_cores && tpc > 1 && n % tpc)
		return err_ret(err, errlen, -ENOSPC, "SMT Alignment Error: "
			       "requested %d cpus not multiple cpus per core = "
			       "%d", n, tpc);
	if (n < e->n) {
		r = alloc_shrink_pick(m->topo, &e->cpus, e->n - n,
				      o->k.full_cores, &more);
		if (r == -ENOMEM)
			r = oom(err, errlen);
		else if (r < 0)
			r = err_ret(err, errlen, -ENOSPC, "cannot shrink '%s' "
				    "to %d CPUs in whole cores", e->name, n);
		else
			cpuset_andnot(&e->cpus, &more);
	} else if (n > e->n) {
		r = grow(m, kt, st, e, n, o, &more, err, errlen);
	}
	if (r == 0)
		e->n = n;
	cpuset_free(&more);
	return r;
}

/* Owners */

static int
owner_cgroup(const char *owner, const char *root, struct alloc_entry *e,
	     char *err, size_t errlen)
{
	static const char *const ctrl[] = {
		"cpuset", "cpu", "cpu,cpuacct", "cpuacct", "memory",
		"pids", "systemd", "unified",
	};
	const char *p = owner + 7, *q;
	char path[PATH_MAX], real[PATH_MAX];
	struct stat sb;
	bool found = false;
	size_t k;

	while (*p == '/')
		p++;
	if (!*p || strstr(p, "..") || strlen(p) > 2048)
		return err_ret(err, errlen, -EINVAL, "invalid owner '%s'", owner);
	for (q = p; *q; q++)
		if ((unsigned char)*q < 0x20)
			return err_ret(err, errlen, -EINVAL, "invalid owner "
				       "'%s'", owner);
	snprintf(path, sizeof(path), "%s/cgroup.controllers", root);
	if (access(path, F_OK) == 0) {
		snprintf(path, sizeof(path), "%s/%s", root, p);
		found = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
	}
	for (k = 0; !found && k < ARRAY_SIZE(ctrl); k++) {
		snprintf(path, sizeof(path), "%s/%s/%s", root, ctrl[k], p);
		found = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
	}
	if (!found)
		return err_ret(err, errlen, -EINVAL, "invalid owner '%s': no "
			       "such cgroup below '%s'", owner, root);
	if (!realpath(path, real)) {
		int r = -errno;

		return err_ret(err, errlen, r, "cannot resolve '%s': %s", path,
			       strerror(-r));
	}
	if (!(e->owner_dir = strdup(real)))
		return oom(err, errlen);
	return 0;
}

int
alloc_owner_resolve(const char *o, const char *cgroup_root,
		    const struct sysroot *live, struct alloc_entry *e,
		    char *err, size_t errlen)
{
	int r;

	if (startswith(o, "pid:")) {
		unsigned int pid;

		if (parse_uint(o + 4, INT_MAX, &pid) < 0 || pid == 0)
			return err_ret(err, errlen, -EINVAL, "invalid owner "
				       "'%s'", o);
		if (proc_start_time(live, (pid_t)pid, &e->owner_start) < 0)
			return err_ret(err, errlen, -EINVAL, "invalid owner "
				       "'%s': no such process", o);
	} else if (startswith(o, "cgroup:")) {
		r = owner_cgroup(o, cgroup_root, e, err, errlen);
		if (r < 0)
			return r;
	} else {
		return err_ret(err, errlen, -EINVAL, "invalid owner '%s' "
			       "(pid:PID or cgroup:PATH)", o);
	}
	if (!(e->owner = strdup(o)))
		return oom(err, errlen);
	return 0;
}

bool
alloc_owner_gone(const struct alloc_entry *e, const struct sysroot *live,
		 char *reason, size_t len)
{
	struct stat sb;

	if (!e->owner)
		return false;
	if (startswith(e->owner, "pid:")) {
		uint64_t start;
		long pid = strtol(e->owner + 4, NULL, 10);
		int r = proc_start_time(live, (pid_t)pid, &start);

		if (r == -ESRCH) {
			snprintf(reason, len, "process %ld has exited", pid);
			return true;
		}
		if (r == 0 && e->owner_start && start != e->owner_start) {
			snprintf(reason, len, "process %ld has exited (the pid "
				 "now belongs to another process)", pid);
			return true;
		}
		return false;
	}
	/* A container's group outlives it when the runtime dies with it:
	 * its process, with the start time it had, is the proof of life. */
	if (e->hook && e->hook_pid > 0) {
		uint64_t start;
		int r = proc_start_time(live, (pid_t)e->hook_pid, &start);

		if (r == -ESRCH || (r == 0 && e->owner_start &&
				    start != e->owner_start)) {
			snprintf(reason, len, "container process %d has exited",
				 e->hook_pid);
			return true;
		}
	}
	if (e->owner_dir && (stat(e->owner_dir, &sb) < 0 ||
			     !S_ISDIR(sb.st_mode))) {
		snprintf(reason, len, "cgroup '%s' was removed", e->owner_dir);
		return true;
	}
	return false;
}

int
alloc_entry_nodes(const struct topo *t, const struct alloc_entry *e,
		  struct cpuset *out)
{
	int k;

	if (topo_nodes_of(t, &e->cpus, out) < 0)
		return -ENOMEM;
	for (k = 0; k < e->nmem; k++)
		if (e->mem[k].bytes &&
		    cpuset_set(out, (unsigned int)e->mem[k].node) < 0)
			return -ENOMEM;
	/* Huge pages come from the nodes the group's mems allow too. */
	for (k = 0; k < e->nhuge; k++)
		if (e->huge[k].bytes &&
		    cpuset_set(out, (unsigned int)e->huge[k].node) < 0)
			return -ENOMEM;
	return 0;
}

/* Check */

struct findings {
	struct strbuf *sb;
	int count;
};

static void
finding(struct findings *f, const char *level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
finding(struct findings *f, const char *level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	strbuf_printf(f->sb, "%s: %s\n", level, msg);
	f->count++;
}

/* A cpulist for a message; "" when out of memory (sb->oom tells). */
static const char *
list_of(struct findings *f, const struct cpuset *s, char **keep)
{
	free(*keep);
	*keep = cpuset_to_list(s);
	if (!*keep) {
		f->sb->oom = true;
		return "";
	}
	return *keep;
}

/* How the online CPUs changed since the state was written. */
static void
check_online(struct findings *f, const struct topo_print *was,
	     const struct topo_print *now)
{
	struct cpuset x = CPUSET_INIT, gone = CPUSET_INIT;
	unsigned int a = cpuset_count(&was->online),
		b = cpuset_count(&now->online);
	char *l1 = NULL, *l2 = NULL;

	if (a != b)
		finding(f, "error", "the CPU count changed: the state was "
			"made for %u online CPUs (%s), the machine has %u (%s)",
			a, list_of(f, &was->online, &l1), b,
			list_of(f, &now->online, &l2));
	/* Online then, offline now (still possible) or gone. */
	if (cpuset_copy(&x, &was->online) < 0)
		f->sb->oom = true;
	cpuset_andnot(&x, &now->online);
	if (cpuset_copy(&gone, &x) < 0)
		f->sb->oom = true;
	cpuset_andnot(&gone, &now->possible);
	cpuset_and(&x, &now->possible);
	if (!cpuset_empty(&x))
		finding(f, "error", "CPUs %s were online when the state was "
			"written and are offline now", list_of(f, &x, &l1));
	if (!cpuset_empty(&gone))
		finding(f, "error", "CPUs %s were online when the state was "
			"written and no longer exist", list_of(f, &gone, &l1));
	if (cpuset_copy(&x, &now->online) < 0)
		f->sb->oom = true;
	cpuset_andnot(&x, &was->online);
	if (!cpuset_empty(&x))
		finding(f, "warning", "CPUs %s came online since the state was "
			"written: run 'cpm-alloc reconcile' to use them",
			list_of(f, &x, &l1));
	free(l1);
	free(l2);
	cpuset_free(&x);
	cpuset_free(&gone);
}

/* What the entries hold that they should not. */
static void
check_entries(struct findings *f, const struct topo *t,
	      const struct alloc_state *st)
{
	struct cpuset x = CPUSET_INIT;
	char *l = NULL;
	int i, j;

	for (i = 0; i < st->nentries; i++) {
		const struct alloc_entry *e = &st->entries[i];

		if (cpuset_copy(&x, &e->cpus) < 0)
			f->sb->oom = true;
		cpuset_andnot(&x, &t->online);
		if (!cpuset_empty(&x))
			finding(f, "error", "'%s' holds CPUs %s, which are not "
				"online: release it ('cpm-alloc release %s') "
				"and take again", e->name, list_of(f, &x, &l),
				e->name);
		if (cpuset_copy(&x, &e->cpus) < 0)
			f->sb->oom = true;
		cpuset_and(&x, &st->reserved);
		if (!cpuset_empty(&x))
			finding(f, "error", "reserved CPUs %s are handed out to "
				"'%s': release it and take again",
				list_of(f, &x, &l), e->name);
		for (j = i + 1; j < st->nentries; j++) {
			if (cpuset_copy(&x, &e->cpus) < 0)
				f->sb->oom = true;
			cpuset_and(&x, &st->entries[j].cpus);
			if (!cpuset_empty(&x))
				finding(f, "error", "'%s' and '%s' both hold "
					"CPUs %s: release one of them", e->name,
					st->entries[j].name, list_of(f, &x, &l));
		}
		for (j = 0; j < e->nmem; j++)
			if (e->mem[j].bytes &&
			    !topo_node_by_id(t, e->mem[j].node))
				finding(f, "error", "'%s' has memory booked on "
					"NUMA node %d, which does not exist: "
					"release it and take again", e->name,
					e->mem[j].node);
	}
	free(l);
	cpuset_free(&x);
}

/*
 * CPUs of the pool (online, not reserved) that cgroup v2 partitions have
 * taken from the root group: a group outside the partition cannot be
 * given them, whatever cpm-alloc hands out.
 */
static void
check_partitions(struct findings *f, const struct topo *t,
		 const struct alloc_state *st)
{
	struct cpuset taken = CPUSET_INIT;
	char *l = NULL;

	if (!t->part_cpus_known && !t->part_isolated_known)
		return;
	if ((t->part_cpus_known && cpuset_or(&taken, &t->part_cpus) < 0) ||
	    (t->part_isolated_known &&
	     cpuset_or(&taken, &t->part_isolated) < 0)) {
		f->sb->oom = true;
		cpuset_free(&taken);
		return;
	}
	cpuset_and(&taken, &t->online);
	cpuset_andnot(&taken, &st->reserved);
	if (!cpuset_empty(&taken))
		finding(f, "warning", "CPUs %s belong to cgroup partitions "
			"(cpuset.cpus.partition) but are in the pool: only "
			"groups inside those partitions can use them; keep "
			"them out with 'cpm-alloc init --force --reserved "
			"LIST'", list_of(f, &taken, &l));
	free(l);
	cpuset_free(&taken);
}

int
alloc_check(const struct alloc_machine *m, const struct alloc_state *st,
	    const struct topo_print *now, enum topo_match match,
	    const char *match_msg, const struct sysroot *live,
	    struct strbuf *out)
{
	const struct topo *t = m->topo;
	struct findings f = { out, 0 };
	struct cpuset gone = CPUSET_INIT;
	char reason[256], *l = NULL;
	int i;

	if (!st->exists)
		return 0;	/* nothing recorded, nothing to disagree */
	if (match == TOPO_FOREIGN)
		finding(&f, "error", "the state was made for another machine "
			"(%s): use the right --state, or start over with "
			"'cpm-alloc init --force'", match_msg);
	if (match == TOPO_RESIZED || match == TOPO_ONLINE_CHANGED)
		check_online(&f, &st->print, now);
	/* CPUs that the state uses and the machine does not have online. */
	if (cpuset_copy(&gone, &st->reserved) < 0)
		out->oom = true;
	cpuset_andnot(&gone, &t->online);
	if (!cpuset_empty(&gone))
		finding(&f, "error", "reserved CPUs %s are not online: choose "
			"another reservation with 'cpm-alloc init --force "
			"--reserved LIST' (this drops all allocations)",
			list_of(&f, &gone, &l));
	free(l);
	cpuset_free(&gone);
	check_entries(&f, t, st);
	check_partitions(&f, t, st);
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];
		uint64_t b = state_mem_booked(st, n->id);

		if (b && n->mem_total_kb >= 0 &&
		    b > (uint64_t)n->mem_total_kb * 1024)
			finding(&f, "error", "memory booked on NUMA node %d "
				"(%llu bytes) exceeds its MemTotal (%llu bytes): "
				"release some allocations", n->id,
				(unsigned long long)b,
				(unsigned long long)n->mem_total_kb * 1024);
	}
	for (i = 0; live && i < st->nentries; i++)
		if (alloc_owner_gone(&st->entries[i], live, reason,
				     sizeof(reason)))
			finding(&f, "warning", "the owner of '%s' is gone (%s): "
				"run 'cpm-alloc reconcile' to release it",
				st->entries[i].name, reason);
	return out->oom ? -ENOMEM : f.count;
}

/* Reconcile */

/* Record the machine as it is now, once nothing in the state depends on
 * CPUs that are no longer online; -ENOSPC names those. */
static int
adopt_machine(const struct alloc_machine *m, struct alloc_state *st,
	      const struct topo_print *now, bool dry_run, struct strbuf *out,
	      bool *changed, char *err, size_t errlen)
{
	struct cpuset bad = CPUSET_INIT;
	char *was = NULL, *is = NULL;
	int i, r = 0;

	if (cpuset_copy(&bad, &st->reserved) < 0)
		r = -ENOMEM;
	for (i = 0; r == 0 && i < st->nentries; i++)
		if (cpuset_or(&bad, &st->entries[i].cpus) < 0)
			r = -ENOMEM;
	cpuset_andnot(&bad, &m->topo->online);
	if (r == 0 && !cpuset_empty(&bad)) {
		char *l = cpuset_to_list(&bad);

		r = l ? err_ret(err, errlen, -ENOSPC, "the state still uses "
				"CPUs %s that are not online: release or resize "
				"what holds them (see 'cpm-alloc check'), then "
				"reconcile again", l) : -ENOMEM;
		free(l);
	} else if (r == 0) {
		is = cpuset_to_list(&now->online);
		was = cpuset_to_list(&st->print.online);
		if (!is || !was)
			r = -ENOMEM;
	}
	if (r == 0) {
		strbuf_printf(out, "%s the machine's online CPUs %s (was %s)\n",
			      dry_run ? "would record" : "recorded", is, was);
		topo_print_free(&st->print);
		if (topo_print_make(&st->print, m->topo) < 0)
			r = -ENOMEM;
		*changed = true;
	}
	if (r == -ENOMEM)
		oom(err, errlen);
	free(is);
	free(was);
	cpuset_free(&bad);
	return r;
}

int
alloc_reconcile(const struct alloc_machine *m, struct alloc_state *st,
		const struct topo_print *now, enum topo_match match,
		const struct sysroot *live, bool dry_run, struct strbuf *out,
		bool *changed, char *err, size_t errlen)
{
	char reason[256];
	int i;

	*changed = false;
	for (i = st->nentries - 1; i >= 0; i--) {
		struct alloc_entry *e = &st->entries[i];

		if (!alloc_owner_gone(e, live, reason, sizeof(reason)))
			continue;
		strbuf_printf(out, "%s %s ", dry_run ? "would release" :
			      "released", e->name);
		if (cpuset_empty(&e->cpus))
			strbuf_puts(out, "-");
		cpuset_format(&e->cpus, out);
		strbuf_printf(out, ": %s\n", reason);
		state_remove(st, i);
		*changed = true;
	}
	if (match == TOPO_RESIZED || match == TOPO_ONLINE_CHANGED)
		return adopt_machine(m, st, now, dry_run, out, changed, err,
				     errlen);
	return out->oom ? oom(err, errlen) : 0;
}

/* Import */

void
alloc_import_free(struct alloc_import *im)
{
	int i;

	for (i = 0; im->entries && i < im->n; i++)
		alloc_entry_free(&im->entries[i]);
	free(im->entries);
	im->entries = NULL;
	im->n = 0;
}

/* One checkpoint entry into e, refusing overlaps with def and all (the
 * entries before it), which it joins. */
static int
import_entry(const struct kstate *ks, const struct kstate_entry *ke,
	     const char *file, const struct cpuset *def, struct cpuset *all,
	     struct alloc_entry *e, char *err, size_t errlen)
{
	char why[256];

	if (!state_name_valid(ke->name))
		return err_ret(err, errlen, -EINVAL, "'%s': entry '%s' is not "
			       "a valid name", file, ke->name);
	if (cpuset_parse_list(ke->cpus, &e->cpus, why, sizeof(why)) < 0) {
		if (ke->container)	/* the kubelet's words */
			return err_ret(err, errlen, -EINVAL, "'%s': could not "
				       "parse cpuset \"%s\" for container "
				       "\"%s\" in pod \"%s\" (bad cpuset of "
				       "'%s': %s)", file, ke->cpus,
				       ke->container, ke->pod, ke->name, why);
		return err_ret(err, errlen, -EINVAL, "'%s': bad cpuset of "
			       "'%s': %s", file, ke->name, why);
	}
	if (cpuset_intersects(&e->cpus, def))
		return err_ret(err, errlen, -EINVAL, "'%s': entry '%s' cpuset "
			       "\"%s\" overlaps with default cpuset \"%s\"",
			       file, ke->name, ke->cpus, ks->default_set);
	if (cpuset_intersects(&e->cpus, all)) {
		struct cpuset s = CPUSET_INIT;
		char *l;

		if (cpuset_copy(&s, &e->cpus) < 0)
			return oom(err, errlen);
		cpuset_and(&s, all);
		l = cpuset_to_list(&s);
		cpuset_free(&s);
		if (!l)
			return oom(err, errlen);
		err_ret(err, errlen, -EINVAL, "'%s': CPUs %s are assigned "
			"twice (again in '%s')", file, l, ke->name);
		free(l);
		return -EINVAL;
	}
	e->name = strdup(ke->name);
	e->n = (int)cpuset_count(&e->cpus);
	e->mode = ALLOC_EXCLUSIVE;
	if (!e->name || cpuset_or(all, &e->cpus) < 0)
		return oom(err, errlen);
	return 0;
}

int
alloc_import_read(const struct topo *t, const struct kstate *ks,
		  const char *file, struct alloc_import *im, char *err,
		  size_t errlen)
{
	struct cpuset def = CPUSET_INIT, all = CPUSET_INIT;
	char why[256], *l;
	int i, r = 0;

	memset(im, 0, sizeof(*im));
	if (cpuset_parse_list(ks->default_set, &def, why, sizeof(why)) < 0) {
		r = err_ret(err, errlen, -EINVAL, "'%s': could not parse default "
			    "cpu set \"%s\": %s", file, ks->default_set, why);
		goto out;
	}
	im->entries = calloc((size_t)ks->nentries + 1, sizeof(*im->entries));
	if (!im->entries) {
		r = oom(err, errlen);
		goto out;
	}
	im->n = ks->nentries;
	for (i = 0; r == 0 && i < ks->nentries; i++)
		r = import_entry(ks, &ks->entries[i], file, &def, &all,
				 &im->entries[i], err, errlen);
	if (r == 0 && cpuset_or(&all, &def) < 0)
		r = oom(err, errlen);
	if (r == 0 && !cpuset_subset(&all, &t->online)) {
		cpuset_andnot(&all, &t->online);
		l = cpuset_to_list(&all);
		r = l ? err_ret(err, errlen, -EINVAL, "'%s' uses CPUs %s, which "
				"are not online on this machine", file, l) :
			oom(err, errlen);
		free(l);
	}
	/*
	 * The kubelet's start-up validation: the default set and the
	 * assignments together are every online CPU, or the kubelet
	 * refuses the checkpoint (a CPU onlined since it was written).  An
	 * empty checkpoint is one the kubelet has yet to fill.
	 */
	if (r == 0 && !cpuset_empty(&all) && !cpuset_equal(&all, &t->online)) {
		char *on = cpuset_to_list(&t->online);

		l = cpuset_to_list(&all);
		r = l && on ? err_ret(err, errlen, -EINVAL, "'%s': current set "
				      "of available CPUs \"%s\" doesn't match "
				      "with CPUs in state \"%s\"", file, on,
				      l) : oom(err, errlen);
		free(l);
		free(on);
	}
out:
	cpuset_free(&def);
	cpuset_free(&all);
	return r;
}

/* Can e join st, whose CPUs in use are used?  0, 1 (imported before), or
 * -ENOSPC. */
static int
import_fits(const struct alloc_state *st, const struct alloc_entry *e,
	    const struct cpuset *used, char *err, size_t errlen)
{
	const struct alloc_entry *old = state_find(st, e->name);
	struct cpuset s = CPUSET_INIT;
	char *l;

	if (old && cpuset_equal(&old->cpus, &e->cpus))
		return 1;
	if (!old && !cpuset_intersects(&e->cpus, used))
		return 0;
	if (old) {
		l = cpuset_to_list(&old->cpus);
		if (l)
			err_ret(err, errlen, -ENOSPC, "'%s' already exists with "
				"CPUs %s: release it first", e->name, l);
	} else {
		if (cpuset_copy(&s, &e->cpus) < 0)
			return oom(err, errlen);
		cpuset_and(&s, used);
		l = cpuset_to_list(&s);
		cpuset_free(&s);
		if (l)
			err_ret(err, errlen, -ENOSPC, "CPUs %s of '%s' are "
				"already reserved or allocated here", l,
				e->name);
	}
	free(l);
	return l ? -ENOSPC : oom(err, errlen);
}

int
alloc_import_add(struct alloc_state *st, struct alloc_import *im,
		 struct strbuf *out, char *err, size_t errlen)
{
	struct cpuset used = CPUSET_INIT;
	int i, r = 0, added = 0;

	/* Existing allocations keep their CPUs: refuse conflicts. */
	if (cpuset_copy(&used, &st->reserved) < 0)
		r = oom(err, errlen);
	for (i = 0; r == 0 && i < st->nentries; i++)
		if (cpuset_or(&used, &st->entries[i].cpus) < 0)
			r = oom(err, errlen);
	for (i = 0; r >= 0 && i < im->n; i++) {
		struct alloc_entry *e = &im->entries[i];

		r = import_fits(st, e, &used, err, errlen);
		if (r != 0)
			continue;
		strbuf_printf(out, "%s ", e->name);
		cpuset_format(&e->cpus, out);
		strbuf_puts(out, "\n");
		if (state_add(st, e) < 0)
			r = oom(err, errlen);
		else
			added++;
	}
	cpuset_free(&used);
	return r < 0 ? r : added;
}
