// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Applying a plan to a state: see planapply.h.
 *
 * Releases come first, so that an instance moved from one name to
 * another, or shrunk to make room, frees its CPUs before the takes that
 * need them; then the instances in the plan's order, so that the same
 * plan on the same state always gives the same CPUs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/planapply.h"
#include "base/err.h"
#include "base/strbuf.h"
#include "kube/topomgr.h"

const char *
plan_action_name(enum plan_action a)
{
	static const char *const names[] = { "unchanged", "taken", "released",
					     "resized", "replaced", "mode" };

	return names[a];
}

static bool
plan_owned(const struct alloc_entry *e)
{
	return e->owner && strcmp(e->owner, PLAN_OWNER) == 0;
}

static struct plan_change *
add_change(struct plan_changes *out, const char *name, enum plan_action a,
	   const struct cpuset *before, const struct cpuset *after)
{
	struct plan_change *nc = realloc(out->c, ((size_t)out->n + 1) *
					 sizeof(*nc));

	if (nc == NULL)
		return NULL;
	out->c = nc;
	nc = &out->c[out->n];
	memset(nc, 0, sizeof(*nc));
	cpuset_init(&nc->before);
	cpuset_init(&nc->after);
	nc->action = a;
	out->n++;
	if ((nc->name = strdup(name)) == NULL ||
	    (before && cpuset_copy(&nc->before, before) < 0) ||
	    (after && cpuset_copy(&nc->after, after) < 0))
		return NULL;
	out->nchanged += a != PLAN_UNCHANGED;
	return nc;
}

/* The bytes booked for e on all nodes. */
static uint64_t
booked(const struct alloc_entry *e)
{
	uint64_t sum = 0;
	int k;

	for (k = 0; k < e->nmem; k++)
		sum += e->mem[k].bytes;
	return sum;
}

/* The placement options of an instance, the state's policy merged. */
static int
instance_opts(const struct alloc_machine *m, const struct alloc_state *st,
	      const struct plan_instance *in, struct alloc_opts *o, char *err,
	      size_t errlen)
{
	memset(o, 0, sizeof(*o));
	if (!in->exact) {
		if (in->affinity == PLAN_AFF_SPREAD)
			o->distribute_auto = true;
		if (in->numa_policy >= 0)
			o->numa_policy = in->numa_policy;
		else if (in->affinity == PLAN_AFF_LOCAL)
			o->numa_policy = TM_SINGLE_NUMA;
	}
	return alloc_opts_effective(m, &st->policy, o, err, errlen);
}

/* "s" when a set holds more than one. */
static const char *
plural(const struct cpuset *s)
{
	return cpuset_count(s) > 1 ? "s" : "";
}

/*
 * Book in's memory for e, on the instance's own nodes only: its nodes=
 * for interleave and bind, else its CPUs' nodes; split evenly over them
 * (what check --plan counts on each node).  Returns 0; -ENOSPC when a
 * node lacks the free memory (why says which); -ENOMEM.
 */
static int
book(const struct topo *t, const struct alloc_state *st,
     const struct plan_instance *in, struct alloc_entry *e, char *why,
     size_t len)
{
	struct cpuset nodes = CPUSET_INIT, tmp = CPUSET_INIT;
	uint64_t share, rest;
	int n, k = 0, r = 0;

	if (in->have_nodes && (in->mem_policy == PLAN_MEM_INTERLEAVE ||
			       in->mem_policy == PLAN_MEM_BIND)) {
		cpuset_for_each(n, &in->nodes)
			if (topo_node_by_id(t, n) != NULL &&
			    cpuset_set(&nodes, (unsigned int)n) < 0)
				r = -ENOMEM;
	} else {
		r = topo_nodes_of(t, &e->cpus, &nodes);
	}
	if (r == 0 && cpuset_empty(&nodes))
		r = err_ret(why, len, -ENOSPC, "no NUMA node of its own to "
			    "book its memory on");
	if (r < 0)
		goto out;
	if ((e->mem = calloc(cpuset_count(&nodes), sizeof(*e->mem))) == NULL) {
		r = -ENOMEM;
		goto out;
	}
	share = in->mem / cpuset_count(&nodes);
	rest = in->mem % cpuset_count(&nodes);
	cpuset_for_each(n, &nodes) {
		const struct topo_node *nd = topo_node_by_id(t, n);
		uint64_t total = nd && nd->mem_total_kb > 0 ?
			(uint64_t)nd->mem_total_kb << 10 : 0;
		uint64_t used = state_mem_booked(st, n);
		uint64_t want = share + (k == 0 ? rest : 0);

		if (total < used || total - used < want) {
			char *l = cpuset_to_list(&nodes);

			r = err_ret(why, len, -ENOSPC, "not enough free memory "
				    "on NUMA node %d for its share of %llu MiB "
				    "(its memory goes on node%s %s)", n,
				    (unsigned long long)(want >> 20),
				    plural(&nodes), l ? l : "?");
			free(l);
			goto out;
		}
		e->mem[k].node = n;
		e->mem[k++].bytes = want;
	}
	e->nmem = k;
out:
	cpuset_free(&nodes);
	cpuset_free(&tmp);
	return r;
}

/* The entries other than the instance's that hold CPUs of cpus. */
static void
holders(const struct alloc_state *st, const struct cpuset *cpus,
	const char *self, struct strbuf *sb)
{
	struct cpuset tmp = CPUSET_INIT;
	int i, n = 0;

	for (i = 0; i < st->nentries; i++) {
		const struct alloc_entry *e = &st->entries[i];

		if (strcmp(e->name, self) == 0)
			continue;
		cpuset_copy(&tmp, &e->cpus);
		cpuset_and(&tmp, cpus);
		if (cpuset_empty(&tmp))
			continue;
		strbuf_puts(sb, n++ ? ", " : " (held by ");
		strbuf_puts(sb, e->name);
	}
	if (n)
		strbuf_puts(sb, ")");
	else
		strbuf_puts(sb, " (offline, reserved or allocated)");
	cpuset_free(&tmp);
}

/* The instance's devices as a take's --near, and the nodes to prefer. */
static int
near_of(const struct plan_inst_devices *pd, struct alloc_request *rq,
	struct alloc_near **near, struct cpuset *prefer)
{
	int k;

	if (pd == NULL || pd->n == 0)
		return 0;
	if ((*near = calloc((size_t)pd->n, sizeof(**near))) == NULL)
		return -ENOMEM;
	for (k = 0; k < pd->n; k++) {
		(*near)[k].name = pd->names[k];
		(*near)[k].node = pd->nodes[k];
		if (pd->nodes[k] >= 0 &&
		    cpuset_set(prefer, (unsigned int)pd->nodes[k]) < 0)
			return -ENOMEM;
	}
	rq->near = *near;
	rq->nnear = pd->n;
	/* Under the none policy there is no hint to merge: the devices'
	 * nodes are filled first, as take --near fills them. */
	if (rq->opts.numa_policy == TM_NONE && !cpuset_empty(prefer))
		rq->prefer = prefer;
	return 0;
}

/*
 * How many of in's count each node gets when spread: one at a time,
 * node after node, over the nodes of in (its nodes=, else all) while
 * they have CPUs available in avail.  share[k] is for t->nodes[k].
 * Returns the number of nodes that get some, or 0 when the count does
 * not fit.
 */
static int
spread_shares(const struct topo *t, const struct plan_instance *in,
	      const struct cpuset *avail, int *share)
{
	struct cpuset tmp = CPUSET_INIT;
	int k, left = in->count, used = 0, *cap = calloc((size_t)t->nnodes + 1,
							 sizeof(int));
	bool more = true;

	if (cap == NULL)
		return -ENOMEM;
	for (k = 0; k < t->nnodes; k++) {
		share[k] = 0;
		if (in->have_nodes &&
		    !cpuset_isset(&in->nodes, (unsigned int)t->nodes[k].id))
			continue;
		cpuset_copy(&tmp, &t->nodes[k].cpus);
		cpuset_and(&tmp, avail);
		cap[k] = (int)cpuset_count(&tmp);
	}
	while (left > 0 && more) {
		more = false;
		for (k = 0; k < t->nnodes && left > 0; k++)
			if (cap[k] > share[k]) {
				used += share[k]++ == 0;
				left--;
				more = true;
			}
	}
	free(cap);
	cpuset_free(&tmp);
	return left > 0 ? 0 : used;
}

/*
 * affinity=spread for a count: the kubelet's distribute option alone
 * keeps a count that fits on one node there, so the count is split over
 * the instance's nodes (spread_shares()) and each share taken on its
 * node as the kubelet takes CPUs there.  Fills e.  Returns 1 when
 * spread, 0 when it is not to be (a count of one, fewer than two nodes
 * with CPUs available, a share the kubelet cannot take there: the
 * ordinary take decides then), -ENOMEM.
 */
static int
take_spread(const struct alloc_machine *m, const struct alloc_state *st,
	    const struct plan_instance *in, const struct alloc_request *rq,
	    struct alloc_entry *e)
{
	const struct topo *t = m->topo;
	struct cpuset avail = CPUSET_INIT;
	int *share = calloc((size_t)t->nnodes + 1, sizeof(int));
	int k, r;

	if (share == NULL)
		return -ENOMEM;
	r = state_available(st, &t->online, NULL, &avail);
	if (r == 0 && in->count > 1 &&
	    (in->numa_policy < 0 || in->numa_policy == TM_NONE))
		r = spread_shares(t, in, &avail, share) >= 2;
	else if (r == 0)
		r = 0;
	for (k = 0; r == 1 && k < t->nnodes; k++) {
		struct alloc_request sub = *rq;
		struct alloc_entry part;
		char why[256];
		int q;

		if (share[k] == 0)
			continue;
		memset(&part, 0, sizeof(part));
		sub.n = share[k];
		sub.from = &t->nodes[k].cpus;
		sub.prefer = NULL;
		sub.opts.distribute_auto = false;
		sub.opts.k.distribute = 0;
		q = alloc_take(m, st, &sub, &part, NULL, why, sizeof(why));
		if (q == 0 && cpuset_or(&e->cpus, &part.cpus) < 0)
			q = -ENOMEM;
		alloc_entry_free(&part);
		if (q < 0)
			r = q == -ENOMEM ? q : 0;
	}
	if (r == 1 && (e->name = strdup(in->name)) == NULL)
		r = -ENOMEM;
	if (r == 1) {
		e->n = in->count;
		e->mode = rq->mode;
		e->opts = rq->opts;
		e->opts.k.distribute = rq->opts.distribute_auto ? 0 :
			rq->opts.k.distribute;
	} else {
		alloc_entry_free(e);
	}
	cpuset_free(&avail);
	free(share);
	return r;
}

/*
 * Shrink a spread entry to n CPUs and keep it spread: each CPU given
 * back comes from the node holding the most of e's (alloc_shrink_pick()
 * chooses which there).  Returns 0 or -ENOMEM.
 */
static int
shrink_spread(const struct topo *t, struct alloc_entry *e, int n)
{
	struct cpuset part = CPUSET_INIT, drop = CPUSET_INIT;
	int k, best, most, r = alloc_entry_own_cpus(e);

	while (r == 0 && (int)cpuset_count(&e->cpus) > n) {
		best = -1;
		most = 0;
		for (k = 0; k < t->nnodes; k++) {
			cpuset_copy(&part, &t->nodes[k].cpus);
			cpuset_and(&part, &e->cpus);
			if ((int)cpuset_count(&part) >= most) {
				most = (int)cpuset_count(&part);
				best = k;
			}
		}
		if (best < 0 || most == 0)
			break;
		cpuset_copy(&part, &t->nodes[best].cpus);
		cpuset_and(&part, &e->cpus);
		r = alloc_shrink_pick(t, &part, 1, false, &drop);
		if (r == 0 && cpuset_empty(&drop))
			break;
		if (r == 0)
			cpuset_andnot(&e->cpus, &drop);
	}
	if (r == 0)
		e->n = (int)cpuset_count(&e->cpus);
	cpuset_free(&part);
	cpuset_free(&drop);
	return r;
}

/* Take the instance in afresh into st, as a plan-owned entry. */
static int
take(const struct alloc_machine *m, struct alloc_state *st,
     const struct plan_instance *in, const struct plan_inst_devices *pd,
     char *err, size_t errlen)
{
	struct cpuset from = CPUSET_INIT, prefer = CPUSET_INIT;
	struct alloc_near *near = NULL;
	struct alloc_request rq;
	struct alloc_entry e;
	char why[512];
	int r;

	memset(&rq, 0, sizeof(rq));
	memset(&e, 0, sizeof(e));
	rq.name = in->name;
	rq.n = in->count;
	rq.mode = in->share ? ALLOC_SHARE : ALLOC_EXCLUSIVE;
	r = instance_opts(m, st, in, &rq.opts, why, sizeof(why));
	if (r < 0)
		goto out;
	if (in->exact) {
		/* Those CPUs, every one of them, or a refusal. */
		struct cpuset avail = CPUSET_INIT;

		r = state_available(st, &m->topo->online, NULL, &avail);
		if (r == 0) {
			cpuset_copy(&from, &in->cpus);
			cpuset_andnot(&from, &avail);
		}
		if (r == 0 && !cpuset_empty(&from)) {
			struct strbuf sb;
			bool one = cpuset_count(&from) == 1;

			/* "CPUs 20-25 are not available (held by b)" */
			strbuf_init(&sb);
			strbuf_puts(&sb, one ? "CPU " : "CPUs ");
			cpuset_format(&from, &sb);
			strbuf_puts(&sb, one ? " is not available" :
				    " are not available");
			holders(st, &from, in->name, &sb);
			snprintf(why, sizeof(why), "%s", sb.buf ? sb.buf : "");
			strbuf_free(&sb);
			r = -ENOSPC;
		}
		cpuset_free(&avail);
		if (r < 0)
			goto out;
		cpuset_copy(&from, &in->cpus);
		rq.from = &from;
	} else {
		if (in->have_nodes &&
		    (r = topo_cpus_of_nodes(m->topo, &in->nodes, &from)) < 0)
			goto out;
		if (in->have_nodes)
			rq.from = &from;
		if ((r = near_of(pd, &rq, &near, &prefer)) < 0)
			goto out;
	}
	r = 0;
	if (!in->exact && in->affinity == PLAN_AFF_SPREAD)
		r = take_spread(m, st, in, &rq, &e);
	if (r == 0)
		r = alloc_take(m, st, &rq, &e, NULL, why, sizeof(why));
	else if (r == 1)
		r = 0;
	if (r == 0 && in->exact && !cpuset_equal(&e.cpus, &in->cpus)) {
		snprintf(why, sizeof(why), "its CPUs cannot be taken as they are");
		r = -ENOSPC;
	}
	if (r == 0 && in->have_mem)
		r = book(m->topo, st, in, &e, why, sizeof(why));
	if (r == 0 && (e.owner = strdup(PLAN_OWNER)) == NULL)
		r = -ENOMEM;
	if (r == 0 && pd && pd->record && (e.near = strdup(pd->record)) == NULL)
		r = -ENOMEM;
	if (r == 0 && in->mem_policy != PLAN_MEM_NONE &&
	    (e.mempol = strdup(plan_mem_policy_name(in->mem_policy))) == NULL)
		r = -ENOMEM;
	if (r == 0)
		r = state_add(st, &e);
out:
	if (r < 0 && r != -ENOMEM)
		err_set(err, errlen, "%s: %s", in->name, why);
	alloc_entry_free(&e);
	cpuset_free(&from);
	cpuset_free(&prefer);
	free(near);
	return r;
}

static bool
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	       (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/*
 * Whether the plan-owned entry e must be taken again for in: a cpulist,
 * its memory, its memory policy or its devices changed.
 */
static bool
moves(const struct alloc_entry *e, const struct plan_instance *in,
      const struct plan_inst_devices *pd)
{
	const char *pol = in->mem_policy == PLAN_MEM_NONE ? NULL :
		plan_mem_policy_name(in->mem_policy);

	return (in->exact && !cpuset_equal(&e->cpus, &in->cpus)) ||
	       booked(e) != (in->have_mem ? in->mem : 0) ||
	       !same_str(e->mempol, pol) ||
	       !same_str(e->near, pd ? pd->record : NULL);
}

/* Bring the plan-owned entry e in line with in (which it does not move). */
static int
update(const struct alloc_machine *m, struct alloc_state *st,
       struct alloc_entry *e, const struct plan_instance *in,
       struct plan_changes *out, char *err, size_t errlen)
{
	enum alloc_mode mode = in->share ? ALLOC_SHARE : ALLOC_EXCLUSIVE;
	struct cpuset before = CPUSET_INIT;
	enum plan_action a = PLAN_UNCHANGED;
	struct alloc_opts o;
	char why[512];
	int r = 0;

	if (cpuset_copy(&before, &e->cpus) < 0)
		return -ENOMEM;
	if (!in->exact && in->count < e->n && in->affinity == PLAN_AFF_SPREAD &&
	    !e->opts.k.full_cores) {
		/* A spread instance shrinks and stays spread. */
		r = shrink_spread(m->topo, e, in->count);
		a = PLAN_RESIZE;
	} else if (!in->exact && e->n != in->count) {
		r = alloc_resize_opts(m, &st->policy, e, &o, why, sizeof(why));
		if (r == 0)
			r = alloc_resize(m, st, e, in->count, &o, why,
					 sizeof(why));
		if (r < 0 && r != -ENOMEM)
			err_set(err, errlen, "%s: %s", in->name, why);
		a = PLAN_RESIZE;
	}
	if (r == 0 && e->mode != mode) {
		e->mode = mode;
		if (a == PLAN_UNCHANGED)
			a = PLAN_MODE;
	}
	if (r == 0 && add_change(out, in->name, a, &before, &e->cpus) == NULL)
		r = -ENOMEM;
	cpuset_free(&before);
	return r;
}

int
plan_apply(const struct alloc_machine *m, struct alloc_state *st,
	   const struct plan *p, const struct plan_devices *d,
	   struct plan_changes *out, char *err, size_t errlen)
{
	struct cpuset *was = calloc((size_t)p->n + 1, sizeof(*was));
	bool *moved = calloc((size_t)p->n + 1, sizeof(*moved));
	struct alloc_entry *e;
	int i, r = 0;

	memset(out, 0, sizeof(*out));
	if (was == NULL || moved == NULL)
		goto oom;
	/* What the plan no longer names, and only what it made. */
	for (i = 0; i < st->nentries; i++) {
		e = &st->entries[i];
		if (!plan_owned(e) || plan_find(p, e->name))
			continue;
		if (add_change(out, e->name, PLAN_RELEASE, &e->cpus, NULL) == NULL)
			goto oom;
		state_remove(st, i--);
	}
	/*
	 * The whole plan is one change: what moves is released before
	 * anything is taken, so that two instances may swap their CPUs.
	 */
	for (i = 0; i < p->n; i++) {
		const struct plan_inst_devices *pd = d ? &d->inst[i] : NULL;

		e = state_find(st, p->inst[i].name);
		if (e && !plan_owned(e)) {
			err_set(err, errlen, "%s: an allocation of that name "
				"exists that the plan did not make (release it, "
				"or rename the instance)", p->inst[i].name);
			r = -ENOSPC;
			goto out;
		}
		if (e && moves(e, &p->inst[i], pd)) {
			if (cpuset_copy(&was[i], &e->cpus) < 0)
				goto oom;
			moved[i] = true;
			state_remove(st, (int)(e - st->entries));
		}
	}
	for (i = 0; i < p->n && r == 0; i++) {
		const struct plan_instance *in = &p->inst[i];
		const struct plan_inst_devices *pd = d ? &d->inst[i] : NULL;

		e = state_find(st, in->name);
		if (e) {
			r = update(m, st, e, in, out, err, errlen);
			continue;
		}
		r = take(m, st, in, pd, err, errlen);
		if (r == 0 && (e = state_find(st, in->name)) != NULL &&
		    add_change(out, in->name, moved[i] ? PLAN_REPLACE : PLAN_TAKE,
			       moved[i] ? &was[i] : NULL, &e->cpus) == NULL)
			goto oom;
	}
	if (r == -ENOMEM)
		goto oom;
out:
	for (i = 0; was && i < p->n; i++)
		cpuset_free(&was[i]);
	free(was);
	free(moved);
	return r;
oom:
	err_set(err, errlen, "out of memory");
	r = -ENOMEM;
	goto out;
}

int
plan_verify(const struct alloc_machine *m, const struct plan *p,
	    const struct cpuset *reserved, const struct plan_devices *d,
	    struct plan_findings *out)
{
	struct plan_changes ch;
	struct alloc_state st;
	char err[768];
	int r, before = out->n;

	r = plan_check(p, m->topo, reserved, d, out);
	if (r < 0 || out->nerrors)
		return r < 0 ? r : out->n - before;
	/* A fresh state: only the reserved CPUs, no policy. */
	state_init(&st);
	if (reserved && cpuset_copy(&st.reserved, reserved) < 0) {
		state_free(&st);
		return -ENOMEM;
	}
	r = plan_apply(m, &st, p, d, &ch, err, sizeof(err));
	plan_changes_free(&ch);
	state_free(&st);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		/* "NAME: why": the instance apply names. */
		const char *sep = strstr(err, ": ");
		char name[STATE_NAME_MAX + 1] = "";

		if (sep && (size_t)(sep - err) <= STATE_NAME_MAX)
			snprintf(name, sizeof(name), "%.*s", (int)(sep - err),
				 err);
		r = plan_finding_add(out, true, name, "%s", sep && *name ?
				     sep + 2 : err);
		if (r < 0)
			return r;
	}
	return out->oom ? -ENOMEM : out->n - before;
}

void
plan_changes_free(struct plan_changes *c)
{
	int i;

	for (i = 0; i < c->n; i++) {
		free(c->c[i].name);
		cpuset_free(&c->c[i].before);
		cpuset_free(&c->c[i].after);
	}
	free(c->c);
	memset(c, 0, sizeof(*c));
}

void
plan_changes_text(const struct plan_changes *c, bool dry_run,
		  struct strbuf *sb)
{
	static const char *const would[] = { "unchanged", "would take",
		"would release", "would resize", "would replace",
		"would change the mode of" };
	int i;

	for (i = 0; i < c->n; i++) {
		const struct plan_change *ch = &c->c[i];

		strbuf_puts(sb, dry_run ? would[ch->action] :
			    plan_action_name(ch->action));
		strbuf_puts(sb, " ");
		strbuf_puts(sb, ch->name);
		strbuf_puts(sb, " ");
		if (ch->action == PLAN_RELEASE) {
			cpuset_format(&ch->before, sb);
		} else if (ch->action == PLAN_RESIZE ||
			   ch->action == PLAN_REPLACE) {
			cpuset_format(&ch->before, sb);
			strbuf_puts(sb, " -> ");
			cpuset_format(&ch->after, sb);
		} else {
			cpuset_format(&ch->after, sb);
		}
		strbuf_puts(sb, "\n");
	}
	if (c->nchanged == 0)
		strbuf_puts(sb, "no change\n");
	else
		strbuf_printf(sb, "%d change%s%s\n", c->nchanged,
			      c->nchanged == 1 ? "" : "s",
			      dry_run ? " (dry run: nothing done)" : "");
}

void
plan_changes_json(const struct plan_changes *c, bool dry_run, struct json *j)
{
	int i;

	json_obj_begin(j);
	json_key(j, "changed");
	json_bool(j, c->nchanged > 0);
	json_key(j, "dry_run");
	json_bool(j, dry_run);
	json_key(j, "instances");
	json_arr_begin(j);
	for (i = 0; i < c->n; i++) {
		const struct plan_change *ch = &c->c[i];

		json_obj_begin(j);
		json_key(j, "name");
		json_str(j, ch->name);
		json_key(j, "action");
		json_str(j, plan_action_name(ch->action));
		json_key(j, "changed");
		json_bool(j, ch->action != PLAN_UNCHANGED);
		json_key(j, "cpus");
		json_cpulist(j, &ch->after);
		json_key(j, "before");
		if (ch->action == PLAN_TAKE)
			json_null(j);
		else
			json_cpulist(j, &ch->before);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}
