// SPDX-License-Identifier: GPL-2.0-or-later
/* Placing a new allocation by name: see alloctake.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloctake.h"
#include "base/err.h"
#include "base/strbuf.h"
#include "kube/topomgr.h"
#include "machine/memtier.h"

/*
 * One take among avail (the CPUs st has available) within type k's CPUs
 * (k < 0: no type bound), and rq->from.
 */
static int
take_within(const struct coretypes *ct, const struct alloc_machine *m,
	    const struct alloc_state *st, const struct cpuset *avail,
	    const struct alloc_request *rq, int k, struct alloc_entry *got,
	    struct strbuf *explain, char *err, size_t errlen)
{
	struct cpuset mine = CPUSET_INIT;
	int r;

	memset(got, 0, sizeof(*got));
	if (cpuset_copy(&mine, avail) < 0)
		return -ENOMEM;
	if (k >= 0)
		cpuset_and(&mine, &ct->types[k].cpus);
	r = alloc_take_avail(m, st, &mine, rq, got, explain, err, errlen);
	cpuset_free(&mine);
	if (r < 0)
		alloc_entry_free(got);
	return r;
}

/* Move what a take chose from got into e, keeping e's owner. */
static void
adopt(struct alloc_entry *e, struct alloc_entry *got)
{
	if (!e->name_kept)
		free(e->name);
	if (!e->cpus_kept)
		cpuset_free(&e->cpus);
	free(e->mem);
	free(e->huge);
	e->name = got->name;
	e->name_kept = got->name_kept;
	e->n = got->n;
	e->cpus = got->cpus;
	e->cpus_kept = got->cpus_kept;
	e->mode = got->mode;
	e->nmem = got->nmem;
	e->mem = got->mem;
	e->nhuge = got->nhuge;
	e->huge = got->huge;
	e->opts = got->opts;
	free(got->owner);
	free(got->owner_dir);
	memset(got, 0, sizeof(*got));
}

/* take_type() on a machine of several core types. */
static int
take_hybrid(const struct coretypes *ct, const struct alloc_machine *m,
	    const struct alloc_state *st, const struct alloc_request *rq,
	    int only, struct alloc_entry *e, bool *mixed,
	    struct strbuf *explain, char *err, size_t errlen)
{
	struct alloc_entry got;
	struct cpuset avail = CPUSET_INIT;	/* the state's, once */
	int k, r = -ENOSPC;

	if (state_available(st, &m->topo->online, NULL, &avail) < 0) {
		cpuset_free(&avail);
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	}
	for (k = only >= 0 ? only : 0; k < ct->ntypes; k++) {
		r = take_within(ct, m, st, &avail, rq, k, &got, explain, err,
				errlen);
		if (r == 0) {
			adopt(e, &got);
			goto out;
		}
		if (r != -ENOSPC)
			goto out;
		if (only >= 0) {
			char why[512];

			snprintf(why, sizeof(why), "%s", err);
			err_set(err, errlen, "%d CPUs do not fit on the %s cores: %s",
				rq->n, ct->types[only].name, why);
			goto out;
		}
	}
	/* No type can hold it alone: mix, as the kubelet would. */
	r = take_within(ct, m, st, &avail, rq, -1, &got, explain, err, errlen);
	if (r == 0) {
		struct cpuset types = CPUSET_INIT;

		if (coretype_types_of(ct, &got.cpus, &types) < 0) {
			alloc_entry_free(&got);
			r = -ENOMEM;
			goto out;
		}
		*mixed = cpuset_count(&types) > 1;
		cpuset_free(&types);
		adopt(e, &got);
	}
out:
	cpuset_free(&avail);
	return r;
}

/*
 * An alloc_take() that keeps an allocation to one core type.  On a hybrid
 * machine the request goes to the fastest type that can hold it (each
 * type is tried in turn, fastest first, with the whole kubelet algorithm
 * and Topology Manager policy inside that type's CPUs); only when no type
 * can are types mixed, and *mixed says so.  With only >= 0 the take keeps
 * to that type or fails with -ENOSPC.  On a machine with one type this is
 * alloc_take() itself, so kubelet parity is exact there.  e's owner fields
 * are kept.  Returns as alloc_take().
 */
static int
take_type(const struct coretypes *ct, const struct alloc_machine *m,
	  const struct alloc_state *st, const struct alloc_request *rq,
	  int only, struct alloc_entry *e, bool *mixed,
	  struct strbuf *explain, char *err, size_t errlen)
{
	*mixed = false;
	if (!coretype_hybrid(ct))
		return alloc_take(m, st, rq, e, explain, err, errlen);
	return take_hybrid(ct, m, st, rq, only, e, mixed, explain, err,
			   errlen);
}

/*
 * Whether n CPUs would fit within type k (as a take would place them now).
 * *free_cpus gets the type's CPUs the state has available.  Returns 1 yes,
 * 0 no, -ENOMEM.
 */
static int
type_can_hold(const struct coretypes *ct, const struct alloc_machine *m,
	      const struct alloc_state *st, const struct alloc_request *rq,
	      int k, unsigned int *free_cpus)
{
	struct alloc_entry got;
	struct cpuset avail = CPUSET_INIT;
	char err[512];
	int r;

	if (state_available(st, &m->topo->online, NULL, &avail) < 0) {
		cpuset_free(&avail);
		return -ENOMEM;
	}
	*free_cpus = cpuset_count_and(&avail, &ct->types[k].cpus);
	r = take_within(ct, m, st, &avail, rq, k, &got, NULL, err,
			sizeof(err));
	cpuset_free(&avail);
	if (r == 0)
		alloc_entry_free(&got);
	return r == 0 ? 1 : r == -ENOMEM ? r : 0;
}

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
	return take_type(ct, m, st, rq, only, e, mixed, explain, err,
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
		r = type_can_hold(ct, m, st, &rq, k, &nfree);
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

	r = alloc_hints(m, st, rq->n, st->policy.k.align_socket, rq, &h,
			err, errlen);
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
			r = type_can_hold(ct, m, st, &trq, k, &nfree);
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

	r = alloc_hints(m, st, rq->n, st->policy.k.align_socket, rq, &h,
			err, errlen);
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
