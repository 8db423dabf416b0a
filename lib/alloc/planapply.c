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

/* Take the instance in afresh into st, as a plan-owned entry. */
static int
take(const struct alloc_machine *m, struct alloc_state *st,
     const struct plan_instance *in, char *err, size_t errlen)
{
	struct cpuset from = CPUSET_INIT;
	struct alloc_request rq;
	struct alloc_entry e;
	char why[512];
	int r;

	memset(&rq, 0, sizeof(rq));
	memset(&e, 0, sizeof(e));
	rq.name = in->name;
	rq.n = in->count;
	rq.mode = in->share ? ALLOC_SHARE : ALLOC_EXCLUSIVE;
	rq.have_mem = in->have_mem;
	rq.mem = in->mem;
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
			char *l = cpuset_to_list(&from);

			snprintf(why, sizeof(why), "CPUs %s are not available "
				 "(offline, reserved or allocated)", l ? l : "");
			free(l);
			r = -ENOSPC;
		}
		cpuset_free(&avail);
		if (r < 0)
			goto out;
		cpuset_copy(&from, &in->cpus);
		rq.from = &from;
	} else if (in->have_nodes) {
		if ((r = topo_cpus_of_nodes(m->topo, &in->nodes, &from)) < 0)
			goto out;
		rq.from = &from;
	}
	r = alloc_take(m, st, &rq, &e, NULL, why, sizeof(why));
	if (r == 0 && in->exact && !cpuset_equal(&e.cpus, &in->cpus)) {
		snprintf(why, sizeof(why), "its CPUs cannot be taken as they are");
		r = -ENOSPC;
	}
	if (r == 0 && (e.owner = strdup(PLAN_OWNER)) == NULL)
		r = -ENOMEM;
	if (r == 0)
		r = state_add(st, &e);
out:
	if (r < 0 && r != -ENOMEM)
		err_set(err, errlen, "%s: %s", in->name, why);
	alloc_entry_free(&e);
	cpuset_free(&from);
	return r;
}

/* Bring the plan-owned entry at index i in line with in. */
static int
update(const struct alloc_machine *m, struct alloc_state *st, int i,
       const struct plan_instance *in, struct plan_changes *out, char *err,
       size_t errlen)
{
	struct alloc_entry *e = &st->entries[i];
	enum alloc_mode mode = in->share ? ALLOC_SHARE : ALLOC_EXCLUSIVE;
	struct cpuset before = CPUSET_INIT;
	enum plan_action a = PLAN_UNCHANGED;
	struct alloc_opts o;
	char why[512];
	int r = 0;

	if (cpuset_copy(&before, &e->cpus) < 0)
		return -ENOMEM;
	if ((in->exact && !cpuset_equal(&e->cpus, &in->cpus)) ||
	    booked(e) != (in->have_mem ? in->mem : 0)) {
		/* Taken again: its CPUs are free for the new take. */
		state_remove(st, i);
		r = take(m, st, in, err, errlen);
		a = PLAN_REPLACE;
	} else if (!in->exact && e->n != in->count) {
		r = alloc_resize_opts(m, &st->policy, e, &o, why, sizeof(why));
		if (r == 0)
			r = alloc_resize(m, st, e, in->count, &o, why,
					 sizeof(why));
		if (r < 0 && r != -ENOMEM)
			err_set(err, errlen, "%s: %s", in->name, why);
		a = PLAN_RESIZE;
	}
	if (r == 0 && a != PLAN_REPLACE && e->mode != mode) {
		e->mode = mode;
		if (a == PLAN_UNCHANGED)
			a = PLAN_MODE;
	}
	if (r == 0) {
		e = state_find(st, in->name);
		if (add_change(out, in->name, a, &before, e ? &e->cpus : NULL) ==
		    NULL)
			r = -ENOMEM;
	}
	cpuset_free(&before);
	return r;
}

int
plan_apply(const struct alloc_machine *m, struct alloc_state *st,
	   const struct plan *p, struct plan_changes *out, char *err,
	   size_t errlen)
{
	struct alloc_entry *e;
	int i, r = 0;

	memset(out, 0, sizeof(*out));
	/* What the plan no longer names, and only what it made. */
	for (i = 0; i < st->nentries; i++) {
		e = &st->entries[i];
		if (!plan_owned(e) || plan_find(p, e->name))
			continue;
		if (add_change(out, e->name, PLAN_RELEASE, &e->cpus, NULL) == NULL)
			goto oom;
		state_remove(st, i--);
	}
	for (i = 0; i < p->n && r == 0; i++) {
		const struct plan_instance *in = &p->inst[i];

		e = state_find(st, in->name);
		if (e && !plan_owned(e)) {
			err_set(err, errlen, "%s: an allocation of that name "
				"exists that the plan did not make (release it, "
				"or rename the instance)", in->name);
			return -ENOSPC;
		}
		if (e) {
			r = update(m, st, (int)(e - st->entries), in, out, err,
				   errlen);
			continue;
		}
		r = take(m, st, in, err, errlen);
		if (r == 0 && (e = state_find(st, in->name)) != NULL &&
		    add_change(out, in->name, PLAN_TAKE, NULL, &e->cpus) == NULL)
			goto oom;
	}
	if (r == -ENOMEM)
		goto oom;
	return r;
oom:
	err_set(err, errlen, "out of memory");
	return -ENOMEM;
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
