// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/num.h"
#include "base/strutils.h"
#include "machine/memtier.h"
#include "machine/topo.h"

#define NODE_DIR "sys/devices/system/node"
#define TIER_DIR "sys/devices/virtual/memory_tiering"
#define WI_DIR "sys/kernel/mm/mempolicy/weighted_interleave"

/* A small integer file: its value, or -1 when absent or not a number. */
static int64_t
read_num(const struct sysroot *root, const char *path)
{
	char buf[64];
	ssize_t n = sysroot_read(root, path, buf, sizeof(buf));
	int64_t v;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (parse_i64(strstrip(buf), 0, INT64_MAX, &v) < 0)
		return -1;
	return v;
}

/* A kernel value of 0 is a firmware table without it: unknown. */
static int64_t
attr(const struct sysroot *root, const char *dir, const char *name)
{
	char path[256];
	int64_t v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	v = read_num(root, path);
	return v > 0 ? v : -1;
}

static int
load_access(const struct sysroot *root, int node, int cls,
	    struct mem_access *a)
{
	char dir[128], path[192];
	int r, i;

	snprintf(dir, sizeof(dir), NODE_DIR "/node%d/access%d/initiators",
		 node, cls);
	r = topo_scan_numbered(root, dir, "node", &a->initiators);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	a->known = true;
	a->read_bw = attr(root, dir, "read_bandwidth");
	a->write_bw = attr(root, dir, "write_bandwidth");
	a->read_lat = attr(root, dir, "read_latency");
	a->write_lat = attr(root, dir, "write_latency");
	/*
	 * Each initiator is a link to its node's directory; read through
	 * it, so that a dump records it (as a directory) and replays it.
	 */
	cpuset_for_each(i, &a->initiators) {
		char buf[16];

		snprintf(path, sizeof(path), "%s/node%d/cpulist", dir, i);
		(void)sysroot_read(root, path, buf, sizeof(buf));
	}
	return 0;
}

static int
cmp_cache(const void *a, const void *b)
{
	return ((const struct mem_cache *)a)->level -
	       ((const struct mem_cache *)b)->level;
}

static int
load_caches(const struct sysroot *root, struct mem_node *n)
{
	struct cpuset idx = CPUSET_INIT;
	char dir[160];
	int r, l, k = 0;

	snprintf(dir, sizeof(dir), NODE_DIR "/node%d/memory_side_cache", n->id);
	r = topo_scan_numbered(root, dir, "index", &idx);
	if (r < 0 || cpuset_empty(&idx)) {
		cpuset_free(&idx);
		return r == -ENOMEM ? r : 0;
	}
	n->caches = calloc(cpuset_count(&idx), sizeof(*n->caches));
	if (n->caches == NULL) {
		cpuset_free(&idx);
		return -ENOMEM;
	}
	cpuset_for_each(l, &idx) {
		struct mem_cache *c = &n->caches[k++];
		char sub[192];
		int64_t v;

		snprintf(sub, sizeof(sub), "%s/index%d", dir, l);
		c->level = l;
		c->size = attr(root, sub, "size");
		c->line_size = attr(root, sub, "line_size");
		/* 0 is a value here: direct-mapped, write-back. */
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "/indexing");
		v = read_num(root, sub);
		c->indexing = v >= 0 && v <= 2 ? (int)v : -1;
		snprintf(sub, sizeof(sub), "%s/index%d/write_policy", dir, l);
		v = read_num(root, sub);
		c->write_policy = v >= 0 && v <= 2 ? (int)v : -1;
	}
	n->ncaches = k;
	qsort(n->caches, (size_t)k, sizeof(*n->caches), cmp_cache);
	cpuset_free(&idx);
	return 0;
}

static int
load_tiers(struct memtier *m, const struct sysroot *root)
{
	struct cpuset ids = CPUSET_INIT, nodes = CPUSET_INIT;
	char path[128], err[128];
	int r, id, k = 0;

	r = topo_scan_numbered(root, TIER_DIR, "memory_tier", &ids);
	if (r < 0 || cpuset_empty(&ids)) {
		cpuset_free(&ids);
		return r == -ENOMEM ? r : 0;
	}
	m->tier_ids = calloc(cpuset_count(&ids), sizeof(int));
	if (m->tier_ids == NULL) {
		cpuset_free(&ids);
		return -ENOMEM;
	}
	cpuset_for_each(id, &ids) {
		char *text;
		int i;

		snprintf(path, sizeof(path), TIER_DIR "/memory_tier%d/nodelist", id);
		r = sysroot_read_file(root, path, &text, NULL);
		if (r == -ENOMEM)
			break;
		if (r < 0)
			continue;
		r = cpuset_parse_list(text, &nodes, err, sizeof(err));
		free(text);
		if (r == -ENOMEM)
			break;
		if (r < 0)
			continue;	/* not a nodelist: no tier learnt */
		m->tier_ids[k++] = id;
		for (i = 0; i < m->nnodes; i++)
			if (cpuset_isset(&nodes, (unsigned int)m->nodes[i].id))
				m->nodes[i].tier = id;
	}
	m->ntiers = k;
	cpuset_free(&ids);
	cpuset_free(&nodes);
	return r == -ENOMEM ? r : 0;
}

int
memtier_load(struct memtier *m, const struct topo *t,
	     const struct sysroot *root)
{
	char path[128];
	int i, r = 0;

	memset(m, 0, sizeof(*m));
	m->weights_auto = -1;
	m->nodes = calloc((size_t)t->nnodes + 1, sizeof(*m->nodes));
	if (m->nodes == NULL)
		return -ENOMEM;
	m->nnodes = t->nnodes;
	m->weights_known = sysroot_exists(root, WI_DIR);
	for (i = 0; i < t->nnodes; i++) {
		struct mem_node *n = &m->nodes[i];
		int c;

		n->id = t->nodes[i].id;
		n->has_cpus = !cpuset_empty(&t->nodes[i].cpus);
		n->tier = -1;
		n->weight = -1;
		for (c = 0; c < 2 && r == 0; c++) {
			cpuset_init(&n->access[c].initiators);
			n->access[c].read_bw = n->access[c].write_bw = -1;
			n->access[c].read_lat = n->access[c].write_lat = -1;
			r = load_access(root, n->id, c, &n->access[c]);
			if (n->access[c].known)
				m->hmat = true;
		}
		if (r == 0)
			r = load_caches(root, n);
		if (n->ncaches)
			m->hmat = true;
		if (r < 0)
			goto fail;
		if (m->weights_known) {
			int64_t w;

			snprintf(path, sizeof(path), WI_DIR "/node%d", n->id);
			w = read_num(root, path);
			n->weight = w >= 0 && w <= 255 ? (int)w : -1;
		}
	}
	if (m->weights_known) {
		int64_t v = read_num(root, WI_DIR "/auto");

		if (v < 0)
			v = read_num(root, WI_DIR "/__auto_type");
		if (v < 0) {
			/* "true"/"false", as 6.16 and later print it. */
			char buf[16];
			ssize_t k = sysroot_read(root, WI_DIR "/auto", buf,
						 sizeof(buf));

			if (k <= 0)
				k = sysroot_read(root, WI_DIR "/__auto_type",
						 buf, sizeof(buf));
			if (k > 0) {
				buf[k] = '\0';
				strstrip(buf);
				v = strcmp(buf, "true") == 0 ? 1 :
				    strcmp(buf, "false") == 0 ? 0 : -1;
			}
		}
		m->weights_auto = v == 0 || v == 1 ? (int)v : -1;
	}
	r = load_tiers(m, root);
	if (r < 0)
		goto fail;
	return 0;
fail:
	memtier_free(m);
	return r;
}

void
memtier_free(struct memtier *m)
{
	int i;

	for (i = 0; i < m->nnodes; i++) {
		cpuset_free(&m->nodes[i].access[0].initiators);
		cpuset_free(&m->nodes[i].access[1].initiators);
		free(m->nodes[i].caches);
	}
	free(m->nodes);
	free(m->tier_ids);
	memset(m, 0, sizeof(*m));
}

const struct mem_node *
memtier_node(const struct memtier *m, int id)
{
	int i;

	for (i = 0; i < m->nnodes; i++)
		if (m->nodes[i].id == id)
			return &m->nodes[i];
	return NULL;
}

int
memtier_class(const struct mem_node *n)
{
	return n->access[1].known ? 1 : n->access[0].known ? 0 : -1;
}

const char *
memtier_write_policy_name(int v)
{
	return v == 0 ? "write-back" : v == 1 ? "write-through" : NULL;
}

const char *
memtier_indexing_name(int v)
{
	return v == 0 ? "direct-mapped" : v == 1 ? "complex" : NULL;
}

/* The nodes with memory nearest the nodes of cpus: smallest worst distance. */
static int
select_near(const struct memtier *m, const struct topo *t, const char *list,
	    struct cpuset *out, char *err, size_t errlen)
{
	struct cpuset cpus = CPUSET_INIT, cn = CPUSET_INIT;
	int i, best = -1, r;
	char e[160];

	r = cpuset_parse_list(list, &cpus, e, sizeof(e));
	if (r == 0 && topo_check_possible(t, &cpus, e, sizeof(e)) < 0)
		r = -EINVAL;
	if (r == 0 && cpuset_empty(&cpus)) {
		snprintf(e, sizeof(e), "no CPUs");
		r = -EINVAL;
	}
	if (r == 0)
		r = topo_nodes_of(t, &cpus, &cn);
	if (r == 0 && cpuset_empty(&cn)) {
		snprintf(e, sizeof(e), "CPUs %s have no known node", list);
		r = -EINVAL;
	}
	if (r < 0) {
		cpuset_free(&cpus);
		cpuset_free(&cn);
		if (r == -ENOMEM)
			return r;
		return err_ret(err, errlen, -EINVAL, "invalid near:%s: %s",
			       list, e);
	}
	for (int pass = 0; pass < 2; pass++)
		for (i = 0; i < t->nnodes; i++) {
			const struct topo_node *n = &t->nodes[i];
			int worst = -1, c;

			if (n->mem_total_kb == 0)
				continue;	/* no memory to place */
			cpuset_for_each(c, &cn) {
				const struct topo_node *from = topo_node_by_id(t, c);
				int d;

				if (from == NULL || from->distance == NULL)
					d = n->id == c ? 10 : 20;
				else
					d = from->distance[i];
				if (d > worst)
					worst = d;
			}
			if (pass == 0 && (best < 0 || worst < best))
				best = worst;
			if (pass == 1 && worst == best &&
			    cpuset_set(out, (unsigned int)n->id) < 0)
				r = -ENOMEM;
		}
	(void)m;
	cpuset_free(&cpus);
	cpuset_free(&cn);
	return r;
}

int
memtier_select(const struct memtier *m, const struct topo *t,
	       const char *sel, struct cpuset *out, char *err, size_t errlen)
{
	struct cpuset s = CPUSET_INIT;
	unsigned int v;
	int i, r = 0;

	if (strcmp(sel, "all") == 0 || strcmp(sel, "cpuless") == 0 ||
	    strcmp(sel, "cpus") == 0) {
		for (i = 0; i < m->nnodes && r == 0; i++)
			if (sel[0] == 'a' ||
			    m->nodes[i].has_cpus == (strcmp(sel, "cpus") == 0))
				r = cpuset_set(out, (unsigned int)m->nodes[i].id);
		return r;
	}
	if (startswith(sel, "tier:")) {
		bool found = false;

		if (parse_uint(sel + 5, INT32_MAX, &v) < 0)
			return err_ret(err, errlen, -EINVAL,
				       "invalid tier '%s' (tier:N, N a memory_tierN of the kernel)",
				       sel + 5);
		for (i = 0; i < m->ntiers; i++)
			found |= m->tier_ids[i] == (int)v;
		if (!found)
			return err_ret(err, errlen, -EINVAL,
				       "no memory tier %u on this machine", v);
		for (i = 0; i < m->nnodes && r == 0; i++)
			if (m->nodes[i].tier == (int)v)
				r = cpuset_set(out, (unsigned int)m->nodes[i].id);
		return r;
	}
	if (startswith(sel, "near:"))
		return select_near(m, t, sel + 5, out, err, errlen);
	if (startswith(sel, "node:"))
		sel += 5;
	{
		char e[160];

		r = cpuset_parse_list(sel, &s, e, sizeof(e));
		if (r == -ENOMEM)
			return r;
		if (r < 0 || cpuset_empty(&s)) {
			cpuset_free(&s);
			return err_ret(err, errlen, -EINVAL,
				       "unknown node selector '%s' (all, a nodelist, node:N, cpus, cpuless, tier:N, near:CPULIST)",
				       sel);
		}
	}
	cpuset_for_each(i, &s) {
		if (memtier_node(m, i) == NULL) {
			cpuset_free(&s);
			return err_ret(err, errlen, -EINVAL,
				       "node %d does not exist", i);
		}
	}
	r = cpuset_or(out, &s);
	cpuset_free(&s);
	return r;
}
