// SPDX-License-Identifier: GPL-2.0-or-later
/* Placing a new allocation by name: see alloctake.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloctake.h"
#include "memtier.h"
#include "strbuf.h"
#include "topomgr.h"

int
alloc_take_named(const struct coretypes *ct, const struct alloc_machine *m,
		 const struct alloc_state *st, const struct alloc_request *rq,
		 int only, struct alloc_entry *e,
		 const struct alloc_entry **held, bool *mixed,
		 struct strbuf *explain, char *err, size_t errlen)
{
	const struct alloc_entry *old = state_find(st, rq->name);

	*held = NULL;
	*mixed = false;
	if (old) {
		if (old->n != rq->n) {
			snprintf(err, errlen, "'%s' already holds %d CPUs: use "
				 "'cpm-alloc resize %s %d'", old->name, old->n,
				 old->name, rq->n);
			return -EINVAL;
		}
		*held = old;
		return 0;
	}
	return coretype_take(ct, m, st, rq, only, e, mixed, explain, err,
			     errlen);
}

/* The core type lines of the hints. */
static int
type_lines(const struct coretypes *ct, const struct alloc_machine *m,
	   const struct alloc_state *st, const struct alloc_request *given,
	   int only, struct strbuf *out, char *err, size_t errlen)
{
	struct alloc_request rq = *given;
	int k, r;

	r = alloc_opts_effective(m, &st->policy, &rq.opts, err, errlen);
	if (r < 0)
		return r;
	for (k = 0; k < ct->ntypes; k++) {
		unsigned int nfree;

		if (only >= 0 && k != only)
			continue;
		r = coretype_can_hold(ct, m, st, &rq, k, &nfree);
		if (r < 0) {
			snprintf(err, errlen, "out of memory");
			return r;
		}
		strbuf_printf(out, "type %s: %u free CPU%s, %s %d\n",
			      ct->types[k].name, nfree, nfree == 1 ? "" : "s",
			      r ? "holds" : "cannot hold", rq.n);
	}
	return 0;
}

/*
 * Keep the node sets that hold every device of rq->near with a known
 * node, preferred only where each such device prefers them too (its own
 * node alone): the device manager's hints, merged.
 */
static void
near_filter(const struct alloc_request *rq, struct tm_hints *h)
{
	int i, k, n = 0;

	for (i = 0; i < h->n; i++) {
		struct tm_hint x = h->h[i];
		bool keep = true;

		for (k = 0; k < rq->nnear; k++) {
			int node = rq->near[k].node;

			if (node < 0 || node >= 64)
				continue;	/* no preference */
			if (!(x.mask >> node & 1))
				keep = false;
			if (x.mask != 1ULL << node)
				x.preferred = false;
		}
		if (keep)
			h->h[n++] = x;
	}
	h->n = n;
}

int
alloc_hints_json(const struct coretypes *ct, const struct alloc_machine *m,
		 const struct alloc_state *st, const struct alloc_request *rq,
		 int only, struct json *j, char *err, size_t errlen)
{
	struct alloc_request trq = *rq;
	struct strbuf mask;
	struct tm_hints h;
	int i, k, r;

	r = alloc_hints(m, st, rq->n, st->policy.k.align_socket, rq->have_mem,
			rq->mem, &h, err, errlen);
	if (r < 0)
		return r;
	if (h.n == 0 && !coretype_hybrid(ct)) {
		tm_hints_free(&h);
		snprintf(err, errlen, "no set of NUMA nodes can hold %d CPUs%s",
			 rq->n, rq->have_mem ? " and the memory asked for" : "");
		return -ENOSPC;
	}
	strbuf_init(&mask);
	json_obj_begin(j);
	json_key(j, "count");
	json_int(j, rq->n);
	json_key(j, "hints");
	json_arr_begin(j);
	for (i = 0; i < h.n; i++) {
		mask.len = 0;
		tm_mask_format(h.h[i].mask, &mask);
		strbuf_add(&mask, "", 1);
		json_obj_begin(j);
		json_key(j, "nodes");
		json_str(j, mask.oom ? "" : mask.buf);
		json_key(j, "preferred");
		json_bool(j, h.h[i].preferred);
		json_obj_end(j);
	}
	json_arr_end(j);
	tm_hints_free(&h);
	strbuf_free(&mask);
	if (coretype_hybrid(ct)) {
		r = alloc_opts_effective(m, &st->policy, &trq.opts, err, errlen);
		if (r < 0)
			return r;
		json_key(j, "types");
		json_arr_begin(j);
		for (k = 0; k < ct->ntypes; k++) {
			unsigned int nfree;

			if (only >= 0 && k != only)
				continue;
			r = coretype_can_hold(ct, m, st, &trq, k, &nfree);
			if (r < 0) {
				snprintf(err, errlen, "out of memory");
				return r;
			}
			json_obj_begin(j);
			json_key(j, "type");
			json_str(j, ct->types[k].name);
			json_key(j, "free");
			json_int(j, nfree);
			json_key(j, "holds");
			json_bool(j, r > 0);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
	if (j->sb->oom || mask.oom) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int
alloc_hints_text(const struct coretypes *ct, const struct alloc_machine *m,
		 const struct alloc_state *st, const struct alloc_request *rq,
		 int only, struct strbuf *out, char *err, size_t errlen)
{
	struct tm_hints h;
	int i, r;

	r = alloc_hints(m, st, rq->n, st->policy.k.align_socket, rq->have_mem,
			rq->mem, &h, err, errlen);
	if (r < 0)
		return r;
	if (rq->nnear)
		near_filter(rq, &h);
	if (h.n == 0 && !coretype_hybrid(ct)) {
		/* Nothing can hold it: say so, as take would. */
		tm_hints_free(&h);
		snprintf(err, errlen, "no set of NUMA nodes can hold %d CPUs%s%s",
			 rq->n, rq->have_mem ? " and the memory asked for" : "",
			 rq->nnear ? " beside the devices" : "");
		return -ENOSPC;
	}
	for (i = 0; i < h.n; i++) {
		tm_mask_format(h.h[i].mask, out);
		strbuf_puts(out, h.h[i].preferred ? " preferred\n" : " -\n");
	}
	tm_hints_free(&h);
	for (i = 0; i < rq->nnear; i++) {
		if (rq->near[i].node >= 0)
			strbuf_printf(out, "device %s: NUMA node %d\n",
				      rq->near[i].name, rq->near[i].node);
		else
			strbuf_printf(out, "device %s: NUMA node unknown (no "
				      "preference)\n", rq->near[i].name);
	}
	/* Hybrid machines: which core types can hold the request alone. */
	if (coretype_hybrid(ct)) {
		r = type_lines(ct, m, st, rq, only, out, err, errlen);
		if (r < 0)
			return r;
	}
	if (out->oom) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int
alloc_slower_tier(const struct alloc_machine *m, const struct alloc_state *st,
		  const struct memtier *mt, uint64_t mem, struct strbuf *out)
{
	const struct topo *t = m->topo;
	struct strbuf list;
	int fastest = -1, i, found = 0;

	for (i = 0; i < mt->nnodes; i++) {
		const struct mem_node *n = &mt->nodes[i];

		if (n->has_cpus && n->tier >= 0 &&
		    (fastest < 0 || n->tier < fastest))
			fastest = n->tier;
	}
	if (fastest < 0 || mem == 0)
		return 0;
	strbuf_init(&list);
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *tn = &t->nodes[i];
		const struct mem_node *n = memtier_node(mt, tn->id);
		uint64_t total, booked, fr;

		if (!n || n->has_cpus || n->tier <= fastest ||
		    tn->mem_total_kb <= 0)
			continue;
		total = (uint64_t)tn->mem_total_kb * 1024;
		booked = state_mem_booked(st, tn->id);
		fr = total > booked ? total - booked : 0;
		if (fr < mem)
			continue;
		strbuf_printf(&list, "%s %d (memory tier %d, ",
			      found++ ? "," : "", tn->id, n->tier);
		alloc_size_format(&list, fr);
		strbuf_puts(&list, " free)");
	}
	if (found) {
		strbuf_puts(out, "slower tier: ");
		alloc_size_format(out, mem);
		strbuf_printf(out, " fits on CPU-less node%s%s, slower than "
			      "tier %d of the nodes with CPUs; the Memory "
			      "Manager's hints do not weigh tiers\n",
			      found > 1 ? "s" : "", list.oom ? "" : list.buf,
			      fastest);
	}
	i = list.oom || out->oom ? -ENOMEM : 0;
	strbuf_free(&list);
	return i;
}
