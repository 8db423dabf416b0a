/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A pod placed in one call, as the kubelet admits one: its members
 * (containers) and init members, under the Topology Manager's container
 * or pod scope, with the CPUs of the init members handed on to the
 * members that follow (the CPU manager's reusable CPUs).
 *
 * Terminology:
 *   member       one container of the pod: an entry named POD/NAME;
 *   init member  an init container: placed before every member, its
 *                CPUs reusable by those that follow; an app member's
 *                take removes what it got from the reusable CPUs;
 *   pod request  the larger of the biggest init member and the sum of
 *                the members (podGuaranteedCPUs);
 *   scope        container: a hint merged and admitted per member;
 *                pod: one hint for the pod request, merged and admitted
 *                once, every member then placed in it.
 *
 * The state keeps each member as an entry of its own.  The kubelet keeps
 * an init container's whole set while its CPUs serve the members after
 * it; the state, whose entries never overlap, keeps what is left of it
 * (the CPUs no later member took): the CPUs the pod holds are the same.
 */
#ifndef CPM_ALLOCPOD_H
#define CPM_ALLOCPOD_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc/alloc.h"
#include "base/strbuf.h"

enum alloc_scope { ALLOC_SCOPE_CONTAINER, ALLOC_SCOPE_POD };

struct alloc_member {
	const char *name;	/* NAME, without the pod's */
	int n;			/* CPUs */
	bool init;
};

struct alloc_pod {
	const char *name;
	enum alloc_scope scope;
	const struct alloc_member *members;	/* in the order given */
	int n;
};

/* Returns 0 or -EINVAL for a name that is neither "pod" nor "container". */
int alloc_scope_parse(const char *s, enum alloc_scope *scope);

/*
 * Parse "NAME=N" into *mb (name points into arg).  Returns 0 or -EINVAL
 * (err says why).
 */
int alloc_member_parse(const char *arg, bool init, struct alloc_member *mb,
		       char *err, size_t errlen);

/* The pod request: max(biggest init member, sum of the members). */
int alloc_pod_request(const struct alloc_pod *pod);

/*
 * Place pod in st (not changed): init members first, then members, each
 * in the order given, with rq's options (rq->name, n, reuse, affinity
 * and admit are the pod's to set; no memory).  e[] (pod->n zeroed
 * entries, in the order given) get the entries to add, named POD/NAME;
 * got[] (pod->n initialised sets) what each member was given.  Returns
 * 0; -EINVAL for a bad pod (a member name twice, a name too long, a pod
 * whose name or members the state holds already); -ENOSPC when a member
 * cannot be placed or the pod is not admitted (err says which and why;
 * nothing is kept); -ENOMEM.
 */
int alloc_take_pod(const struct alloc_machine *m, const struct alloc_state *st,
		   const struct alloc_request *rq, const struct alloc_pod *pod,
		   struct alloc_entry *e, struct cpuset *got,
		   struct strbuf *explain, char *err, size_t errlen);

/*
 * Remove the members of pod name (the entries named NAME/...) from st.
 * Returns how many were removed (0: none).
 */
int alloc_pod_remove(struct alloc_state *st, const char *name);

#endif
