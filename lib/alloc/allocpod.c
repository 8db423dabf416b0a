// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A pod placed in one call: the kubelet's admission of a pod's init
 * containers and containers, under the container or the pod scope, with
 * the CPU manager's reusable CPUs (policy_static.go: updateCPUsToReuse,
 * allocateCPUs, podGuaranteedCPUs; scope_pod.go: Admit).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/allocpod.h"
#include "base/err.h"
#include "base/num.h"

int
alloc_scope_parse(const char *s, enum alloc_scope *scope)
{
	if (strcmp(s, "container") == 0)
		*scope = ALLOC_SCOPE_CONTAINER;
	else if (strcmp(s, "pod") == 0)
		*scope = ALLOC_SCOPE_POD;
	else
		return -EINVAL;
	return 0;
}

int
alloc_member_parse(const char *arg, bool init, struct alloc_member *mb,
		   char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	char name[STATE_NAME_MAX + 1];
	unsigned int n;
	size_t len = eq ? (size_t)(eq - arg) : 0;

	if (!eq || len == 0 || len > STATE_NAME_MAX)
		return err_ret(err, errlen, -EINVAL, "invalid member '%s' "
			       "(NAME=N)", arg);
	memcpy(name, arg, len);
	name[len] = '\0';
	if (strchr(name, '/') || !state_name_valid(name))
		return err_ret(err, errlen, -EINVAL, "invalid member name "
			       "'%s' (use 1 to %d of A-Z a-z 0-9 . _ : @ -)",
			       name, STATE_NAME_MAX);
	if (parse_uint(eq + 1, CPUSET_MAX_CPUS, &n) < 0)
		return err_ret(err, errlen, -EINVAL, "invalid CPU count '%s' "
			       "of member '%s'", eq + 1, name);
	mb->name = arg;
	mb->n = (int)n;
	mb->init = init;
	return 0;
}

int
alloc_pod_request(const struct alloc_pod *pod)
{
	int i, init = 0, app = 0;

	for (i = 0; i < pod->n; i++) {
		const struct alloc_member *mb = &pod->members[i];

		if (!mb->init)
			app += mb->n;
		else if (mb->n > init)
			init = mb->n;
	}
	return init > app ? init : app;
}

static size_t
member_len(const struct alloc_member *mb)
{
	const char *eq = strchr(mb->name, '=');

	return eq ? (size_t)(eq - mb->name) : strlen(mb->name);
}

/* "POD/NAME" into buf; -EINVAL when too long for a name. */
static int
member_name(const struct alloc_pod *pod, const struct alloc_member *mb,
	    char *buf, size_t len, char *err, size_t errlen)
{
	int w = snprintf(buf, len, "%s/%.*s", pod->name, (int)member_len(mb),
			 mb->name);

	if (w < 0 || (size_t)w >= len || !state_name_valid(buf))
		return err_ret(err, errlen, -EINVAL, "member name '%s/%.*s' "
			       "is longer than %d characters", pod->name,
			       (int)member_len(mb), mb->name, STATE_NAME_MAX);
	return 0;
}

/* A pod the state can take: members named once, none held already. */
static int
check_pod(const struct alloc_state *st, const struct alloc_pod *pod,
	  char *err, size_t errlen)
{
	size_t plen = strlen(pod->name);
	int i, j;

	if (strchr(pod->name, '/'))
		return err_ret(err, errlen, -EINVAL, "invalid pod name '%s' "
			       "(a '/' separates it from its members)",
			       pod->name);
	for (i = 0; i < pod->n; i++)
		for (j = 0; j < i; j++)
			if (member_len(&pod->members[i]) ==
			    member_len(&pod->members[j]) &&
			    memcmp(pod->members[i].name, pod->members[j].name,
				   member_len(&pod->members[i])) == 0)
				return err_ret(err, errlen, -EINVAL, "member "
					       "'%.*s' given twice",
					       (int)member_len(&pod->members[i]),
					       pod->members[i].name);
	if (state_find(st, pod->name))
		return err_ret(err, errlen, -EINVAL, "'%s' is an allocation "
			       "already, not a pod", pod->name);
	for (i = 0; i < st->nentries; i++)
		if (strncmp(st->entries[i].name, pod->name, plen) == 0 &&
		    st->entries[i].name[plen] == '/')
			return err_ret(err, errlen, -EINVAL, "pod '%s' holds "
				       "allocations already ('%s'): release it "
				       "first", pod->name,
				       st->entries[i].name);
	return 0;
}

/*
 * Place one member among base minus taken plus reuse; its CPUs are
 * added to taken and to (init) or removed from (app) reuse.
 */
static int
take_member(const struct alloc_machine *m, const struct alloc_state *st,
	    struct alloc_request *mrq, const struct cpuset *base,
	    struct cpuset *taken, struct cpuset *reuse, bool init,
	    struct alloc_entry *e, struct strbuf *explain, char *err,
	    size_t errlen)
{
	struct cpuset avail = CPUSET_INIT;
	int r;

	if (cpuset_copy(&avail, base) < 0) {
		cpuset_free(&avail);
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	}
	cpuset_andnot(&avail, taken);
	if (cpuset_or(&avail, reuse) < 0) {
		cpuset_free(&avail);
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	}
	mrq->reuse = reuse;
	if (explain)
		strbuf_printf(explain, "%s: %d CPUs\n", mrq->name, mrq->n);
	r = alloc_take_avail(m, st, &avail, mrq, e, explain, err, errlen);
	if (r < 0)
		return r;
	if (cpuset_or(taken, &e->cpus) < 0)
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	if (!init)
		cpuset_andnot(reuse, &e->cpus);
	else if (cpuset_or(reuse, &e->cpus) < 0)
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

/* The pod scope's one admission, for the pod request among base. */
static int
admit_pod(const struct alloc_machine *m, const struct alloc_state *st,
	  const struct alloc_request *rq, const struct alloc_pod *pod,
	  const struct cpuset *base, struct tm_hint *best,
	  struct strbuf *explain, char *err, size_t errlen)
{
	struct alloc_request prq = *rq;
	struct cpuset avail = CPUSET_INIT;
	char msg[2048];
	int r;

	prq.n = alloc_pod_request(pod);
	prq.admit = best;
	if (cpuset_copy(&avail, base) < 0) {
		cpuset_free(&avail);
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	}
	if (explain)
		strbuf_printf(explain, "pod %s: %d CPUs\n", pod->name, prq.n);
	r = alloc_take_avail(m, st, &avail, &prq, NULL, explain, msg,
			     sizeof(msg));
	if (r == -ENOSPC)
		return err_ret(err, errlen, r, "pod '%s' (%d CPUs): %s",
			       pod->name, prq.n, msg);
	if (r < 0)
		return err_ret(err, errlen, r, "%s", msg);
	return 0;
}

static void
drop_all(const struct alloc_pod *pod, struct alloc_entry *e,
	 struct cpuset *got)
{
	int i;

	for (i = 0; i < pod->n; i++) {
		alloc_entry_free(&e[i]);
		memset(&e[i], 0, sizeof(e[i]));
		cpuset_free(&got[i]);
	}
}

/* Each init member keeps the CPUs no member after it took. */
static void
keep_leftovers(const struct alloc_pod *pod, const int *order,
	       struct alloc_entry *e)
{
	int i, j;

	for (i = 0; i < pod->n; i++) {
		struct alloc_entry *x = &e[order[i]];

		if (!pod->members[order[i]].init)
			continue;
		for (j = i + 1; j < pod->n; j++)
			cpuset_andnot(&x->cpus, &e[order[j]].cpus);
		x->n = (int)cpuset_count(&x->cpus);
	}
}

int
alloc_take_pod(const struct alloc_machine *m, const struct alloc_state *st,
	       const struct alloc_request *rq, const struct alloc_pod *pod,
	       struct alloc_entry *e, struct cpuset *got,
	       struct strbuf *explain, char *err, size_t errlen)
{
	struct cpuset base = CPUSET_INIT, taken = CPUSET_INIT;
	struct cpuset reuse = CPUSET_INIT;
	struct tm_hint best = { 0, true };
	struct alloc_request mrq = *rq;
	char name[STATE_NAME_MAX + 2], msg[2048];
	int *order = NULL, i, k = 0, pass, r;

	mrq.reuse = NULL;
	mrq.affinity = NULL;
	mrq.admit = NULL;
	mrq.have_mem = false;
	if ((r = check_pod(st, pod, err, errlen)) < 0)
		return r;
	for (i = 0; i < pod->n; i++)
		if ((r = member_name(pod, &pod->members[i], name, sizeof(name),
				     err, errlen)) < 0)
			return r;
	order = calloc((size_t)pod->n + 1, sizeof(*order));
	if (!order || state_available(st, &m->topo->online, NULL, &base) < 0) {
		r = err_ret(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	if (pod->scope == ALLOC_SCOPE_POD) {
		r = admit_pod(m, st, &mrq, pod, &base, &best, explain, err,
			      errlen);
		if (r < 0)
			goto out;
		mrq.affinity = &best;
	}
	/* Init members first, then the others, each in the order given. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < pod->n; i++) {
			const struct alloc_member *mb = &pod->members[i];

			if (mb->init != (pass == 0))
				continue;
			order[k++] = i;
			member_name(pod, mb, name, sizeof(name), err, errlen);
			mrq.name = name;
			mrq.n = mb->n;
			r = take_member(m, st, &mrq, &base, &taken, &reuse,
					mb->init, &e[i], explain, msg,
					sizeof(msg));
			if (r == -ENOSPC)
				r = err_ret(err, errlen, r, "member '%s': %s",
					    name, msg);
			else if (r < 0)
				r = err_ret(err, errlen, r, "%s", msg);
			if (r < 0)
				goto out;
			if (cpuset_copy(&got[i], &e[i].cpus) < 0) {
				r = err_ret(err, errlen, -ENOMEM,
					    "out of memory");
				goto out;
			}
		}
	keep_leftovers(pod, order, e);
	r = 0;
out:
	if (r < 0)
		drop_all(pod, e, got);
	free(order);
	cpuset_free(&base);
	cpuset_free(&taken);
	cpuset_free(&reuse);
	return r;
}

int
alloc_pod_remove(struct alloc_state *st, const char *name)
{
	size_t plen = strlen(name);
	int i = 0, n = 0;

	while (i < st->nentries) {
		const char *en = st->entries[i].name;

		if (strncmp(en, name, plen) == 0 && en[plen] == '/') {
			state_remove(st, i);
			n++;
		} else {
			i++;
		}
	}
	return n;
}
