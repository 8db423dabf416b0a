// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/strutils.h"
#include "machine/memtier.h"
#include "machine/proc.h"
#include "pin/numamaps.h"

#define MIN_JUDGED_KB 1024

void
numa_pages_init(struct numa_pages *np)
{
	memset(np, 0, sizeof(*np));
}

void
numa_pages_free(struct numa_pages *np)
{
	free(np->kb);
	free(np->anon_kb);
	memset(np, 0, sizeof(*np));
}

static int
add_kb(struct numa_pages *np, unsigned long node, uint64_t kb, bool anon)
{
	if (node >= CPUSET_MAX_CPUS)
		return 0;
	if ((int)node >= np->n) {
		int n = (int)node + 1;
		uint64_t *p = realloc(np->kb, (size_t)n * sizeof(*p));

		if (p == NULL)
			return -ENOMEM;
		np->kb = p;
		p = realloc(np->anon_kb, (size_t)n * sizeof(*p));
		if (p == NULL)
			return -ENOMEM;
		np->anon_kb = p;
		memset(np->kb + np->n, 0, (size_t)(n - np->n) * sizeof(*p));
		memset(np->anon_kb + np->n, 0, (size_t)(n - np->n) * sizeof(*p));
		np->n = n;
	}
	np->kb[node] += kb;
	np->total_kb += kb;
	if (anon) {
		np->anon_kb[node] += kb;
		np->anon_total_kb += kb;
	}
	return 0;
}

/* The "N<node>=<count>" fields of one line, each times mul/div. */
static int
add_line(struct numa_pages *np, const char *line, const char *end,
	 uint64_t mul, uint64_t div, bool anon)
{
	const char *p;

	for (p = line; p < end && (p = memchr(p, 'N', (size_t)(end - p)));
	     p++) {
		char *e;
		unsigned long node;
		unsigned long long v;

		if ((p != line && p[-1] != ' ') || p[1] < '0' || p[1] > '9')
			continue;
		node = strtoul(p + 1, &e, 10);
		if (*e != '=' || e[1] < '0' || e[1] > '9')
			continue;
		v = strtoull(e + 1, &e, 10);
		if (add_kb(np, node, v * mul / div, anon) < 0)
			return -ENOMEM;
	}
	return 0;
}

int
numamaps_parse_line(const char *line, size_t len, struct numa_pages *np)
{
	const char *end = line + len, *ps;
	uint64_t page_kb = 4;

	np->anon_known = true;
	/* Searched within the line alone: a mapping with no pages has no
	 * kernelpagesize_kB, and a search past its end would read on
	 * through every such line after it. */
	ps = memmem(line, len, "kernelpagesize_kB=", 18);
	if (ps)
		page_kb = strtoull(ps + 18, NULL, 10);
	return add_line(np, line, end, page_kb, 1,
			memmem(line, len, " file=", 6) == NULL);
}

int
numamaps_parse(const char *text, struct numa_pages *np)
{
	const char *line = text, *end;
	size_t left = strlen(text);
	int r;

	while (left > 0) {
		end = memchr(line, '\n', left);
		if (end == NULL)
			end = line + left;
		if ((r = numamaps_parse_line(line, (size_t)(end - line), np)) < 0)
			return r;
		left -= (size_t)(end - line) + (*end == '\n');
		line = *end == '\n' ? end + 1 : end;
	}
	return 0;
}

static int
numamaps_line(void *arg, char *line, size_t len)
{
	return numamaps_parse_line(line, len, arg);
}

int
numamaps_read_pid(const struct sysroot *r, pid_t pid, struct numa_pages *np)
{
	char path[64];
	int ret;

	proc_path(path, sizeof(path), pid, "numa_maps");
	ret = sysroot_read_lines(r, path, numamaps_line, np);
	return ret == -ENOENT ? -ESRCH : ret;
}

int
numastat_parse(const char *text, int version, unsigned int page_kb,
	       struct numa_pages *np)
{
	const char *line = text;
	bool found = false;

	while (*line) {
		const char *end = strchr(line, '\n');

		if (end == NULL)
			end = line + strlen(line);
		if (version == 2 && (startswith(line, "anon ") ||
				     startswith(line, "file "))) {
			found = true;
			if (add_line(np, line, end, 1, 1024, false) < 0)
				return -ENOMEM;
		} else if (version == 1 && startswith(line, "total=")) {
			found = true;
			if (add_line(np, line, end, page_kb, 1, false) < 0)
				return -ENOMEM;
		}
		line = *end ? end + 1 : end;
	}
	return found ? 0 : -EINVAL;
}

static double
pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void
put_mib(struct strbuf *sb, uint64_t kb)
{
	strbuf_printf(sb, "%.1f MiB", (double)kb / 1024.0);
}

void
numa_pages_format(const struct numa_pages *np, struct strbuf *sb)
{
	bool any = false;
	int i;

	for (i = 0; i < np->n; i++) {
		if (np->kb[i] == 0)
			continue;
		strbuf_printf(sb, "%snode %d ", any ? ", " : "", i);
		put_mib(sb, np->kb[i]);
		strbuf_printf(sb, " (%.0f%%)", pct(np->kb[i], np->total_kb));
		any = true;
	}
	if (!any)
		strbuf_puts(sb, "none");
}

void
numa_pages_json(const struct numa_pages *np, struct json *j)
{
	int i;

	json_obj_begin(j);
	json_key(j, "total_kb");
	json_uint(j, np->total_kb);
	json_key(j, "nodes");
	json_arr_begin(j);
	for (i = 0; i < np->n; i++) {
		if (np->kb[i] == 0)
			continue;
		json_obj_begin(j);
		json_key(j, "node");
		json_int(j, i);
		json_key(j, "kb");
		json_uint(j, np->kb[i]);
		json_key(j, "percent");
		json_double(j, pct(np->kb[i], np->total_kb), 1);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* kB on the nodes of s, and the set of the others that hold any. */
static uint64_t
kb_on(const struct numa_pages *np, const struct cpuset *s,
      struct cpuset *others)
{
	uint64_t kb = 0;
	int i;

	if (others)
		cpuset_zero(others);
	for (i = 0; i < np->n; i++) {
		if (cpuset_isset(s, (unsigned int)i))
			kb += np->kb[i];
		else if (np->kb[i] && others)
			(void)cpuset_set(others, (unsigned int)i);
	}
	return kb;
}

static void
finding(struct strbuf *sb, struct json *j, const char *kind,
	const struct strbuf *msg, uint64_t kb, double percent)
{
	strbuf_printf(sb, "warning: %s\n", msg->buf ? msg->buf : "");
	if (j == NULL)
		return;
	json_obj_begin(j);
	json_key(j, "kind");
	json_str(j, kind);
	json_key(j, "message");
	json_str(j, msg->buf ? msg->buf : "");
	json_key(j, "kb");
	json_uint(j, kb);
	json_key(j, "percent");
	json_double(j, percent, 1);
	json_obj_end(j);
}

static void
put_list(struct strbuf *sb, const char *one, const char *many,
	 const struct cpuset *s)
{
	strbuf_puts(sb, cpuset_count(s) == 1 ? one : many);
	cpuset_format(s, sb);
}

/*
 * The nodes whose CPUs are nearest to the CPU-less node nd: its HMAT
 * initiators (access0: any initiator, else access1: CPUs), else the
 * nodes with CPUs at the smallest SLIT distance from it.
 */
static void
initiators_of(const struct topo *t, const struct memtier *mt,
	      const struct topo_node *nd, struct cpuset *out)
{
	const struct mem_node *mn = mt ? memtier_node(mt, nd->id) : NULL;
	int k, best = -1;

	cpuset_zero(out);
	for (k = 0; mn && k < 2; k++)
		if (mn->access[k].known &&
		    !cpuset_empty(&mn->access[k].initiators)) {
			cpuset_copy(out, &mn->access[k].initiators);
			return;
		}
	if (nd->distance == NULL)
		return;
	for (k = 0; k < t->nnodes; k++)
		if (!cpuset_empty(&t->nodes[k].cpus) &&
		    (best < 0 || nd->distance[k] < best))
			best = nd->distance[k];
	for (k = 0; k < t->nnodes; k++)
		if (!cpuset_empty(&t->nodes[k].cpus) && nd->distance[k] == best)
			(void)cpuset_set(out, (unsigned int)t->nodes[k].id);
}

/*
 * The nodes whose memory is near a process on the nodes cn: cn, and each
 * CPU-less node its policy names (bind, preferred, preferred-many,
 * interleave, weighted interleave) whose nearest initiator is one of cn:
 * memory placed there on purpose, a tier below the process's own node.
 */
static void
near_nodes(const struct topo *t, const struct memtier *mt,
	   const struct cpuset *cn, const struct numa_policy *pol,
	   struct cpuset *near)
{
	struct cpuset ini = CPUSET_INIT;
	int m;

	cpuset_copy(near, cn);
	if (pol == NULL || pol->nodes == NULL ||
	    (pol->mode != PIN_MEM_BIND && pol->mode != PIN_MEM_PREFERRED &&
	     pol->mode != PIN_MEM_PREFERRED_MANY &&
	     pol->mode != PIN_MEM_INTERLEAVE && pol->mode != PIN_MEM_WEIGHTED))
		return;
	cpuset_for_each(m, pol->nodes) {
		const struct topo_node *nd = topo_node_by_id(t, m);

		if (nd == NULL || !cpuset_empty(&nd->cpus))
			continue;
		initiators_of(t, mt, nd, &ini);
		if (cpuset_intersects(&ini, cn))
			(void)cpuset_set(near, (unsigned int)m);
	}
	cpuset_free(&ini);
}

int
numamaps_findings(const struct topo *t, const struct memtier *mt,
		  const struct numa_pages *np, const struct cpuset *cpus,
		  const struct numa_policy *pol, const char *whose,
		  struct strbuf *sb, struct json *j)
{
	struct cpuset cn = CPUSET_INIT, others = CPUSET_INIT, near = CPUSET_INIT;
	const uint64_t *placed = np->anon_known ? np->anon_kb : np->kb;
	uint64_t placed_kb = np->anon_known ? np->anon_total_kb : np->total_kb;
	struct numa_pages own = *np;
	struct strbuf msg;
	uint64_t local, remote;
	int count = 0, i;
	bool far = false;

	if (np->total_kb < MIN_JUDGED_KB)
		return 0;
	/* What the policy places: the process's own data, where known. */
	own.kb = (uint64_t *)placed;
	own.total_kb = placed_kb;
	strbuf_init(&msg);
	if (cpus && topo_nodes_of(t, cpus, &cn) == 0 && !cpuset_empty(&cn)) {
		near_nodes(t, mt, &cn, pol, &near);
		remote = np->total_kb - kb_on(np, &near, &others);
		if (remote * 2 > np->total_kb) {
			msg.len = 0;
			strbuf_printf(&msg, "%s runs on CPUs ", whose);
			cpuset_format(cpus, &msg);
			put_list(&msg, " (node ", " (nodes ", &cn);
			strbuf_puts(&msg, ") but ");
			put_mib(&msg, remote);
			strbuf_printf(&msg, " of its %.1f MiB (%.0f%%) is on ",
				      (double)np->total_kb / 1024.0,
				      pct(remote, np->total_kb));
			put_list(&msg, "node ", "nodes ", &others);
			finding(sb, j, "far", &msg, remote,
				pct(remote, np->total_kb));
			count++;
			far = true;
		}
		local = kb_on(np, &cn, &others);
		remote = np->total_kb - local;
		if (!far && pol && (pol->mode == PIN_MEM_LOCAL ||
				    pol->mode == PIN_MEM_DEFAULT) &&
		    remote * 10 >= np->total_kb) {
			msg.len = 0;
			strbuf_printf(&msg, "%s has a %s policy but ", whose,
				      pin_mem_name(pol->mode));
			put_mib(&msg, remote);
			strbuf_printf(&msg, " (%.0f%%) of its memory is on ",
				      pct(remote, np->total_kb));
			put_list(&msg, "node ", "nodes ", &others);
			put_list(&msg, ", not on its CPUs' node ",
				 ", not on its CPUs' nodes ", &cn);
			finding(sb, j, "remote", &msg, remote,
				pct(remote, np->total_kb));
			count++;
		}
	}
	if (pol && pol->nodes && !cpuset_empty(pol->nodes) &&
	    (pol->mode == PIN_MEM_BIND || pol->mode == PIN_MEM_INTERLEAVE ||
	     pol->mode == PIN_MEM_WEIGHTED)) {
		uint64_t in = kb_on(&own, pol->nodes, &others);

		if (in < own.total_kb) {
			msg.len = 0;
			strbuf_printf(&msg, "%s: ", whose);
			put_mib(&msg, own.total_kb - in);
			strbuf_printf(&msg, " (%.0f%%) is on ",
				      pct(own.total_kb - in, own.total_kb));
			put_list(&msg, "node ", "nodes ", &others);
			strbuf_printf(&msg, ", outside the %s policy's ",
				      pin_mem_name(pol->mode));
			put_list(&msg, "node ", "nodes ", pol->nodes);
			finding(sb, j, "outside", &msg, own.total_kb - in,
				pct(own.total_kb - in, own.total_kb));
			count++;
		}
		if (pol->mode != PIN_MEM_BIND && cpuset_count(pol->nodes) > 1 &&
		    in >= MIN_JUDGED_KB) {
			uint64_t wsum = 0;
			bool bad = false;

			cpuset_for_each(i, pol->nodes)
				wsum += pol->weights && i < pol->nweights &&
					pol->weights[i] > 0 ?
					(uint64_t)pol->weights[i] : 1;
			cpuset_for_each(i, pol->nodes) {
				uint64_t w = pol->weights && i < pol->nweights &&
					     pol->weights[i] > 0 ?
					     (uint64_t)pol->weights[i] : 1;
				uint64_t have = i < own.n ? own.kb[i] : 0;

				/* less than half its share */
				if (have * wsum * 2 < in * w)
					bad = true;
			}
			if (bad) {
				msg.len = 0;
				strbuf_printf(&msg, "%s: %s over ", whose,
					      pin_mem_name(pol->mode));
				put_list(&msg, "node ", "nodes ", pol->nodes);
				strbuf_puts(&msg, " is not spread: ");
				cpuset_for_each(i, pol->nodes) {
					uint64_t have = i < own.n ? own.kb[i] : 0;

					strbuf_printf(&msg, "%snode %d ",
						      i == cpuset_first(pol->nodes) ?
						      "" : ", ", i);
					put_mib(&msg, have);
					strbuf_printf(&msg, " (%.0f%%)",
						      pct(have, in));
				}
				finding(sb, j, "spread", &msg, in, 100.0);
				count++;
			}
		}
	}
	strbuf_free(&msg);
	cpuset_free(&cn);
	cpuset_free(&others);
	cpuset_free(&near);
	return count;
}
