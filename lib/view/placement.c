// SPDX-License-Identifier: GPL-2.0-or-later
/* Placement analysis: see placement.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "machine/coretype.h"
#include "machine/device.h"
#include "machine/irq.h"
#include "view/placement.h"

struct findings {
	struct strbuf *sb;
	int n;
	char *lists[2];		/* cpulists kept for the current message */
};

static void __attribute__((format(printf, 3, 4)))
finding(struct findings *f, const char *level, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0) {
		f->sb->oom = true;
		return;
	}
	strbuf_printf(f->sb, "%s: %s\n", level, msg);
	free(msg);
	f->n++;
}

/* "CPU 3 is" and "CPUs 3-4 are": the words around a list of CPUs. */
static const char *
cpus_word(const struct cpuset *s)
{
	return cpuset_count(s) == 1 ? "CPU" : "CPUs";
}

static const char *
is_are(const struct cpuset *s)
{
	return cpuset_count(s) == 1 ? "is" : "are";
}

/* A cpulist for a message, valid until the next call with the same slot. */
static const char *
lst(struct findings *f, int slot, const struct cpuset *s)
{
	free(f->lists[slot]);
	f->lists[slot] = cpuset_to_list(s);
	if (f->lists[slot] == NULL) {
		f->sb->oom = true;
		return "";
	}
	return f->lists[slot];
}

int
placement_policy_parse(const char *s, enum placement_policy *p)
{
	if (strcmp(s, "compact") == 0)
		*p = PLACE_COMPACT;
	else if (strcmp(s, "spread") == 0)
		*p = PLACE_SPREAD;
	else if (strcmp(s, "local") == 0)
		*p = PLACE_LOCAL;
	else
		return -EINVAL;
	return 0;
}

/* cpus & s, or cpus - s with minus, into tmp. */
static void
part(struct findings *f, struct cpuset *tmp, const struct cpuset *cpus,
     const struct cpuset *s, bool minus)
{
	if (cpuset_copy(tmp, cpus) < 0)
		f->sb->oom = true;
	if (minus)
		cpuset_andnot(tmp, s);
	else
		cpuset_and(tmp, s);
}

/* Offline, isolated and disallowed CPUs. */
static void
check_usable(struct findings *f, const struct topo *t,
	     const struct cpuset *cpus)
{
	struct cpuset tmp = CPUSET_INIT;

	if (cpuset_empty(cpus))
		finding(f, "error", "the cpulist is empty");
	part(f, &tmp, cpus, &t->offline, false);
	if (!cpuset_empty(&tmp))
		finding(f, "error", "%s %s %s offline", cpus_word(&tmp),
			lst(f, 0, &tmp), is_are(&tmp));
	part(f, &tmp, cpus, &t->isolated, false);
	if (!cpuset_empty(&tmp))
		finding(f, "warning", "%s %s %s isolated (isolcpus): the "
			"scheduler will not balance work across them",
			cpus_word(&tmp), lst(f, 0, &tmp), is_are(&tmp));
	if (t->allowed_known) {
		part(f, &tmp, cpus, &t->allowed, true);
		cpuset_andnot(&tmp, &t->offline);
		if (!cpuset_empty(&tmp))
			finding(f, "warning", "%s %s %s outside the CPUs "
				"this process may use", cpus_word(&tmp),
				lst(f, 0, &tmp), is_are(&tmp));
	}
	cpuset_free(&tmp);
}

/* The NUMA nodes asked for: existence, then membership. */
static void
check_wanted_nodes(struct findings *f, const struct topo *t,
		   const struct cpuset *cpus, const struct cpuset *want)
{
	struct cpuset on = CPUSET_INIT, out = CPUSET_INIT;
	int i;

	cpuset_for_each(i, want)
		if (topo_node_by_id(t, i) == NULL)
			finding(f, "error", "NUMA node %d does not exist", i);
	if (topo_cpus_of_nodes(t, want, &on) < 0)
		f->sb->oom = true;
	part(f, &out, cpus, &on, true);
	if (!cpuset_empty(&out))
		finding(f, "error", "%s %s %s outside NUMA node%s %s",
			cpus_word(&out), lst(f, 0, &out), is_are(&out),
			cpuset_count(want) == 1 ? "" : "s", lst(f, 1, want));
	cpuset_free(&on);
	cpuset_free(&out);
}

static int
by_size_desc(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The fewest nodes that could hold ncpu online CPUs; -ENOMEM. */
static int
nodes_needed(const struct topo *t, unsigned int ncpu)
{
	unsigned int *sizes = calloc((size_t)t->nnodes + 1, sizeof(*sizes));
	unsigned int sum = 0;
	int k, need = 0;

	if (sizes == NULL)
		return -ENOMEM;
	for (k = 0; k < t->nnodes; k++)
		sizes[k] = cpuset_count_and(&t->nodes[k].cpus, &t->online);
	qsort(sizes, (size_t)t->nnodes, sizeof(*sizes), by_size_desc);
	for (k = 0; k < t->nnodes && sum < ncpu; k++) {
		sum += sizes[k];
		need++;
	}
	free(sizes);
	return need;
}

static void
check_nodes(struct findings *f, const struct topo *t,
	    const struct cpuset *cpus, enum placement_policy pol)
{
	struct cpuset nodes = CPUSET_INIT;
	unsigned int ncpu = cpuset_count(cpus);
	int nnodes, need;

	if (topo_nodes_of(t, cpus, &nodes) < 0)
		f->sb->oom = true;
	nnodes = (int)cpuset_count(&nodes);
	need = nodes_needed(t, ncpu);
	if (need < 0)
		f->sb->oom = true;
	if (pol == PLACE_LOCAL && nnodes > 1)
		finding(f, "error", "CPUs span %d NUMA nodes (%s); local "
			"placement needs one", nnodes, lst(f, 0, &nodes));
	else if (pol == PLACE_COMPACT && nnodes > need && nnodes > 1)
		finding(f, "warning", "CPUs span %d NUMA nodes (%s) where %d "
			"would hold them; memory access will cross nodes",
			nnodes, lst(f, 0, &nodes), need);
	else if (pol == PLACE_SPREAD && nnodes == 1 && t->nnodes > 1 &&
		 ncpu > 1)
		finding(f, "warning", "all CPUs are on NUMA node %s; spread "
			"placement wants several nodes", lst(f, 0, &nodes));
	cpuset_free(&nodes);
}

/* Sockets and L3 groups, for the policies that keep CPUs together. */
static void
check_caches(struct findings *f, const struct topo *t,
	     const struct cpuset *cpus)
{
	struct cpuset socks = CPUSET_INIT, l3s = CPUSET_INIT;
	unsigned int ncpu = cpuset_count(cpus);
	bool fits = false;
	int cpu, i;

	cpuset_for_each(cpu, cpus) {
		if (cpu >= t->ncpus)
			continue;
		if ((t->cpus[cpu].socket >= 0 &&
		     cpuset_set(&socks, (unsigned int)t->cpus[cpu].socket) < 0) ||
		    (t->cpus[cpu].l3 >= 0 &&
		     cpuset_set(&l3s, (unsigned int)t->cpus[cpu].l3) < 0))
			f->sb->oom = true;
	}
	if (cpuset_count(&socks) > 1 && t->nsockets > 1) {
		for (i = 0; i < t->nsockets; i++)
			if (cpuset_count_and(&t->sockets[i].cpus, &t->online) >=
			    ncpu)
				fits = true;
		if (fits)
			finding(f, "warning", "CPUs span sockets %s where one "
				"would hold them", lst(f, 0, &socks));
	}
	fits = false;
	if (cpuset_count(&l3s) > 1) {
		for (i = 0; i < t->nl3; i++)
			if (cpuset_count(&t->l3s[i].cpus) >= ncpu)
				fits = true;
		if (fits)
			finding(f, "warning", "CPUs span %u L3 caches where one "
				"would hold them", cpuset_count(&l3s));
	}
	cpuset_free(&socks);
	cpuset_free(&l3s);
}

/* Half-used cores: an SMT sibling outside the list shares the core. */
static void
check_cores(struct findings *f, const struct topo *t,
	    const struct cpuset *cpus)
{
	struct cpuset seen = CPUSET_INIT, sib = CPUSET_INIT, tmp = CPUSET_INIT;
	int cpu;

	cpuset_for_each(cpu, cpus) {
		if (cpu >= t->ncpus || t->cpus[cpu].core < 0 ||
		    cpuset_isset(&seen, (unsigned int)t->cpus[cpu].core))
			continue;
		if (cpuset_set(&seen, (unsigned int)t->cpus[cpu].core) < 0 ||
		    topo_siblings(t, cpu, &sib) < 0) {
			f->sb->oom = true;
			break;
		}
		if (cpuset_subset(&sib, cpus))
			continue;
		part(f, &tmp, &sib, cpus, false);
		lst(f, 0, &tmp);
		part(f, &tmp, &sib, cpus, true);
		finding(f, "warning", "core %d is half used: CPU %s in the list "
			"shares it with sibling %s outside it",
			t->cpus[cpu].core, f->lists[0] ? f->lists[0] : "",
			lst(f, 1, &tmp));
	}
	cpuset_free(&seen);
	cpuset_free(&sib);
	cpuset_free(&tmp);
}

int
placement_check(const struct topo *t, const struct cpuset *cpus,
		const struct cpuset *nodes, enum placement_policy pol,
		struct strbuf *out)
{
	struct findings f = { out, 0, { NULL, NULL } };

	check_usable(&f, t, cpus);
	if (nodes)
		check_wanted_nodes(&f, t, cpus, nodes);
	check_nodes(&f, t, cpus, pol);
	if (pol != PLACE_SPREAD)
		check_caches(&f, t, cpus);
	check_cores(&f, t, cpus);
	free(f.lists[0]);
	free(f.lists[1]);
	return out->oom ? -ENOMEM : f.n;
}

/* Each device: the CPUs not local to it, and a note when it cannot say. */
static int
check_devices(const struct topo *t, const struct placement_query *q,
	      struct strbuf *out)
{
	int n = 0, r;
	size_t i;

	for (i = 0; i < q->ndevices; i++) {
		const struct device *d = &q->devices[i];

		if (d->node < 0)
			strbuf_printf(out, "note: the NUMA node of %s (%s) is "
				      "unknown (the firmware gives none): its "
				      "locality cannot be checked\n",
				      d->names ? d->names : d->addr, d->addr);
		r = device_check_cpus(d, t, q->cpus, out);
		if (r < 0)
			return r;
		n += r;
	}
	return out->oom ? -ENOMEM : n;
}

/* irq_check() with the devices' IRQs as owners. */
static int
check_irqs(const struct sysroot *root, const struct topo *t,
	   const struct placement_query *q, struct strbuf *out, char *err,
	   size_t errlen)
{
	struct irq_owner *own = NULL;
	struct cpuset *sets = NULL;
	size_t i;
	int r = 0;

	if (q->ndevices) {
		own = calloc(q->ndevices, sizeof(*own));
		sets = calloc(q->ndevices, sizeof(*sets));
		if (own == NULL || sets == NULL)
			r = -ENOMEM;
	}
	for (i = 0; r == 0 && i < q->ndevices; i++) {
		const struct device *d = &q->devices[i];

		cpuset_init(&sets[i]);
		own[i].name = d->names ? d->names : d->addr;
		own[i].irqs = &sets[i];
		/* A device with no interrupt owns none: irq_check says so. */
		if (device_irqs(root, d->addr, &sets[i]) == -ENOMEM)
			r = -ENOMEM;
	}
	if (r == 0)
		r = irq_check(root, q->cpus, own, q->ndevices, t->ncpus,
			      q->interval_us, out, err, errlen);
	for (i = 0; sets && i < q->ndevices; i++)
		cpuset_free(&sets[i]);
	free(sets);
	free(own);
	return r;
}

int
placement_report(const struct sysroot *root, const struct topo *t,
		 const struct coretypes *ct, const struct placement_query *q,
		 struct strbuf *out, char *err, size_t errlen)
{
	int n, r;

	n = placement_check(t, q->cpus, q->nodes, q->policy, out);
	if (n < 0)
		return n;
	r = coretype_check(ct, t, q->cpus, out);
	if (r < 0)
		return r;
	n += r;
	r = check_devices(t, q, out);
	if (r < 0)
		return r;
	n += r;
	if (q->irqs) {
		r = check_irqs(root, t, q, out, err, errlen);
		if (r < 0)
			return r;
		n += r;
	}
	return n;
}
