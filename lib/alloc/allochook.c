// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocations an OCI runtime hook makes, and whose they are.  See
 * allochook.h.
 */
#include <errno.h>
#include <string.h>

#include "alloc/allochook.h"
#include "alloc/alloctake.h"
#include "base/err.h"
#include "base/strutils.h"
#include "machine/proc.h"

/*
 * The path of the systemd slice unit named by p (n bytes, no '/'), as
 * systemd nests it: "a-b-c.slice" is a.slice/a-b.slice/a-b-c.slice.
 * Returns its length in buf, or 0 when p is no such name (no '-', or a
 * dash that starts, ends or doubles a part) or buf is too small.
 */
static size_t
slice_path(const char *p, size_t n, char *buf, size_t size)
{
	size_t base, i, len = 0;

	if (n <= 6 || memcmp(p + n - 6, ".slice", 6) != 0 ||
	    memchr(p, '/', n) != NULL)
		return 0;
	base = n - 6;
	if (memchr(p, '-', base) == NULL || p[0] == '-' || p[base - 1] == '-')
		return 0;
	for (i = 0; i < base; i++) {
		if (p[i] != '-')
			continue;
		if (p[i + 1] == '-' || len + i + 7 >= size)
			return 0;
		memcpy(buf + len, p, i);
		memcpy(buf + len + i, ".slice/", 7);
		len += i + 7;
	}
	if (len + n >= size)
		return 0;
	memcpy(buf + len, p, n);
	return len + n;
}

/* Whether group (without leading '/') is p's n bytes or below them. */
static bool
path_below(const char *group, const char *p, size_t n)
{
	/* The root group: every group is below it. */
	return n == 0 || (strncmp(group, p, n) == 0 &&
			  (group[n] == '\0' || group[n] == '/'));
}

bool
alloc_hook_below(const char *parents, const char *group)
{
	const char *p = parents;
	char sl[1024];

	while (*group == '/')
		group++;
	while (p && *p) {
		const char *end = strchrnul(p, ',');
		size_t n, sn;

		while (*p == '/' && p < end)
			p++;
		n = (size_t)(end - p);
		while (n > 0 && p[n - 1] == '/')
			n--;
		if (path_below(group, p, n))
			return true;
		/* A nested slice named as systemd names it. */
		sn = slice_path(p, n, sl, sizeof(sl));
		if (sn > 0 && path_below(group, sl, sn))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

int
alloc_hook_allowed(const struct alloc_hook_policy *policy, const char *group,
		   const struct alloc_request *rq, bool irqs, char *err,
		   size_t errlen)
{
	if (rq->n == 0 && !rq->have_mem && !irqs)
		return 0;
	if (policy->parents && !alloc_hook_below(policy->parents, group))
		return err_ret(err, errlen, -EPERM, "cgroup '%s' is below none "
			       "of the parents the hook grants CPUs in (%s)",
			       group, policy->parents);
	if (policy->max_cpus > 0 && rq->n > policy->max_cpus)
		return err_ret(err, errlen, -EPERM, "%d CPUs are more than the "
			       "hook grants a container (%d)", rq->n,
			       policy->max_cpus);
	return 0;
}

/* Whether the process of container entry e still runs, below live. */
static bool
process_runs(const struct alloc_entry *e, const struct sysroot *live)
{
	uint64_t start;

	if (e->hook_pid <= 0 ||
	    proc_start_time(live, (pid_t)e->hook_pid, &start) < 0)
		return false;
	return !e->owner_start || start == e->owner_start;
}

/* The group of entry e's owner, or "" when it has none. */
static const char *
group_of(const struct alloc_entry *e)
{
	return e->owner && startswith(e->owner, "cgroup:") ? e->owner + 7 : "";
}

/* Whether st's entry old of the name may be container e's (see .h). */
static int
same_container(struct alloc_entry *old, const struct alloc_entry *e,
	       const struct sysroot *live, bool *changed, char *err,
	       size_t errlen)
{
	/* A container placed before entries were marked: its name and
	 * its group are the hook's, and it is the container's from now. */
	if (!old->hook && *group_of(old) &&
	    strcmp(group_of(old), group_of(e)) == 0) {
		old->hook = true;
		old->hook_pid = e->hook_pid;
		old->owner_start = e->owner_start;
		*changed = true;
		return 0;
	}
	if (!old->hook)
		return err_ret(err, errlen, -EEXIST, "allocation '%s' was made "
			       "by hand or by a plan, not for a container",
			       old->name);
	if (strcmp(group_of(old), group_of(e)) != 0)
		return err_ret(err, errlen, -EEXIST, "a container of that id "
			       "runs in cgroup '%s' already", group_of(old));
	if (old->hook_pid == e->hook_pid && old->owner_start == e->owner_start)
		return 0;
	if (process_runs(old, live))
		return err_ret(err, errlen, -EEXIST, "a container of that id "
			       "runs already (process %d)", old->hook_pid);
	/* Started again in its group: the entry follows the new process. */
	old->hook_pid = e->hook_pid;
	old->owner_start = e->owner_start;
	*changed = true;
	return 0;
}

int
alloc_hook_place(const struct coretypes *ct, const struct alloc_machine *m,
		 struct alloc_state *st, const struct alloc_request *rq,
		 int only, const struct sysroot *live, struct alloc_entry *e,
		 struct alloc_hook_result *res, char *err, size_t errlen)
{
	const struct alloc_entry *held;
	struct alloc_entry *old, saved;
	struct cpuset pool = CPUSET_INIT;
	bool changed = false;
	int i, r;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < st->nentries; i++)
		if (*group_of(e) &&
		    strcmp(group_of(&st->entries[i]), group_of(e)) == 0 &&
		    strcmp(st->entries[i].name, rq->name) != 0)
			return err_ret(err, errlen, -EEXIST, "cgroup '%s' "
				       "belongs to allocation '%s'",
				       group_of(e), st->entries[i].name);
	old = state_find(st, rq->name);
	if (old) {
		saved = *old;
		r = same_container(old, e, live, &changed, err, errlen);
		if (r < 0)
			return r;
	}
	r = alloc_take_named(ct, m, st, rq, only, e, &held, &res->mixed, NULL,
			     err, errlen);
	if (r < 0) {
		if (changed) {
			old->hook = saved.hook;
			old->hook_pid = saved.hook_pid;
			old->owner_start = saved.owner_start;
		}
		return r;
	}
	if (held) {
		res->held = true;
		res->changed = changed;
		res->at = (int)(held - st->entries);
		/* Placed before names were recorded: it has one now. */
		if (!st->entries[res->at].cname && e->cname) {
			st->entries[res->at].cname = e->cname;
			e->cname = NULL;
			res->changed = true;
		}
		alloc_entry_free(e);
		return 0;
	}
	if (state_add(st, e) < 0)
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	res->at = st->nentries - 1;
	/* The shared containers need a CPU to run on. */
	if (state_shared(st, &m->topo->online, &pool) < 0) {
		r = err_ret(err, errlen, -ENOMEM, "out of memory");
	} else if (cpuset_empty(&pool)) {
		r = err_ret(err, errlen, -ENOSPC, "%d CPUs would leave the "
			    "shared pool empty (keep CPUs for it with "
			    "'cpm-alloc init --reserve N')", rq->n);
	}
	cpuset_free(&pool);
	if (r < 0)
		state_remove(st, res->at);
	return r;
}

int
alloc_hook_find_stopped(const struct alloc_state *st, const char *name,
			const char *group, int pid, const struct sysroot *live,
			char *err, size_t errlen)
{
	const struct alloc_entry *e = state_find(st, name);

	if (!e)
		return -ENOENT;
	/* Placed before entries were marked: by its group alone. */
	if (!e->hook && group && *group_of(e) &&
	    alloc_hook_below(group, group_of(e)))
		return (int)(e - st->entries);
	if (!e->hook)
		return err_ret(err, errlen, -EEXIST, "allocation '%s' was made "
			       "by hand or by a plan, not for a container",
			       name);
	/* The runtime may have put the process in a group below it. */
	if (group && !alloc_hook_below(group, group_of(e)))
		return err_ret(err, errlen, -EEXIST, "its allocation belongs "
			       "to cgroup '%s', not '%s'", group_of(e), group);
	if (pid > 0 && e->hook_pid > 0 && pid != e->hook_pid)
		return err_ret(err, errlen, -EEXIST, "its allocation belongs "
			       "to process %d, not %d", e->hook_pid, pid);
	if (process_runs(e, live))
		return err_ret(err, errlen, -EEXIST, "its process %d still runs",
			       e->hook_pid);
	return (int)(e - st->entries);
}

int
alloc_hook_follower(const struct alloc_state *st, const char *skip, int from)
{
	int i;

	for (i = from; i < st->nentries; i++) {
		const struct alloc_entry *e = &st->entries[i];

		if (e->n == 0 && e->owner && startswith(e->owner, "cgroup:") &&
		    (!skip || strcmp(e->name, skip) != 0))
			return i;
	}
	return -1;
}
