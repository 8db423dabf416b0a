// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kubelet's memory_manager_state: a small JSON tree reader (the
 * checkpoint nests maps, arrays and objects deeper than cpu_manager_state),
 * the go-spew renderings its checksums are taken over, and the bookings
 * its entries give cpm-alloc's imported allocations.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "fileread.h"
#include "kmemstate.h"
#include "state.h"
#include "strbuf.h"

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	int t;
	char *s;		/* string, or a number's text */
	uint64_t u;		/* a number as an unsigned integer */
	bool u_ok;
	int n;
	char **k;		/* object keys */
	struct jv *v;		/* members or elements */
};

struct jp {
	const char *p, *end;
	char err[160];
	int depth;
};

static void
jv_free(struct jv *v)
{
	int i;

	for (i = 0; i < v->n; i++) {
		if (v->k)
			free(v->k[i]);
		jv_free(&v->v[i]);
	}
	free(v->k);
	free(v->v);
	free(v->s);
	memset(v, 0, sizeof(*v));
}

static int
jfail(struct jp *j, const char *what)
{
	if (!j->err[0])
		snprintf(j->err, sizeof(j->err), "%s", what);
	return -EINVAL;
}

static void
ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int
jstr(struct jp *j, char **out)
{
	struct strbuf sb;

	j->p++;		/* the quote */
	strbuf_init(&sb);
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p++;

		if (c < 0x20 || c >= 0x80)
			goto bad;
		if (c == '\\') {
			if (j->p >= j->end)
				goto bad;
			c = (unsigned char)*j->p++;
			if (c == 'u') {
				unsigned int v = 0, i;

				for (i = 0; i < 4; i++) {
					char h = j->p < j->end ? *j->p++ : 0;

					v <<= 4;
					if (h >= '0' && h <= '9')
						v |= (unsigned int)(h - '0');
					else if (h >= 'a' && h <= 'f')
						v |= (unsigned int)(h - 'a' + 10);
					else if (h >= 'A' && h <= 'F')
						v |= (unsigned int)(h - 'A' + 10);
					else
						goto bad;
				}
				if (v == 0 || v >= 0x80)
					goto bad;
				c = (unsigned char)v;
			} else if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			} else if (c == 'r') {
				c = '\r';
			} else if (c == 'b') {
				c = '\b';
			} else if (c == 'f') {
				c = '\f';
			} else if (c != '"' && c != '\\' && c != '/') {
				goto bad;
			}
		}
		strbuf_add(&sb, (const char *)&c, 1);
	}
	if (j->p >= j->end)
		goto end;
	j->p++;
	strbuf_add(&sb, "", 0);
	if (sb.oom)
		return -ENOMEM;
	*out = sb.buf;
	return 0;
bad:
	strbuf_free(&sb);
	return jfail(j, "invalid character in string literal");
end:
	strbuf_free(&sb);
	return jfail(j, "unexpected end of JSON input");
}

static int jvalue(struct jp *j, struct jv *v);

static int
jgrow(struct jv *v, bool keys)
{
	struct jv *nv = realloc(v->v, (size_t)(v->n + 1) * sizeof(*nv));
	char **nk;

	if (!nv)
		return -ENOMEM;
	v->v = nv;
	memset(&nv[v->n], 0, sizeof(*nv));
	if (keys) {
		nk = realloc(v->k, (size_t)(v->n + 1) * sizeof(*nk));
		if (!nk)
			return -ENOMEM;
		v->k = nk;
		nk[v->n] = NULL;
	}
	v->n++;
	return 0;
}

static int
jcontainer(struct jp *j, struct jv *v, bool obj)
{
	char close = obj ? '}' : ']';
	int r;

	if (++j->depth > 64)
		return jfail(j, "exceeded max depth");
	v->t = obj ? J_OBJ : J_ARR;
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return 0;
	}
	for (;;) {
		ws(j);
		if ((r = jgrow(v, obj)) < 0)
			return r;
		if (obj) {
			if (j->p >= j->end)
				return jfail(j, "unexpected end of JSON input");
			if (*j->p != '"')
				return jfail(j, "invalid character looking for "
					     "beginning of object key string");
			if ((r = jstr(j, &v->k[v->n - 1])) < 0)
				return r;
			ws(j);
			if (j->p >= j->end)
				return jfail(j, "unexpected end of JSON input");
			if (*j->p++ != ':')
				return jfail(j, "invalid character after object key");
		}
		if ((r = jvalue(j, &v->v[v->n - 1])) < 0)
			return r;
		ws(j);
		if (j->p >= j->end)
			return jfail(j, "unexpected end of JSON input");
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p++ != close)
			return jfail(j, "invalid character after value");
		break;
	}
	j->depth--;
	return 0;
}

static int
jvalue(struct jp *j, struct jv *v)
{
	const char *s;

	ws(j);
	if (j->p >= j->end)
		return jfail(j, "unexpected end of JSON input");
	switch (*j->p) {
	case '{':
		return jcontainer(j, v, true);
	case '[':
		return jcontainer(j, v, false);
	case '"':
		v->t = J_STR;
		return jstr(j, &v->s);
	}
	if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
		j->p += 4;
		return 0;
	}
	if (j->end - j->p >= 4 && memcmp(j->p, "true", 4) == 0) {
		v->t = J_BOOL;
		j->p += 4;
		return 0;
	}
	if (j->end - j->p >= 5 && memcmp(j->p, "false", 5) == 0) {
		v->t = J_BOOL;
		j->p += 5;
		return 0;
	}
	s = j->p;
	if (*j->p == '-')
		j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return jfail(j, "invalid character looking for beginning of value");
	v->u_ok = *s != '-';
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
		if (v->u > (UINT64_MAX - 9) / 10)
			v->u_ok = false;
		v->u = v->u * 10 + (uint64_t)(*j->p++ - '0');
	}
	while (j->p < j->end && strchr(".eE+-0123456789", *j->p)) {
		v->u_ok = false;
		j->p++;
	}
	v->t = J_NUM;
	v->s = strndup(s, (size_t)(j->p - s));
	return v->s ? 0 : -ENOMEM;
}

static int
jparse(const char *text, size_t len, struct jv *v, char *err, size_t errlen)
{
	struct jp j = { text, text + len, "", 0 };
	int r;

	memset(v, 0, sizeof(*v));
	r = jvalue(&j, v);
	if (r == 0) {
		ws(&j);
		if (j.p != j.end)
			r = jfail(&j, "invalid character after top-level value");
	}
	if (r < 0) {
		jv_free(v);
		if (r == -EINVAL)
			snprintf(err, errlen, "%s", j.err);
	}
	return r;
}

/* The member of o named key in any case, the last given (Go's). */
static const struct jv *
jget(const struct jv *o, const char *key)
{
	int i;

	if (!o || o->t != J_OBJ)
		return NULL;
	for (i = o->n - 1; i >= 0; i--)
		if (strcasecmp(o->k[i], key) == 0)
			return &o->v[i];
	return NULL;
}

/* ---- go-spew's %#v of the checkpoint structs ---- */

static int
key_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
num_key_cmp(const void *a, const void *b)
{
	long long x = strtoll(*(char *const *)a, NULL, 10);
	long long y = strtoll(*(char *const *)b, NULL, 10);

	return x < y ? -1 : x > y;
}

/* The member indexes of o in the order spew sorts its keys. */
static int *
sorted(const struct jv *o, bool numeric)
{
	char **keys = malloc(sizeof(char *) * (size_t)(o->n + 1));
	int *idx = malloc(sizeof(int) * (size_t)(o->n + 1)), i, k;

	if (!keys || !idx) {
		free(keys);
		free(idx);
		return NULL;
	}
	/* Distinct keys (the last of a repeated one), sorted. */
	for (i = 0; i < o->n; i++)
		keys[i] = o->k[i];
	qsort(keys, (size_t)o->n, sizeof(*keys), numeric ? num_key_cmp :
	      key_cmp);
	for (i = 0; i < o->n; i++) {
		idx[i] = -1;
		if (i > 0 && strcmp(keys[i], keys[i - 1]) == 0)
			continue;
		for (k = o->n - 1; k >= 0; k--)
			if (strcmp(o->k[k], keys[i]) == 0) {
				idx[i] = k;
				break;
			}
	}
	free(keys);
	return idx;
}

static void
r_uint(struct strbuf *sb, const char *field, const struct jv *v)
{
	strbuf_printf(sb, "%s:(uint64)%llu", field,
		      (unsigned long long)(v && v->t == J_NUM ? v->u : 0));
}

static int
r_ints(struct strbuf *sb, const struct jv *a)
{
	int i;

	if (!a || a->t != J_ARR) {
		strbuf_puts(sb, "<nil>");
		return 0;
	}
	strbuf_puts(sb, "[");
	for (i = 0; i < a->n; i++)
		strbuf_printf(sb, "%s%s", i ? " " : "",
			      a->v[i].t == J_NUM ? a->v[i].s : "0");
	strbuf_puts(sb, "]");
	return 0;
}

/* []Block as a field's or a map's value. */
static void
r_blocks(struct strbuf *sb, const struct jv *a)
{
	int i;

	if (!a || a->t != J_ARR) {
		strbuf_puts(sb, "<nil>");
		return;
	}
	strbuf_puts(sb, "[");
	for (i = 0; i < a->n; i++) {
		const struct jv *b = &a->v[i], *t = jget(b, "type");

		strbuf_printf(sb, "%s{NUMAAffinity:([]int)", i ? " " : "");
		r_ints(sb, jget(b, "numaAffinity"));
		strbuf_printf(sb, " Type:(v1.ResourceName)%s ",
			      t && t->t == J_STR ? t->s : "");
		r_uint(sb, "Size", jget(b, "size"));
		strbuf_puts(sb, "}");
	}
	strbuf_puts(sb, "]");
}

static int
r_machine(struct strbuf *sb, const struct jv *m)
{
	int *idx, i, c;

	strbuf_puts(sb, "MachineState:(state.NUMANodeMap)map[");
	if (m && m->t == J_OBJ) {
		if (!(idx = sorted(m, true)))
			return -ENOMEM;
		for (i = 0, c = 0; i < m->n; i++) {
			const struct jv *n, *mm;
			int *mi, k, d = 0;

			if (idx[i] < 0)
				continue;
			n = &m->v[idx[i]];
			strbuf_printf(sb, "%s%s:<*>{NumberOfAssignments:(int)%s",
				      c++ ? " " : "", m->k[idx[i]],
				      jget(n, "numberOfAssignments") &&
				      jget(n, "numberOfAssignments")->t == J_NUM ?
				      jget(n, "numberOfAssignments")->s : "0");
			strbuf_puts(sb, " MemoryMap:(map[v1.ResourceName]"
				    "*state.MemoryTable)");
			mm = jget(n, "memoryMap");
			if (!mm || mm->t != J_OBJ) {
				strbuf_puts(sb, "<nil>");
			} else {
				if (!(mi = sorted(mm, false))) {
					free(idx);
					return -ENOMEM;
				}
				strbuf_puts(sb, "map[");
				for (k = 0; k < mm->n; k++) {
					const struct jv *t;

					if (mi[k] < 0)
						continue;
					t = &mm->v[mi[k]];
					strbuf_printf(sb, "%s%s:<*>{", d++ ? " " : "",
						      mm->k[mi[k]]);
					r_uint(sb, "TotalMemSize", jget(t, "total"));
					strbuf_puts(sb, " ");
					r_uint(sb, "SystemReserved",
					       jget(t, "systemReserved"));
					strbuf_puts(sb, " ");
					r_uint(sb, "Allocatable", jget(t, "allocatable"));
					strbuf_puts(sb, " ");
					r_uint(sb, "Reserved", jget(t, "reserved"));
					strbuf_puts(sb, " ");
					r_uint(sb, "Free", jget(t, "free"));
					strbuf_puts(sb, "}");
				}
				free(mi);
				strbuf_puts(sb, "]");
			}
			strbuf_puts(sb, " Cells:([]int)");
			r_ints(sb, jget(n, "cells"));
			strbuf_puts(sb, "}");
		}
		free(idx);
	}
	strbuf_puts(sb, "]");
	return 0;
}

static int
r_entries(struct strbuf *sb, const struct jv *e)
{
	int *pi, *ci, i, k, c = 0;

	strbuf_puts(sb, "Entries:(state.ContainerMemoryAssignments)map[");
	if (e && e->t == J_OBJ) {
		if (!(pi = sorted(e, false)))
			return -ENOMEM;
		for (i = 0; i < e->n; i++) {
			const struct jv *p;
			int d = 0;

			if (pi[i] < 0)
				continue;
			p = &e->v[pi[i]];
			strbuf_printf(sb, "%s%s:", c++ ? " " : "", e->k[pi[i]]);
			if (p->t != J_OBJ) {
				strbuf_puts(sb, "<nil>");
				continue;
			}
			if (!(ci = sorted(p, false))) {
				free(pi);
				return -ENOMEM;
			}
			strbuf_puts(sb, "map[");
			for (k = 0; k < p->n; k++) {
				if (ci[k] < 0)
					continue;
				strbuf_printf(sb, "%s%s:", d++ ? " " : "",
					      p->k[ci[k]]);
				r_blocks(sb, &p->v[ci[k]]);
			}
			free(ci);
			strbuf_puts(sb, "]");
		}
		free(pi);
	}
	strbuf_puts(sb, "]");
	return 0;
}

static int
r_pods(struct strbuf *sb, const struct jv *e)
{
	int *pi, i, c = 0;

	strbuf_puts(sb, "PodEntries:(state.PodMemoryAssignments)map[");
	if (e && e->t == J_OBJ) {
		if (!(pi = sorted(e, false)))
			return -ENOMEM;
		for (i = 0; i < e->n; i++) {
			if (pi[i] < 0)
				continue;
			strbuf_printf(sb, "%s%s:{MemoryBlocks:([]state.Block)",
				      c++ ? " " : "", e->k[pi[i]]);
			r_blocks(sb, jget(&e->v[pi[i]], "memoryBlocks"));
			strbuf_puts(sb, "}");
		}
		free(pi);
	}
	strbuf_puts(sb, "]");
	return 0;
}

/* FNV-1a 32 of the v1 (pods false) or v2 rendering of the document d. */
static int
spew_sum(const struct jv *d, bool pods, uint32_t *sum)
{
	const struct jv *p = jget(d, "policyName");
	struct strbuf sb;
	int r;

	strbuf_init(&sb);
	strbuf_printf(&sb, "(*state.MemoryManagerCheckpoint){PolicyName:"
		      "(string)%s ", p && p->t == J_STR ? p->s : "");
	r = r_machine(&sb, jget(d, "machineState"));
	strbuf_puts(&sb, " ");
	if (r == 0)
		r = r_entries(&sb, jget(d, "entries"));
	if (r == 0 && pods) {
		strbuf_puts(&sb, " ");
		r = r_pods(&sb, jget(d, "podEntries"));
	}
	strbuf_puts(&sb, " Checksum:(checksum.Checksum)0}");
	if (r == 0 && sb.oom)
		r = -ENOMEM;
	if (r == 0)
		*sum = fnv1a32(FNV32_INIT, sb.buf, sb.len);
	strbuf_free(&sb);
	return r;
}

/* ---- the checkpoint ---- */

/* The blocks of the payload d into ms. */
static int
take_blocks(struct kmemstate *ms, const struct jv *d)
{
	const struct jv *e = jget(d, "entries"), *p = jget(d, "policyName");
	int i, k, b, x;

	ms->policy = strdup(p && p->t == J_STR ? p->s : "");
	if (!ms->policy)
		return -ENOMEM;
	if (!e || e->t != J_OBJ)
		return 0;
	for (i = 0; i < e->n; i++) {
		const struct jv *pod = &e->v[i];

		if (pod->t != J_OBJ)
			continue;
		for (k = 0; k < pod->n; k++) {
			const struct jv *bl = &pod->v[k];

			if (bl->t != J_ARR)
				continue;
			for (b = 0; b < bl->n; b++) {
				const struct jv *t = jget(&bl->v[b], "type");
				const struct jv *s = jget(&bl->v[b], "size");
				const struct jv *a = jget(&bl->v[b], "numaAffinity");
				struct kmem_block *nb, *kb;

				nb = realloc(ms->blocks, (size_t)(ms->nblocks + 1) *
					     sizeof(*nb));
				if (!nb)
					return -ENOMEM;
				ms->blocks = nb;
				kb = &nb[ms->nblocks++];
				memset(kb, 0, sizeof(*kb));
				kb->pod = strdup(e->k[i]);
				kb->container = strdup(pod->k[k]);
				kb->type = strdup(t && t->t == J_STR ? t->s : "");
				kb->size = s && s->t == J_NUM ? s->u : 0;
				if (!kb->pod || !kb->container || !kb->type)
					return -ENOMEM;
				if (a && a->t == J_ARR && a->n > 0) {
					kb->nodes = malloc(sizeof(int) * (size_t)a->n);
					if (!kb->nodes)
						return -ENOMEM;
					for (x = 0; x < a->n; x++)
						if (a->v[x].t == J_NUM && a->v[x].u_ok &&
						    a->v[x].u < 1 << 20)
							kb->nodes[kb->nnodes++] =
								(int)a->v[x].u;
				}
			}
		}
	}
	return 0;
}

int
kmem_load(struct kmemstate *ms, const char *path, bool verify, char *err,
	  size_t errlen)
{
	static const char v3[] = "could not load v3 checkpoint: ";
	struct jv doc, data;
	const struct jv *dv, *dc, *ck;
	char *text, why[200];
	size_t len;
	uint32_t sum;
	int r;

	memset(ms, 0, sizeof(*ms));
	memset(&data, 0, sizeof(data));
	r = read_file_at(AT_FDCWD, path,
			 &(struct read_opts){ .flags = READ_TEXT }, &text, &len);
	if (r < 0) {
		if (r != -ENOENT)
			snprintf(err, errlen, "cannot read '%s': %s", path,
				 r == -EILSEQ ? "it holds a NUL byte" :
				 read_strerror(r));
		return r;
	}
	r = jparse(text, len, &doc, why, sizeof(why));
	free(text);
	if (r < 0) {
		if (r == -EINVAL)
			snprintf(err, errlen, "'%s' is not a kubelet memory "
				 "manager checkpoint: %s", path, why);
		return r;
	}
	if (doc.t != J_OBJ) {
		snprintf(err, errlen, "'%s' is not a kubelet memory manager "
			 "checkpoint: not a JSON object", path);
		r = -EINVAL;
		goto out;
	}
	dv = jget(&doc, "data");
	dc = jget(&doc, "dataChecksum");
	ck = jget(&doc, "checksum");
	if ((dv && dv->t == J_STR && dv->s[0]) ||
	    (dc && dc->t == J_NUM && dc->u != 0)) {
		/* The dual format: the payload or nothing. */
		const char *d = dv && dv->t == J_STR ? dv->s : "";

		r = jparse(d, strlen(d), &data, why, sizeof(why));
		if (r == -EINVAL || (r == 0 && data.t != J_OBJ)) {
			snprintf(err, errlen, "'%s': %sfailed to deserialize "
				 "memory manager checkpoint data: %s", path, v3,
				 r ? why : "not a JSON object");
			r = -EINVAL;
			goto out;
		}
		if (r < 0)
			goto out;
		sum = fnv1a32(fnv1a32(FNV32_INIT, "(string)", 8), d, strlen(d));
		if (verify && (!dc || dc->t != J_NUM || dc->u != sum)) {
			snprintf(err, errlen, "'%s': %scheckpoint is corrupted "
				 "(computed checksum %u; --no-verify imports it "
				 "anyway)", path, v3, sum);
			r = -EINVAL;
			goto out;
		}
		r = take_blocks(ms, &data);
		goto out;
	}
	if (verify && ck && ck->t == J_NUM && !(ck->u == 0)) {
		uint32_t s2 = 0, s1 = 0;

		/* v2 (pod entries) first, then v1, as the kubelet. */
		if ((r = spew_sum(&doc, true, &s2)) < 0 ||
		    (r = spew_sum(&doc, false, &s1)) < 0)
			goto out;
		if (ck->u != s2 && ck->u != s1) {
			snprintf(err, errlen, "'%s': checkpoint is corrupted "
				 "(stored checksum %llu, computed %u; "
				 "--no-verify imports it anyway)", path,
				 (unsigned long long)ck->u, s2);
			r = -EINVAL;
			goto out;
		}
	}
	r = take_blocks(ms, &doc);
out:
	jv_free(&doc);
	jv_free(&data);
	if (r < 0)
		kmem_free(ms);
	return r;
}

void
kmem_free(struct kmemstate *ms)
{
	int i;

	for (i = 0; i < ms->nblocks; i++) {
		free(ms->blocks[i].pod);
		free(ms->blocks[i].container);
		free(ms->blocks[i].type);
		free(ms->blocks[i].nodes);
	}
	free(ms->blocks);
	free(ms->policy);
	memset(ms, 0, sizeof(*ms));
}

/* Add bytes on node to e's bookings, kept sorted by node. */
static int
book(struct alloc_entry *e, int node, uint64_t bytes)
{
	struct mem_booking *m;
	int i, k;

	for (i = 0; i < e->nmem && e->mem[i].node < node; i++)
		;
	if (i < e->nmem && e->mem[i].node == node) {
		e->mem[i].bytes += bytes;
		return 0;
	}
	m = realloc(e->mem, (size_t)(e->nmem + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	e->mem = m;
	for (k = e->nmem; k > i; k--)
		m[k] = m[k - 1];
	m[i].node = node;
	m[i].bytes = bytes;
	e->nmem++;
	return 0;
}

int
kmem_book(const struct kmemstate *ms, const struct topo *t,
	  struct alloc_import *im, const char *file, char *err,
	  size_t errlen)
{
	int i, k, x, n = 0;

	if (strcasecmp(ms->policy, "none") == 0 || ms->policy[0] == '\0')
		return 0;
	if (strcasecmp(ms->policy, "static") != 0) {
		snprintf(err, errlen, "'%s': [memorymanager] configured policy "
			 "\"Static\" differs from state checkpoint policy "
			 "\"%s\"", file, ms->policy);
		return -EINVAL;
	}
	for (i = 0; i < im->n; i++) {
		struct alloc_entry *e = &im->entries[i];
		bool got = false;

		for (k = 0; k < ms->nblocks; k++) {
			const struct kmem_block *b = &ms->blocks[k];
			size_t pl = strlen(b->pod);
			uint64_t each;

			if (strcmp(b->type, "memory") != 0 || b->nnodes == 0 ||
			    strncmp(e->name, b->pod, pl) != 0 ||
			    e->name[pl] != '/' ||
			    strcmp(e->name + pl + 1, b->container) != 0)
				continue;
			each = b->size / (uint64_t)b->nnodes;
			for (x = 0; x < b->nnodes; x++) {
				if (!topo_node_by_id(t, b->nodes[x])) {
					snprintf(err, errlen, "'%s': '%s' has "
						 "memory on NUMA node %d, which "
						 "this machine does not have",
						 file, e->name, b->nodes[x]);
					return -EINVAL;
				}
				if (book(e, b->nodes[x], each + (x == 0 ?
					 b->size % (uint64_t)b->nnodes : 0)) < 0)
					return -ENOMEM;
			}
			got = true;
		}
		n += got;
	}
	return n;
}
