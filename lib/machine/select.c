// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU selectors: see select.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "base/strutils.h"
#include "machine/coretype.h"
#include "machine/select.h"

static int
bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

bool
select_is_cpulist(const char *sel)
{
	return strcmp(sel, "-") == 0 || (sel[0] >= '0' && sel[0] <= '9') ||
		sel[0] == ',' || sel[0] == ' ' || sel[0] == '\0';
}

/* The number after "prefix:". */
static int
sel_number(const char *sel, const char *num, int *out, char *err,
	   size_t errlen)
{
	unsigned int v;

	if (parse_uint(num, CPUSET_MAX_CPUS - 1, &v) < 0)
		return bad(err, errlen, "invalid selector '%s': not a number",
			   sel);
	*out = (int)v;
	return 0;
}

static int
copy(struct cpuset *out, const struct cpuset *s)
{
	return cpuset_copy(out, s) < 0 ? -ENOMEM : 0;
}

static int
sel_die(const struct topo *t, const char *sel, const char *arg,
	struct cpuset *out, char *err, size_t errlen)
{
	char buf[64];
	char *dot;
	int id = 0, die = 0, cpu, r;
	bool found = false;

	snprintf(buf, sizeof(buf), "%s", arg);
	dot = strchr(buf, '.');
	if (dot == NULL)
		return bad(err, errlen, "invalid selector '%s': use "
			   "die:SOCKET.DIE", sel);
	*dot = '\0';
	if ((r = sel_number(sel, buf, &id, err, errlen)) < 0 ||
	    (r = sel_number(sel, dot + 1, &die, err, errlen)) < 0)
		return r;
	cpuset_for_each(cpu, &t->online)
		if (t->cpus[cpu].socket == id && t->cpus[cpu].die == die) {
			if (cpuset_set(out, (unsigned int)cpu) < 0)
				return -ENOMEM;
			found = true;
		}
	if (!found)
		return bad(err, errlen, "invalid selector '%s': no die %d in "
			   "socket %d", sel, die, id);
	return 0;
}

static int
sel_thread(const struct topo *t, const char *sel, int k, struct cpuset *out,
	   char *err, size_t errlen)
{
	int cpu;

	if (k >= t->threads_per_core)
		return bad(err, errlen, "invalid selector '%s': cores have at "
			   "most %d thread%s", sel, t->threads_per_core,
			   t->threads_per_core == 1 ? "" : "s");
	cpuset_for_each(cpu, &t->online) {
		int n = 0, s;

		if (t->cpus[cpu].core != cpu)
			continue;	/* visit each core once */
		for (s = cpu; s >= 0 && n < k; s = t->cpus[s].next_thread)
			n++;
		if (s >= 0 && cpuset_set(out, (unsigned int)s) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Selectors of the form NAME:ARG. */
static int
sel_prefixed(const struct topo *t, const char *sel, const char *arg,
	     struct cpuset *out, char *err, size_t errlen)
{
	int id = 0, i, r;

	if (startswith(sel, "die:"))
		return sel_die(t, sel, arg, out, err, errlen);
	if (!startswith(sel, "node:") && !startswith(sel, "socket:") &&
	    !startswith(sel, "l3:") && !startswith(sel, "siblings:") &&
	    !startswith(sel, "thread:"))
		return bad(err, errlen, "unknown selector '%s'", sel);
	if ((r = sel_number(sel, arg, &id, err, errlen)) < 0)
		return r;
	if (startswith(sel, "node:")) {
		const struct topo_node *n = topo_node_by_id(t, id);

		if (n == NULL)
			return bad(err, errlen, "invalid selector '%s': no NUMA "
				   "node %d", sel, id);
		if ((r = copy(out, &n->cpus)) < 0)
			return r;
		cpuset_and(out, &t->online);
		return 0;
	}
	if (startswith(sel, "socket:")) {
		const struct topo_socket *s = topo_socket_by_id(t, id);

		if (s == NULL)
			return bad(err, errlen, "invalid selector '%s': no socket "
				   "%d", sel, id);
		return copy(out, &s->cpus);
	}
	if (startswith(sel, "l3:")) {
		for (i = 0; i < t->nl3; i++)
			if (t->l3s[i].id == id)
				return copy(out, &t->l3s[i].cpus);
		return bad(err, errlen, "invalid selector '%s': no L3 cache with "
			   "id %d", sel, id);
	}
	if (startswith(sel, "siblings:")) {
		if (id >= t->ncpus || !t->cpus[id].possible)
			return bad(err, errlen, "invalid selector '%s': CPU %d "
				   "does not exist", sel, id);
		/* Online CPUs only, as every topology selector: an
		 * offline CPU has no siblings the kernel tells, and is
		 * none of its own. */
		if (t->cpus[id].core < 0)
			return 0;
		return topo_siblings(t, id, out) < 0 ? -ENOMEM : 0;
	}
	return sel_thread(t, sel, id, out, err, errlen);
}

/* The set a plain name selects, or NULL. */
static const struct cpuset *
named_set(const struct topo *t, const char *sel)
{
	if (strcmp(sel, "all") == 0 || strcmp(sel, "possible") == 0)
		return &t->possible;
	if (strcmp(sel, "present") == 0)
		return &t->present;
	if (strcmp(sel, "online") == 0)
		return &t->online;
	if (strcmp(sel, "offline") == 0)
		return &t->offline;
	if (strcmp(sel, "isolated") == 0)
		return &t->isolated;
	if (strcmp(sel, "allowed") == 0)
		return &t->allowed;
	return NULL;
}

int
select_resolve(const struct topo *t, const char *sel, struct cpuset *out,
	       char *err, size_t errlen)
{
	const struct cpuset *named = named_set(t, sel);
	const char *colon = strchr(sel, ':');

	cpuset_zero(out);
	if (named)
		return copy(out, named);
	if (colon == NULL)
		return bad(err, errlen, "unknown selector '%s'", sel);
	return sel_prefixed(t, sel, colon + 1, out, err, errlen);
}

bool
select_needs_types(const char *sel)
{
	return startswith(sel, "type:") || startswith(sel, "capacity:") ||
	       startswith(sel, "part:");
}

int
select_resolve_all(const struct topo *t, const struct coretypes *ct,
		   const char *sel, struct cpuset *out, char *err,
		   size_t errlen)
{
	if (select_needs_types(sel)) {
		if (ct == NULL) {
			snprintf(err, errlen, "selector '%s' needs the core "
				 "types, which were not read", sel);
			return -EINVAL;
		}
		return coretype_select(ct, t, sel, out, err, errlen);
	}
	return select_resolve(t, sel, out, err, errlen);
}
