/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/allocmem.h"
#include "base/err.h"
#include "base/num.h"

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

void
alloc_mem_describe(const struct alloc_memreq *mr, struct strbuf *sb)
{
	int i;

	if (mr->mem || !mr->nhuge) {
		alloc_qty_format(sb, mr->mem);
		strbuf_puts(sb, " of memory");
	}
	for (i = 0; i < mr->nhuge; i++) {
		char name[64];

		alloc_huge_name(mr->huge[i].kb, name, sizeof(name));
		strbuf_puts(sb, i || mr->mem ? (i + 1 < mr->nhuge ? ", " :
					       " and ") : "");
		alloc_qty_format(sb, mr->huge[i].bytes);
		strbuf_printf(sb, " of %s", name);
	}
}
