// SPDX-License-Identifier: GPL-2.0-or-later
/* Plans, parsed and checked: see plan.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc/plan.h"
#include "alloc/state.h"
#include "base/err.h"
#include "base/fileread.h"
#include "base/hash.h"
#include "base/path.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "kube/topomgr.h"
#include "machine/device.h"

#define KEYS "cpus, nodes, affinity, numa-policy, mem, mem-policy, mode, devices"

const char *
plan_affinity_name(enum plan_affinity a)
{
	static const char *const names[] = { "none", "compact", "spread",
					     "local" };

	return names[a];
}

const char *
plan_mem_policy_name(enum plan_mem_policy m)
{
	static const char *const names[] = { "none", "local", "interleave",
					     "bind" };

	return names[m];
}

static void
instance_free(struct plan_instance *in)
{
	int i;

	free(in->name);
	cpuset_free(&in->cpus);
	cpuset_free(&in->nodes);
	for (i = 0; i < in->ndevices; i++)
		free(in->devices[i]);
	free(in->devices);
}

/*
 * The names of a plan in an open-addressing hash table (FNV-1a, linear
 * probing), kept at most half full: a name is found, or found missing,
 * in about one comparison whatever the plan's size.
 */
struct plan_index {
	unsigned int mask;	/* slots - 1, a power of two less one */
	int *slot;		/* instance + 1; 0 empty */
	unsigned long compares;	/* strcmp() calls, for tests */
};

void
plan_free(struct plan *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		instance_free(&p->inst[i]);
	free(p->inst);
	if (p->index)
		free(p->index->slot);
	free(p->index);
	memset(p, 0, sizeof(*p));
}

static uint32_t
name_hash(const char *name)
{
	return fnv1a32(FNV32_INIT, name, strlen(name));
}

/* The slot of name in ix: the one holding it, or the empty one where it
 * would go. */
static unsigned int
index_slot(struct plan_index *ix, const struct plan *p, const char *name)
{
	unsigned int h = name_hash(name) & ix->mask;

	while (ix->slot[h]) {
		ix->compares++;
		if (strcmp(p->inst[ix->slot[h] - 1].name, name) == 0)
			break;
		h = (h + 1) & ix->mask;
	}
	return h;
}

/* Instance i (named) into p's index, grown to stay half empty.  0 or
 * -ENOMEM. */
static int
index_add(struct plan *p, int i)
{
	struct plan_index *ix = p->index;

	if (ix == NULL) {
		if ((ix = calloc(1, sizeof(*ix))) == NULL)
			return -ENOMEM;
		p->index = ix;
	}
	if (ix->slot == NULL || (unsigned int)(i + 1) * 2 > ix->mask + 1) {
		unsigned int size = ix->slot ? (ix->mask + 1) * 2 : 64;
		int *old = ix->slot, k;

		if ((ix->slot = calloc(size, sizeof(int))) == NULL) {
			ix->slot = old;
			return -ENOMEM;
		}
		ix->mask = size - 1;
		free(old);
		for (k = 0; k < i; k++)
			ix->slot[index_slot(ix, p, p->inst[k].name)] = k + 1;
	}
	ix->slot[index_slot(ix, p, p->inst[i].name)] = i + 1;
	return 0;
}

const struct plan_instance *
plan_find(const struct plan *p, const char *name)
{
	unsigned int h;
	int i;

	if (p->index == NULL || p->index->slot == NULL) {
		/* Not made by plan_parse(): a few, if any. */
		for (i = 0; i < p->n; i++)
			if (strcmp(p->inst[i].name, name) == 0)
				return &p->inst[i];
		return NULL;
	}
	h = index_slot(p->index, p, name);
	return p->index->slot[h] ? &p->inst[p->index->slot[h] - 1] : NULL;
}

unsigned long
plan_name_compares(const struct plan *p)
{
	return p->index ? p->index->compares : 0;
}

/*
 * Where a parse is, for its messages: "line N, column C: ...", and
 * whether they may quote the text.
 */
struct pctx {
	int ln;
	const char *line;	/* the line's first byte */
	bool quote;		/* PLAN_QUOTE */
	char *err;
	size_t errlen;
};

/* " 'word'" when the text may be quoted, else nothing: three %s. */
#define QW(c, w) (c)->quote ? " '" : "", (c)->quote ? (w) : "", \
		 (c)->quote ? "'" : ""

static int __attribute__((format(printf, 3, 4)))
bad(const struct pctx *c, const char *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->err == NULL || c->errlen == 0)
		return -EINVAL;
	n = snprintf(c->err, c->errlen, "line %d, column %d: ", c->ln,
		     (int)(at - c->line) + 1);
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/*
 * A list parser's reason ("'8-4': reversed range"), with the text it
 * quotes left out unless the plan may be quoted: ": reason" or "".
 */
static const char *
list_why(const struct pctx *c, const char *perr, char *buf, size_t size)
{
	const char *why = perr;

	if (*perr == '\0')
		return "";
	if (!c->quote && perr[0] == '\'') {
		const char *e = strstr(perr, "': ");

		why = e ? e + 3 : "";
	}
	if (*why == '\0')
		return "";
	snprintf(buf, size, ": %s", why);
	return buf;
}

/* devices=a,b,c: names kept as written, for whoever knows devices. */
static int
parse_devices(char *v, struct plan_instance *in)
{
	char *save = NULL, *d;

	if (*v == '\0' || *v == ',' || v[strlen(v) - 1] == ',' ||
	    strstr(v, ",,"))
		return -EINVAL;
	for (d = strtok_r(v, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		char **nd = realloc(in->devices, ((size_t)in->ndevices + 1) *
				    sizeof(*nd));

		if (nd == NULL)
			return -ENOMEM;
		in->devices = nd;
		if ((nd[in->ndevices] = strdup(d)) == NULL)
			return -ENOMEM;
		in->ndevices++;
	}
	return 0;
}

/*
 * One "key=value" of an instance (tok, in the line c is at).  Returns 0,
 * -EINVAL (err set) or -ENOMEM.
 */
static int
parse_field(char *tok, struct plan_instance *in, unsigned int *seen,
	    const struct pctx *c)
{
	static const char *const keys[] = { "cpus", "nodes", "affinity",
		"numa-policy", "mem", "mem-policy", "mode", "devices" };
	char *v = strchr(tok, '='), perr[160], why[200];
	unsigned int k, u;
	int r = 0;

	if (v == NULL)
		return c->quote ? bad(c, tok, "'%s' is not key=value", tok) :
		       bad(c, tok, "a word that is not key=value");
	*v++ = '\0';
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strcmp(tok, keys[k]) == 0)
			break;
	if (k == sizeof(keys) / sizeof(keys[0]))
		return bad(c, tok, "unknown key%s%s%s (" KEYS ")", QW(c, tok));
	if (*seen & (1u << k))
		return bad(c, tok, "%s= given twice", tok);
	*seen |= 1u << k;
	if (*v == '\0')
		return bad(c, tok, "%s= has no value", tok);
	switch (k) {
	case 0:		/* cpus */
		if (strspn(v, "0123456789") == strlen(v)) {
			if (parse_uint(v, CPUSET_MAX_CPUS, &u) < 0 || u == 0)
				return bad(c, v, "invalid CPU count%s%s%s (1 to "
					   "%d; a single CPU is written N-N)",
					   QW(c, v), CPUSET_MAX_CPUS);
			in->count = (int)u;
			return 0;
		}
		r = cpuset_parse_list(v, &in->cpus, perr, sizeof(perr));
		if (r == -ENOMEM)
			return r;
		if (r < 0 || cpuset_empty(&in->cpus))
			return bad(c, v, "invalid cpulist%s%s%s%s", QW(c, v),
				   r < 0 ? list_why(c, perr, why, sizeof(why)) :
				   "");
		in->exact = true;
		in->count = (int)cpuset_count(&in->cpus);
		return 0;
	case 1:		/* nodes */
		r = cpuset_parse_list(v, &in->nodes, perr, sizeof(perr));
		if (r == -ENOMEM)
			return r;
		if (r < 0 || cpuset_empty(&in->nodes))
			return bad(c, v, "invalid nodelist%s%s%s%s", QW(c, v),
				   r < 0 ? list_why(c, perr, why, sizeof(why)) :
				   "");
		in->have_nodes = true;
		return 0;
	case 2:		/* affinity */
		for (u = PLAN_AFF_COMPACT; u <= PLAN_AFF_LOCAL; u++)
			if (strcmp(v, plan_affinity_name(u)) == 0) {
				in->affinity = u;
				return 0;
			}
		return bad(c, v, "invalid affinity%s%s%s (compact, spread or "
			   "local)", QW(c, v));
	case 3:		/* numa-policy */
		if (tm_policy_parse(v, &in->numa_policy) < 0)
			return bad(c, v, "invalid numa-policy%s%s%s (none, "
				   "best-effort, restricted or single-numa-node)",
				   QW(c, v));
		return 0;
	case 4:		/* mem */
		if (parse_size_bytes(v, &in->mem) < 0 || in->mem == 0)
			return bad(c, v, "invalid memory size%s%s%s (such as "
				   "512M or 8G)", QW(c, v));
		in->have_mem = true;
		return 0;
	case 5:		/* mem-policy */
		for (u = PLAN_MEM_LOCAL; u <= PLAN_MEM_BIND; u++)
			if (strcmp(v, plan_mem_policy_name(u)) == 0) {
				in->mem_policy = u;
				return 0;
			}
		return bad(c, v, "invalid mem-policy%s%s%s (local, interleave "
			   "or bind)", QW(c, v));
	case 6:		/* mode */
		if (strcmp(v, "exclusive") == 0 || strcmp(v, "share") == 0) {
			in->share = v[0] == 's';
			return 0;
		}
		return bad(c, v, "invalid mode%s%s%s (exclusive or share)",
			   QW(c, v));
	default:	/* devices */
		r = parse_devices(v, in);
		if (r == -EINVAL)
			return bad(c, v, "invalid devices%s%s%s (names separated "
				   "by commas)", QW(c, v));
		return r;
	}
}

/* One line (NUL-terminated, changed in place); blank ones add nothing. */
static int
parse_line(char *line, const struct pctx *c, struct plan *p)
{
	const struct plan_instance *twin;
	struct plan_instance *in;
	char *save = NULL, *tok, *hash = strchr(line, '#');
	const char *name_at;
	unsigned int seen = 0;
	int r;

	if (hash)
		*hash = '\0';
	tok = strtok_r(line, " \t\r\v\f", &save);
	if (tok == NULL)
		return 0;
	name_at = tok;
	if (strchr(tok, '=') != NULL)
		return c->quote ?
		       bad(c, tok, "the line begins with '%s', not with the "
			   "instance's name", tok) :
		       bad(c, tok, "the line begins with a key=value, not with "
			   "the instance's name");
	if (!state_name_valid(tok))
		return bad(c, tok, "invalid name%s%s%s (use 1 to %d of A-Z a-z "
			   "0-9 . _ : / @ -)", QW(c, tok), STATE_NAME_MAX);
	if ((twin = plan_find(p, tok)) != NULL)
		return c->quote ?
		       bad(c, tok, "instance '%s' is named twice (first on line "
			   "%d)", tok, twin->line) :
		       bad(c, tok, "the instance's name is given twice (first on "
			   "line %d)", twin->line);
	if (p->n == p->cap) {
		int cap = p->cap ? p->cap * 2 : 16;
		struct plan_instance *ni = realloc(p->inst, (size_t)cap *
						   sizeof(*ni));

		if (ni == NULL)
			return -ENOMEM;
		p->inst = ni;
		p->cap = cap;
	}
	in = &p->inst[p->n];
	memset(in, 0, sizeof(*in));
	in->line = c->ln;
	in->numa_policy = -1;
	cpuset_init(&in->cpus);
	cpuset_init(&in->nodes);
	if ((in->name = strdup(tok)) == NULL)
		return -ENOMEM;
	p->n++;
	if (index_add(p, p->n - 1) < 0)
		return -ENOMEM;
	while ((tok = strtok_r(NULL, " \t\r\v\f", &save)) != NULL)
		if ((r = parse_field(tok, in, &seen, c)) < 0)
			return r;
	if (!(seen & 1))
		return c->quote ?
		       bad(c, name_at, "instance '%s' has no cpus= (a count "
			   "or a cpulist)", in->name) :
		       bad(c, name_at, "the instance has no cpus= (a count or "
			   "a cpulist)");
	return 0;
}

int
plan_parse(const char *text, size_t len, unsigned int flags, struct plan *p,
	   char *err, size_t errlen)
{
	const char *s = text, *end = text + len, *nul;
	struct pctx c = { .quote = flags & PLAN_QUOTE, .err = err,
			  .errlen = errlen };
	char *line = NULL;
	size_t cap = 0;
	int r = 0;

	memset(p, 0, sizeof(*p));
	if ((nul = memchr(text, '\0', len)) != NULL) {
		for (c.line = s = text; s < nul; s++)
			if (*s == '\n') {
				c.ln++;
				c.line = s + 1;
			}
		c.ln++;
		return bad(&c, nul, "a NUL byte");
	}
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		c.ln++;
		/* One buffer for every line: the longest decides its size. */
		if (n + 1 > cap) {
			char *nb = realloc(line, n + 1);

			if (nb == NULL) {
				r = -ENOMEM;
				break;
			}
			line = nb;
			cap = n + 1;
		}
		memcpy(line, s, n);
		line[n] = '\0';
		c.line = line;
		if ((r = parse_line(line, &c, p)) < 0)
			break;
		s += n + (nl != NULL);
	}
	free(line);
	if (r < 0)
		plan_free(p);
	return r;
}

/* ---- checking ---- */

static void __attribute__((format(printf, 4, 0)))
vfinding(struct plan_findings *out, bool error, const char *inst,
	 const char *fmt, va_list ap)
{
	struct plan_finding *nf;
	char *msg;
	int r;

	r = vasprintf(&msg, fmt, ap);
	if (r < 0) {
		out->oom = true;
		return;
	}
	nf = realloc(out->f, ((size_t)out->n + 1) * sizeof(*nf));
	if (nf == NULL) {
		out->oom = true;
		free(msg);
		return;
	}
	out->f = nf;
	nf[out->n].error = error;
	nf[out->n].message = msg;
	if ((nf[out->n].instance = strdup(inst)) == NULL)
		out->oom = true;
	out->n++;
	out->nerrors += error;
}

static void __attribute__((format(printf, 4, 5)))
finding(struct plan_findings *out, bool error, const char *inst,
	const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfinding(out, error, inst, fmt, ap);
	va_end(ap);
}

int
plan_finding_add(struct plan_findings *out, bool error, const char *inst,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfinding(out, error, inst, fmt, ap);
	va_end(ap);
	return out->oom ? -ENOMEM : 0;
}

/* Up to four cpulists kept for the current message. */
struct lists {
	char *s[4];
};

static const char *
lst(struct lists *l, int slot, const struct cpuset *s)
{
	free(l->s[slot]);
	l->s[slot] = cpuset_to_list(s);
	return l->s[slot] ? l->s[slot] : "?";
}

/* "CPU 5 is", "CPUs 5-6 are": a set as the subject of a message. */
#define CPUS_ARE "%s %s %s"
#define cpus_are(l, slot, s) \
	cpuset_count(s) == 1 ? "CPU" : "CPUs", lst(l, slot, s), \
	cpuset_count(s) == 1 ? "is" : "are"

/* Where an instance's CPUs and memory go, as far as the plan says. */
struct where {
	struct cpuset cpus;	/* exact: its CPUs on the machine */
	struct cpuset nodes;	/* the nodes it uses: its CPUs' (exact),
				 * else nodes= (existing ones), else none */
	bool cpuless;		/* a count on nodes without CPUs: said once */
};

/* The instance's own findings; w gets where it goes. */
static void
check_instance(const struct plan_instance *in, const struct topo *t,
	       const struct cpuset *reserved, struct where *w,
	       struct plan_findings *out, struct lists *l)
{
	struct cpuset tmp = CPUSET_INIT, on = CPUSET_INIT, cnodes = CPUSET_INIT;
	const char *name = in->name;
	unsigned int avail;
	bool fits = true;	/* a count its nodes can hold */
	int n, k;

	cpuset_for_each(n, &in->nodes)
		if (topo_node_by_id(t, n) == NULL)
			finding(out, true, name, "NUMA node %d does not exist", n);
	/* The nodes that exist, as the instance's memory and CPU nodes. */
	cpuset_for_each(n, &in->nodes)
		if (topo_node_by_id(t, n) != NULL)
			cpuset_set(&w->nodes, (unsigned int)n);
	topo_cpus_of_nodes(t, &w->nodes, &on);
	if (in->exact) {
		cpuset_copy(&tmp, &in->cpus);
		cpuset_andnot(&tmp, &t->possible);
		if (!cpuset_empty(&tmp))
			finding(out, true, name, "CPUs %s do not exist (the "
				"machine has %s)", lst(l, 0, &tmp),
				lst(l, 1, &t->possible));
		cpuset_copy(&w->cpus, &in->cpus);
		cpuset_and(&w->cpus, &t->possible);
		cpuset_copy(&tmp, &w->cpus);
		cpuset_and(&tmp, &t->offline);
		if (!cpuset_empty(&tmp))
			finding(out, true, name, CPUS_ARE " offline",
				cpus_are(l, 0, &tmp));
		/* As cpm-topo check warns of them. */
		cpuset_copy(&tmp, &w->cpus);
		cpuset_and(&tmp, &t->isolated);
		cpuset_andnot(&tmp, &t->offline);
		if (!cpuset_empty(&tmp))
			finding(out, false, name, CPUS_ARE " isolated "
				"(isolcpus): the scheduler will not balance "
				"work across them", cpus_are(l, 0, &tmp));
		if (reserved) {
			cpuset_copy(&tmp, &w->cpus);
			cpuset_and(&tmp, reserved);
			if (!cpuset_empty(&tmp))
				finding(out, true, name, CPUS_ARE " reserved "
					"for the host", cpus_are(l, 0, &tmp));
		}
		if (in->have_nodes && !cpuset_empty(&w->nodes)) {
			/* An offline CPU is a finding of its own: a node
			 * lists only its online CPUs. */
			cpuset_copy(&tmp, &w->cpus);
			cpuset_andnot(&tmp, &on);
			cpuset_andnot(&tmp, &t->offline);
			if (!cpuset_empty(&tmp))
				finding(out, true, name, CPUS_ARE " outside "
					"NUMA node%s %s", cpus_are(l, 0, &tmp),
					cpuset_count(&in->nodes) > 1 ? "s" : "",
					lst(l, 1, &in->nodes));
		}
		topo_nodes_of(t, &w->cpus, &cnodes);
		k = (int)cpuset_count(&cnodes);
		if (in->affinity == PLAN_AFF_LOCAL && k > 1)
			finding(out, true, name, "local affinity but CPUs %s "
				"span NUMA nodes %s", lst(l, 0, &w->cpus),
				lst(l, 1, &cnodes));
		else if (in->affinity == PLAN_AFF_COMPACT && k > 1)
			finding(out, false, name, "compact affinity but CPUs "
				"%s span NUMA nodes %s", lst(l, 0, &w->cpus),
				lst(l, 1, &cnodes));
		else if (in->affinity == PLAN_AFF_SPREAD && k == 1 &&
			 t->nnodes > 1 && in->count > 1)
			finding(out, false, name, "spread affinity but CPUs %s "
				"are all on node %d", lst(l, 0, &w->cpus),
				cpuset_first(&cnodes));
		if (in->numa_policy == TM_SINGLE_NUMA && k > 1)
			finding(out, true, name, "single-numa-node policy but "
				"CPUs %s span NUMA nodes %s", lst(l, 0, &w->cpus),
				lst(l, 1, &cnodes));
		/* Memory follows the CPUs when no nodes are named. */
		if (!in->have_nodes)
			cpuset_copy(&w->nodes, &cnodes);
	} else {
		/* A count: what its nodes (or the machine) can give. */
		if (!in->have_nodes)
			cpuset_copy(&on, &t->online);
		cpuset_and(&on, &t->online);
		if (reserved)
			cpuset_andnot(&on, reserved);
		avail = cpuset_count(&on);
		cpuset_copy(&tmp, &on);
		if (reserved)
			cpuset_and(&tmp, reserved);
		if (in->have_nodes && !cpuset_empty(&w->nodes) && avail == 0 &&
		    cpuset_empty(&tmp)) {
			/* Memory without CPUs (CXL, HBM): nothing reserved
			 * there, nothing to give. */
			fits = false;
			w->cpuless = true;
			finding(out, true, name, "%d CPU%s asked for, but NUMA "
				"node%s %s %s no CPUs", in->count,
				in->count == 1 ? "" : "s",
				cpuset_count(&w->nodes) > 1 ? "s" : "",
				lst(l, 0, &w->nodes),
				cpuset_count(&w->nodes) > 1 ? "have" : "has");
		} else if (cpuset_empty(&in->nodes) ||
			   !cpuset_empty(&w->nodes)) {
			bool some = reserved && !cpuset_empty(reserved);
			bool many = cpuset_count(&w->nodes) > 1;

			fits = (unsigned int)in->count <= avail;
			if (!fits)
				finding(out, true, name, "%d CPUs asked for, but "
					"%s%s %s only %u%s", in->count,
					!in->have_nodes ? "the machine" :
					many ? "NUMA nodes " : "NUMA node ",
					in->have_nodes ? lst(l, 0, &w->nodes) : "",
					in->have_nodes && many ? "have" : "has",
					avail,
					some ? " outside the reserved ones" : "");
		}
		k = (int)cpuset_count(&w->nodes);
		if (in->affinity == PLAN_AFF_LOCAL && k > 1)
			finding(out, true, name, "local affinity but nodes=%s "
				"names %d NUMA nodes", lst(l, 0, &in->nodes), k);
		else if (in->affinity == PLAN_AFF_COMPACT && k > 1)
			finding(out, false, name, "compact affinity but nodes=%s "
				"names %d NUMA nodes", lst(l, 0, &in->nodes), k);
		else if (in->affinity == PLAN_AFF_SPREAD && in->have_nodes &&
			 k == 1 && t->nnodes > 1 && in->count > 1)
			finding(out, false, name, "spread affinity but nodes=%s "
				"is one NUMA node", lst(l, 0, &in->nodes));
		if ((in->numa_policy == TM_SINGLE_NUMA ||
		     in->affinity == PLAN_AFF_LOCAL)) {
			unsigned int most = 0, c;

			for (k = 0; k < t->nnodes; k++) {
				if (in->have_nodes &&
				    !cpuset_isset(&w->nodes,
						  (unsigned int)t->nodes[k].id))
					continue;
				cpuset_copy(&tmp, &t->nodes[k].cpus);
				cpuset_and(&tmp, &t->online);
				if (reserved)
					cpuset_andnot(&tmp, reserved);
				if ((c = cpuset_count(&tmp)) > most)
					most = c;
			}
			if ((unsigned int)in->count > most && most > 0 && fits)
				finding(out, true, name, "%d CPUs do not fit in "
					"one NUMA node (the largest has %u "
					"outside the reserved ones)",
					in->count, most);
		}
	}
	/* Memory. */
	if (in->mem_policy == PLAN_MEM_LOCAL && in->exact && in->have_nodes) {
		cpuset_copy(&tmp, &w->nodes);
		cpuset_andnot(&tmp, &cnodes);
		if (!cpuset_empty(&tmp))
			finding(out, true, name, "local memory on NUMA node%s "
				"%s, where none of its CPUs are: the memory is "
				"remote", cpuset_count(&tmp) > 1 ? "s" : "",
				lst(l, 0, &tmp));
	}
	if (in->mem_policy == PLAN_MEM_INTERLEAVE &&
	    cpuset_count(&w->nodes) == 1 && t->nnodes > 1)
		finding(out, false, name, "interleave memory policy over one "
			"NUMA node (%s)", lst(l, 0, &w->nodes));
	cpuset_free(&tmp);
	cpuset_free(&on);
	cpuset_free(&cnodes);
}

void
plan_devices_free(struct plan_devices *d)
{
	int i, k;

	for (i = 0; i < d->n && d->inst; i++) {
		for (k = 0; k < d->inst[i].n; k++)
			free(d->inst[i].names[k]);
		free(d->inst[i].names);
		free(d->inst[i].nodes);
		free(d->inst[i].record);
	}
	free(d->inst);
	memset(d, 0, sizeof(*d));
}

/* One instance's devices, looked up. */
static int
find_devices(const struct plan_instance *in, const struct sysroot *root,
	     struct plan_inst_devices *pd, char *err, size_t errlen)
{
	struct strbuf rec;
	char why[512];
	int k, r = 0;

	if (in->ndevices == 0)
		return 0;
	pd->names = calloc((size_t)in->ndevices, sizeof(*pd->names));
	pd->nodes = calloc((size_t)in->ndevices, sizeof(*pd->nodes));
	if (!pd->names || !pd->nodes)
		return -ENOMEM;
	strbuf_init(&rec);
	for (k = 0; k < in->ndevices && r == 0; k++) {
		struct device dev;

		r = device_find(&dev, root, in->devices[k], why, sizeof(why));
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			r = err_ret(err, errlen, -EINVAL, "%s: %s", in->name,
				    why);
			break;
		}
		pd->nodes[k] = dev.node;
		strbuf_printf(&rec, "%s%s@%s", k ? "," : "", in->devices[k],
			      dev.addr);
		device_free(&dev);
		if ((pd->names[k] = strdup(in->devices[k])) == NULL)
			r = -ENOMEM;
		pd->n = k + 1;
	}
	if (r == 0 && rec.oom)
		r = -ENOMEM;
	if (r == 0)
		pd->record = rec.buf;
	else
		strbuf_free(&rec);
	return r;
}

int
plan_devices_find(const struct plan *p, const struct sysroot *root,
		  struct plan_devices *d, char *err, size_t errlen)
{
	int i, r = 0;

	memset(d, 0, sizeof(*d));
	d->inst = calloc((size_t)p->n + 1, sizeof(*d->inst));
	if (d->inst == NULL)
		return -ENOMEM;
	d->n = p->n;
	for (i = 0; i < p->n && r == 0; i++)
		r = find_devices(&p->inst[i], root, &d->inst[i], err, errlen);
	if (r < 0)
		plan_devices_free(d);
	return r;
}

/*
 * Devices: each on a node of the instance (its CPUs' for a cpulist, its
 * nodes= for a count), or a warning; a device whose node is unknown
 * gives no preference, as to the kubelet's device manager.
 */
static void
check_devices(const struct plan_instance *in,
	      const struct plan_inst_devices *pd, const struct where *w,
	      struct plan_findings *out, struct lists *l)
{
	int k;

	if (pd == NULL)
		return;
	for (k = 0; k < pd->n; k++) {
		int node = pd->nodes[k];

		if (node < 0)
			finding(out, false, in->name, "device %s has no NUMA "
				"node: it gives no placement hint", pd->names[k]);
		else if ((in->exact || in->have_nodes) &&
			 !cpuset_isset(&w->nodes, (unsigned int)node))
			finding(out, false, in->name, "device %s is on NUMA "
				"node %d, %s %s", pd->names[k], node,
				in->exact ? "not beside its CPUs, on" :
				"outside its nodes", lst(l, 0, &w->nodes));
	}
}

/* "a, b and c" of the instances in idx[n], into sb. */
static void
names_of(const struct plan *p, const int *idx, int n, struct strbuf *sb)
{
	int i;

	sb->len = 0;
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_puts(sb, i == n - 1 ? " and " : ", ");
		strbuf_puts(sb, p->inst[idx[i]].name);
	}
	strbuf_add(sb, "", 0);
}

/* "64 GiB", "1.5 GiB", "512 MiB": for messages. */
static void
size_text(uint64_t bytes, char *buf, size_t size)
{
	if (bytes >= (1ULL << 30) && bytes % (1ULL << 30) == 0)
		snprintf(buf, size, "%llu GiB", (unsigned long long)(bytes >> 30));
	else if (bytes >= (1ULL << 30))
		snprintf(buf, size, "%.1f GiB", (double)bytes / (1ULL << 30));
	else
		snprintf(buf, size, "%llu MiB", (unsigned long long)(bytes >> 20));
}

/* CPUs and memory asked of each node, and of the machine. */
static void
check_crowding(const struct plan *p, const struct topo *t,
	       const struct cpuset *reserved, const struct where *w,
	       struct plan_findings *out, struct lists *l)
{
	struct cpuset tmp = CPUSET_INIT;
	struct strbuf sb;
	int *idx = calloc((size_t)p->n + 1, sizeof(int));
	int k, i, nidx, total = 0, ntotal = 0, over = -1;
	unsigned int have;

	strbuf_init(&sb);
	if (idx == NULL) {
		out->oom = true;
		return;
	}
	for (k = 0; k < t->nnodes; k++) {
		const struct topo_node *nd = &t->nodes[k];
		uint64_t mem = 0;
		int cpus = 0, cpu_over = -1, mem_over = -1, nm = 0;
		int *midx = idx;

		cpuset_copy(&tmp, &nd->cpus);
		cpuset_and(&tmp, &t->online);
		if (reserved)
			cpuset_andnot(&tmp, reserved);
		have = cpuset_count(&tmp);
		nidx = 0;
		for (i = 0; i < p->n; i++) {
			const struct plan_instance *in = &p->inst[i];
			bool on = cpuset_isset(&w[i].nodes, (unsigned int)nd->id);
			int mine = 0;

			if (!on)
				continue;
			if (w[i].cpuless) {
				/* Said already: it has no CPUs to crowd. */
			} else if (in->exact) {
				cpuset_copy(&tmp, &w[i].cpus);
				cpuset_and(&tmp, &nd->cpus);
				if (reserved)
					cpuset_andnot(&tmp, reserved);
				mine = (int)cpuset_count(&tmp);
			} else if (cpuset_count(&w[i].nodes) == 1 && !in->share) {
				mine = in->count;
			}
			if (in->share && in->exact)
				mine = 0;
			if (mine > 0) {
				idx[nidx++] = i;
				cpus += mine;
				if (cpus > (int)have && cpu_over < 0)
					cpu_over = i;
			}
			if (in->have_mem) {
				mem += in->mem / cpuset_count(&w[i].nodes);
				nm++;
				if (nd->mem_total_kb >= 0 &&
				    mem > (uint64_t)nd->mem_total_kb * 1024 &&
				    mem_over < 0)
					mem_over = i;
			}
		}
		if (cpu_over >= 0) {
			names_of(p, idx, nidx, &sb);
			finding(out, true, p->inst[cpu_over].name, "NUMA node %d "
				"is crowded: %s ask%s for %d of its CPUs, it has "
				"%u%s", nd->id, sb.buf ? sb.buf : "",
				nidx == 1 ? "s" : "", cpus, have,
				reserved && !cpuset_empty(reserved) ?
				" outside the reserved ones" : "");
		}
		if (mem_over >= 0) {
			nidx = 0;
			for (i = 0; i < p->n; i++)
				if (p->inst[i].have_mem &&
				    cpuset_isset(&w[i].nodes, (unsigned int)nd->id))
					midx[nidx++] = i;
			names_of(p, midx, nidx, &sb);
			char want[32], has[32];

			size_text(mem, want, sizeof(want));
			size_text((uint64_t)nd->mem_total_kb << 10, has,
				  sizeof(has));
			finding(out, true, p->inst[mem_over].name, "NUMA node %d "
				"is crowded: %s ask for %s of its memory, it has %s",
				nd->id, sb.buf ? sb.buf : "", want, has);
		}
		(void)nm;
	}
	/* The machine as a whole: every exclusive CPU asked for. */
	cpuset_copy(&tmp, &t->online);
	if (reserved)
		cpuset_andnot(&tmp, reserved);
	have = cpuset_count(&tmp);
	cpuset_zero(&tmp);
	for (i = 0; i < p->n; i++) {
		if (p->inst[i].share)
			continue;
		if (p->inst[i].exact) {
			/* Reserved CPUs are a finding of their own. */
			cpuset_copy(&tmp, &w[i].cpus);
			if (reserved)
				cpuset_andnot(&tmp, reserved);
			total += (int)cpuset_count(&tmp);
		} else {
			total += p->inst[i].count;
		}
		ntotal++;
		if (total > (int)have && over < 0)
			over = i;
	}
	if (over >= 0)
		finding(out, true, p->inst[over].name, "the instances ask for %d "
			"CPUs, the machine has %u%s%s", total, have,
			reserved ? " outside the reserved CPUs " : "",
			reserved ? lst(l, 0, reserved) : "");
	cpuset_free(&tmp);
	strbuf_free(&sb);
	free(idx);
}

int
plan_check(const struct plan *p, const struct topo *t,
	   const struct cpuset *reserved, const struct plan_devices *d,
	   struct plan_findings *out)
{
	struct where *w = calloc((size_t)p->n + 1, sizeof(*w));
	struct cpuset tmp = CPUSET_INIT;
	struct lists l = { { NULL } };
	int i, j, before = out->n;

	if (w == NULL)
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		check_instance(&p->inst[i], t, reserved, &w[i], out, &l);
		check_devices(&p->inst[i], d ? &d->inst[i] : NULL, &w[i], out,
			      &l);
		/* Overlaps with the instances before it. */
		for (j = 0; j < i && p->inst[i].exact; j++) {
			if (!p->inst[j].exact ||
			    (p->inst[i].share && p->inst[j].share))
				continue;
			cpuset_copy(&tmp, &w[i].cpus);
			cpuset_and(&tmp, &w[j].cpus);
			if (!cpuset_empty(&tmp))
				finding(out, true, p->inst[i].name, "CPUs %s are "
					"also %s's", lst(&l, 0, &tmp),
					p->inst[j].name);
		}
	}
	check_crowding(p, t, reserved, w, out, &l);
	for (i = 0; i < p->n; i++) {
		cpuset_free(&w[i].cpus);
		cpuset_free(&w[i].nodes);
	}
	for (i = 0; i < 4; i++)
		free(l.s[i]);
	cpuset_free(&tmp);
	free(w);
	return out->oom ? -ENOMEM : out->n - before;
}

void
plan_findings_free(struct plan_findings *f)
{
	int i;

	for (i = 0; i < f->n; i++) {
		free(f->f[i].instance);
		free(f->f[i].message);
	}
	free(f->f);
	memset(f, 0, sizeof(*f));
}

void
plan_findings_text(const struct plan_findings *f, struct strbuf *sb)
{
	int i;

	for (i = 0; i < f->n; i++)
		strbuf_printf(sb, "%s: %s: %s\n", f->f[i].error ? "error" :
			      "warning", f->f[i].instance ? f->f[i].instance : "",
			      f->f[i].message);
}

void
plan_findings_json(const struct plan_findings *f, struct json *j)
{
	int i;

	json_key(j, "findings");
	json_arr_begin(j);
	for (i = 0; i < f->n; i++) {
		json_obj_begin(j);
		json_key(j, "level");
		json_str(j, f->f[i].error ? "error" : "warning");
		json_key(j, "instance");
		json_str(j, f->f[i].instance);
		json_key(j, "message");
		json_str(j, f->f[i].message);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "errors");
	json_int(j, f->nerrors);
	json_key(j, "warnings");
	json_int(j, f->n - f->nerrors);
}

/*
 * Open the plan file path as plan_read() says; its fd, with *st, or
 * -errno with err set.
 */
static int
open_plan(const char *path, unsigned int flags, struct stat *st, char *err,
	  size_t errlen)
{
	const int how = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
	const char *base;
	int dfd, fd, r;

	dfd = open_parent_at(AT_FDCWD, path, DIR_PATH, 0, &base);
	if (dfd < 0)
		return err_ret(err, errlen, dfd == -ELOOP ? -EFTYPE_CPM : dfd,
			       "cannot read plan '%s': %s", path, dfd == -ELOOP ?
			       "a symbolic link on the way that another user "
			       "could have planted" : strerror(-dfd));
	if (*base == '\0')
		base = ".";
	fd = openat(dfd, base, how | O_NOFOLLOW);
	r = fd < 0 ? -errno : 0;
	if (r == -ELOOP && path_link_trusted(dfd, base)) {
		fd = openat(dfd, base, how);
		r = fd < 0 ? -errno : 0;
	}
	if (r == -ENXIO)	/* a socket, a FIFO with no writer */
		r = -EFTYPE_CPM;
	close(dfd);
	if (r == -ELOOP)
		return err_ret(err, errlen, -EFTYPE_CPM, "cannot read plan '%s': "
			       "a symbolic link another user could have planted",
			       path);
	if (r < 0)
		return err_ret(err, errlen, r, "cannot read plan '%s': %s", path,
			       read_strerror(r));
	if (fstat(fd, st) < 0)
		r = -errno;
	else if (S_ISDIR(st->st_mode))
		r = -EISDIR;
	else if (!S_ISREG(st->st_mode))
		r = -EFTYPE_CPM;
	if (r < 0) {
		close(fd);
		return err_ret(err, errlen, r, "cannot read plan '%s': %s", path,
			       read_strerror(r));
	}
	if ((flags & PLAN_OWN) && st->st_uid != 0 && st->st_uid != geteuid())
		r = err_ret(err, errlen, -EFTYPE_CPM, "plan '%s' is not trusted: "
			    "it is owned by another user (uid %u)", path,
			    (unsigned int)st->st_uid);
	else if ((flags & PLAN_OWN) &&
		 ((st->st_mode & S_IWOTH) ||
		  ((st->st_mode & S_IWGRP) && st->st_gid != 0 &&
		   st->st_gid != getegid())))
		r = err_ret(err, errlen, -EFTYPE_CPM, "plan '%s' is not trusted: "
			    "other users may write it", path);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int
plan_read(const char *path, unsigned int flags, struct plan *p, char *err,
	  size_t errlen)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	int r, fd;

	memset(p, 0, sizeof(*p));
	if (strcmp(path, "-") == 0) {
		/* Standard input, whatever it is (a pipe from a template):
		 * the caller's own, which its errors may quote. */
		for (;;) {
			ssize_t n;

			if (len + 4096 > cap) {
				char *nt;

				if (cap >= READ_FILE_MAX) {
					free(text);
					return err_ret(err, errlen, -EFBIG, "the "
						       "plan on standard input is "
						       "too long");
				}
				cap = cap ? cap * 2 : 8192;
				if ((nt = realloc(text, cap)) == NULL) {
					free(text);
					return -ENOMEM;
				}
				text = nt;
			}
			n = read(0, text + len, cap - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				r = -errno;
				free(text);
				return err_ret(err, errlen, r, "cannot read the "
					       "plan on standard input: %s",
					       strerror(-r));
			}
			if (n == 0)
				break;
			len += (size_t)n;
		}
		flags |= PLAN_QUOTE;
	} else {
		fd = open_plan(path, flags, &st, err, errlen);
		if (fd < 0)
			return fd;
		r = read_fd(fd, &st, NULL, &text, &len);
		close(fd);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			return err_ret(err, errlen, r, "cannot read plan '%s': %s",
				       path, read_strerror(r));
		/* A file's text is never quoted: it may be one the caller
		 * could not read (plan.h). */
		flags &= ~PLAN_QUOTE;
	}
	r = plan_parse(text ? text : "", len, flags & PLAN_QUOTE, p, err,
		       errlen);
	free(text);
	return r;
}
