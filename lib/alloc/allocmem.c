/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/allocmem.h"
#include "base/err.h"
#include "base/num.h"
#include "kube/quantity.h"

void
alloc_qty_format(struct strbuf *sb, uint64_t bytes)
{
	static const char *const units[] = { "Ki", "Mi", "Gi", "Ti", "Pi" };
	int u = -1;

	while (bytes && bytes % 1024 == 0 && u < 4) {
		bytes /= 1024;
		u++;
	}
	strbuf_printf(sb, "%llu%s", (unsigned long long)bytes,
		      u < 0 ? "" : units[u]);
}

void
alloc_huge_name(unsigned int kb, char *buf, size_t len)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_puts(&sb, "hugepages-");
	alloc_qty_format(&sb, (uint64_t)kb * 1024);
	snprintf(buf, len, "%s", sb.buf && !sb.oom ? sb.buf : "hugepages-?");
	strbuf_free(&sb);
}

int
alloc_mem_resource(const char *name, unsigned int *kb)
{
	char canon[64];
	uint64_t bytes;

	if (strcmp(name, "memory") == 0) {
		*kb = 0;
		return 0;
	}
	if (strncmp(name, "hugepages-", 10) != 0 ||
	    parse_size_bytes(name + 10, &bytes) < 0 || bytes < 1024 ||
	    bytes % 1024 || bytes / 1024 > UINT_MAX)
		return -EINVAL;
	*kb = (unsigned int)(bytes / 1024);
	/* Only the name the kubelet gives the size. */
	alloc_huge_name(*kb, canon, sizeof(canon));
	return strcmp(canon, name) == 0 ? 0 : -EINVAL;
}

/* One RESOURCE=SIZE of a list into out. */
static int
parse_item(char *tok, struct alloc_memreq *out, bool *have_memory,
	   char *err, size_t errlen)
{
	char *eq = strchr(tok, '=');
	unsigned int kb;
	uint64_t bytes;
	int i;

	if (!eq)
		return err_ret(err, errlen, -EINVAL, "invalid --mem item '%s' "
			       "(RESOURCE=SIZE)", tok);
	*eq = '\0';
	if (alloc_mem_resource(tok, &kb) < 0)
		return err_ret(err, errlen, -EINVAL, "invalid --mem resource "
			       "'%s' (memory or hugepages-<size>, named as "
			       "the kubelet names them: hugepages-2Mi, "
			       "hugepages-1Gi)", tok);
	if (parse_size_bytes(eq + 1, &bytes) < 0)
		return err_ret(err, errlen, -EINVAL, "invalid --mem size "
			       "'%s' for %s", eq + 1, tok);
	if (kb == 0) {
		if (*have_memory)
			return err_ret(err, errlen, -EINVAL, "--mem names "
				       "memory twice");
		*have_memory = true;
		out->mem = bytes;
		return 0;
	}
	if (bytes % ((uint64_t)kb * 1024)) {
		struct strbuf sb;

		strbuf_init(&sb);
		alloc_qty_format(&sb, bytes);
		strbuf_puts(&sb, " is not a multiple of the page size ");
		alloc_qty_format(&sb, (uint64_t)kb * 1024);
		err_ret(err, errlen, -EINVAL, "--mem %s: %s", tok,
			sb.oom ? "not a multiple of the page size" : sb.buf);
		strbuf_free(&sb);
		return -EINVAL;
	}
	for (i = 0; i < out->nhuge; i++)
		if (out->huge[i].kb == kb)
			return err_ret(err, errlen, -EINVAL, "--mem names %s "
				       "twice", tok);
	if (out->nhuge == ALLOC_HUGE_MAX)
		return err_ret(err, errlen, -EINVAL, "--mem names more than "
			       "%d huge page sizes", ALLOC_HUGE_MAX);
	for (i = out->nhuge; i > 0 && out->huge[i - 1].kb > kb; i--)
		out->huge[i] = out->huge[i - 1];
	out->huge[i].kb = kb;
	out->huge[i].bytes = bytes;
	out->nhuge++;
	return 0;
}

int
alloc_mem_parse(const char *s, struct alloc_memreq *out, char *err,
		size_t errlen)
{
	char buf[512], *tok, *save = NULL;
	bool have_memory = false;
	int r;

	memset(out, 0, sizeof(*out));
	if (!strchr(s, '=')) {
		if (parse_size_bytes(s, &out->mem) < 0)
			return err_ret(err, errlen, -EINVAL, "invalid --mem "
				       "size '%s'", s);
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return err_ret(err, errlen, -EINVAL, "--mem list too long");
	strcpy(buf, s);
	if (!*buf || *buf == ',' || buf[strlen(buf) - 1] == ',' ||
	    strstr(buf, ",,"))
		return err_ret(err, errlen, -EINVAL, "invalid --mem list '%s'",
			       s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		r = parse_item(tok, out, &have_memory, err, errlen);
		if (r < 0)
			return r;
	}
	return 0;
}

int
alloc_mem_check(const struct topo *t, const struct alloc_memreq *mr,
		char *err, size_t errlen)
{
	int i, k;

	for (i = 0; i < mr->nhuge; i++) {
		char name[64];

		for (k = 0; k < t->nnodes; k++)
			if (topo_node_huge(&t->nodes[k], mr->huge[i].kb))
				break;
		if (k < t->nnodes)
			continue;
		alloc_huge_name(mr->huge[i].kb, name, sizeof(name));
		return err_ret(err, errlen, -EINVAL, "--mem %s: no NUMA node "
			       "of this machine has huge pages of that size",
			       name);
	}
	return 0;
}

#define RESMEM_FORMAT "the reserved memory has incorrect format, expected " \
	"numaNodeID:type=quantity[,type=quantity...], got %s"

/* One NODE:TYPE=QTY,... of the flag, appended to *out. */
static int
resmem_node(char *item, struct mem_reserve **out, int *nout, char *err,
	    size_t errlen)
{
	char *colon = strchr(item, ':'), *tok, *save = NULL;
	unsigned int node;

	if (!colon || strchr(colon + 1, ':'))
		return err_ret(err, errlen, -EINVAL, RESMEM_FORMAT, item);
	*colon = '\0';
	if (parse_uint(item, CPUSET_MAX_CPUS - 1, &node) < 0)
		return err_ret(err, errlen, -EINVAL, "failed to convert the "
			       "NUMA node ID, exptected integer, got %s", item);
	for (tok = strtok_r(colon + 1, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), qerr[128];
		struct mem_reserve *m;
		unsigned int kb;
		int64_t bytes;

		if (!eq || strchr(eq + 1, '='))
			return err_ret(err, errlen, -EINVAL, "the reserved "
				       "limit has incorrect value, expected "
				       "type=quantatity, got %s", tok);
		*eq = '\0';
		if (alloc_mem_resource(tok, &kb) < 0)
			return err_ret(err, errlen, -EINVAL, "memory type "
				       "conversion error, unknown type: "
				       "\"%s\"", tok);
		if (mem_quantity_parse(eq + 1, &bytes, qerr, sizeof(qerr)) < 0)
			return err_ret(err, errlen, -EINVAL, "failed to parse "
				       "the quantatity, expected quantatity, "
				       "got %s", eq + 1);
		m = realloc(*out, (size_t)(*nout + 1) * sizeof(*m));
		if (!m)
			return -ENOMEM;
		*out = m;
		m[*nout].node = (int)node;
		m[*nout].kb = kb;
		m[*nout].bytes = (uint64_t)bytes;
		(*nout)++;
	}
	return 0;
}

static int
cmp_reserve(const void *a, const void *b)
{
	const struct mem_reserve *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->kb < y->kb ? -1 : x->kb > y->kb;
}

/* The resource's name into buf: "memory" or "hugepages-<size>". */
static const char *
res_name(unsigned int kb, char *buf, size_t len)
{
	if (!kb)
		return "memory";
	alloc_huge_name(kb, buf, len);
	return buf;
}

/* What node n has of the resource kb, in bytes (memory: MemTotal). */
static uint64_t
capacity(const struct topo_node *n, unsigned int kb)
{
	const struct topo_huge *h;

	if (kb) {
		h = topo_node_huge(n, kb);
		return h ? h->nr * kb * 1024 : 0;
	}
	return n->mem_total_kb > 0 ? (uint64_t)n->mem_total_kb * 1024 : 0;
}

/* The checks of a parsed list, in the kubelet's order. */
static int
resmem_check(const struct topo *t, const struct mem_reserve *m, int n,
	     char *err, size_t errlen)
{
	char name[64];
	int i, k;

	for (i = 0; i < n; i++) {
		if (!m[i].bytes)
			return err_ret(err, errlen, -EINVAL, "invalid "
				       "configuration: reserved memory may not "
				       "be zero for NUMA node %d and resource "
				       "\"%s\"", m[i].node,
				       res_name(m[i].kb, name, sizeof(name)));
		for (k = 0; k < i; k++)
			if (m[k].node == m[i].node && m[k].kb == m[i].kb)
				return err_ret(err, errlen, -EINVAL, "invalid "
					"configuration: the reserved memory has "
					"a duplicate value for NUMA node %d and "
					"resource \"%s\"", m[i].node,
					res_name(m[i].kb, name, sizeof(name)));
	}
	for (i = 0; i < n; i++)
		if (!topo_node_by_id(t, m[i].node))
			return err_ret(err, errlen, -EINVAL, "the reserved "
				       "memory configuration references a NUMA "
				       "node %d that does not exist on this "
				       "machine", m[i].node);
	for (i = 0; i < n; i++) {
		uint64_t cap = capacity(topo_node_by_id(t, m[i].node),
					m[i].kb);
		struct strbuf sb;

		if (m[i].bytes <= cap)
			continue;
		strbuf_init(&sb);
		alloc_qty_format(&sb, m[i].bytes);
		strbuf_puts(&sb, " is more than the node's ");
		alloc_qty_format(&sb, cap);
		err_ret(err, errlen, -EINVAL, "the reserved memory for NUMA "
			"node %d and resource \"%s\": %s", m[i].node,
			res_name(m[i].kb, name, sizeof(name)),
			sb.oom ? "more than the node has" : sb.buf);
		strbuf_free(&sb);
		return -EINVAL;
	}
	return 0;
}

int
alloc_resmem_parse(const struct topo *t, const char *s,
		   struct mem_reserve **out, int *nout, char *err,
		   size_t errlen)
{
	char *copy, *item, *save = NULL;
	int r = 0;

	*out = NULL;
	*nout = 0;
	if (!*s)
		return 0;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ";", &save); item && r == 0;
	     item = strtok_r(NULL, ";", &save))
		r = resmem_node(item, out, nout, err, errlen);
	free(copy);
	if (r == 0)
		r = resmem_check(t, *out, *nout, err, errlen);
	if (r < 0) {
		free(*out);
		*out = NULL;
		*nout = 0;
		return r;
	}
	qsort(*out, (size_t)*nout, sizeof(**out), cmp_reserve);
	return 0;
}
