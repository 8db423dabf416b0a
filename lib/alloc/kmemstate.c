// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kubelet's memory_manager_state: the document read as a tree with
 * jsonread.h (it nests maps, arrays and objects deeper than
 * cpu_manager_state, and its fields are looked up as Go's encoding/json
 * matches them), the go-spew renderings its checksums are taken over,
 * and the bookings its entries give cpm-alloc's imported allocations.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc/kmemstate.h"
#include "alloc/state.h"
#include "base/err.h"
#include "base/fileread.h"
#include "base/jsonread.h"
#include "base/strbuf.h"

/*
 * The document of len bytes into v.  A text cut short is refused in the
 * words of Go's encoding/json, which the kubelet prints.
 */
static int
jparse(const char *text, size_t len, struct jr_value *v, char *err,
       size_t errlen)
{
	size_t at;
	int r;

	r = jr_parse_text(text, len, v, &at, err, errlen);
	if (r == -EINVAL && at == len)
		snprintf(err, errlen, "unexpected end of JSON input");
	return r;
}

#define jget jr_member_fold

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
sorted(const struct jr_value *o, bool numeric)
{
	char **keys = malloc(sizeof(char *) * (size_t)(o->n + 1));
	int *idx = malloc(sizeof(int) * (size_t)(o->n + 1)), i, k;

	if (!keys || !idx) {
		free(keys);
		free(idx);
		return NULL;
	}
	/* Distinct keys (the last of a repeated one), sorted. */
	for (i = 0; i < (int)o->n; i++)
		keys[i] = o->keys[i];
	qsort(keys, (size_t)o->n, sizeof(*keys), numeric ? num_key_cmp :
	      key_cmp);
	for (i = 0; i < (int)o->n; i++) {
		idx[i] = -1;
		if (i > 0 && strcmp(keys[i], keys[i - 1]) == 0)
			continue;
		for (k = (int)o->n - 1; k >= 0; k--)
			if (strcmp(o->keys[k], keys[i]) == 0) {
				idx[i] = k;
				break;
			}
	}
	free(keys);
	return idx;
}

static void
r_uint(struct strbuf *sb, const char *field, const struct jr_value *v)
{
	strbuf_printf(sb, "%s:(uint64)%llu", field,
		      (unsigned long long)(v && v->type == JR_NUM ? v->num.u : 0));
}

static int
r_ints(struct strbuf *sb, const struct jr_value *a)
{
	int i;

	if (!a || a->type != JR_ARR) {
		strbuf_puts(sb, "<nil>");
		return 0;
	}
	strbuf_puts(sb, "[");
	for (i = 0; i < (int)a->n; i++)
		strbuf_printf(sb, "%s%s", i ? " " : "",
			      a->v[i].type == JR_NUM ? a->v[i].s : "0");
	strbuf_puts(sb, "]");
	return 0;
}

/* []Block as a field's or a map's value. */
static void
r_blocks(struct strbuf *sb, const struct jr_value *a)
{
	int i;

	if (!a || a->type != JR_ARR) {
		strbuf_puts(sb, "<nil>");
		return;
	}
	strbuf_puts(sb, "[");
	for (i = 0; i < (int)a->n; i++) {
		const struct jr_value *b = &a->v[i], *t = jget(b, "type");

		strbuf_printf(sb, "%s{NUMAAffinity:([]int)", i ? " " : "");
		r_ints(sb, jget(b, "numaAffinity"));
		strbuf_printf(sb, " Type:(v1.ResourceName)%s ",
			      t && t->type == JR_STR ? t->s : "");
		r_uint(sb, "Size", jget(b, "size"));
		strbuf_puts(sb, "}");
	}
	strbuf_puts(sb, "]");
}

static int
r_machine(struct strbuf *sb, const struct jr_value *m)
{
	int *idx, i, c;

	strbuf_puts(sb, "MachineState:(state.NUMANodeMap)map[");
	if (m && m->type == JR_OBJ) {
		if (!(idx = sorted(m, true)))
			return -ENOMEM;
		for (i = 0, c = 0; i < (int)m->n; i++) {
			const struct jr_value *n, *mm;
			int *mi, k, d = 0;

			if (idx[i] < 0)
				continue;
			n = &m->v[idx[i]];
			strbuf_printf(sb, "%s%s:<*>{NumberOfAssignments:(int)%s",
				      c++ ? " " : "", m->keys[idx[i]],
				      jget(n, "numberOfAssignments") &&
				      jget(n, "numberOfAssignments")->type == JR_NUM ?
				      jget(n, "numberOfAssignments")->s : "0");
			strbuf_puts(sb, " MemoryMap:(map[v1.ResourceName]"
				    "*state.MemoryTable)");
			mm = jget(n, "memoryMap");
			if (!mm || mm->type != JR_OBJ) {
				strbuf_puts(sb, "<nil>");
			} else {
				if (!(mi = sorted(mm, false))) {
					free(idx);
					return -ENOMEM;
				}
				strbuf_puts(sb, "map[");
				for (k = 0; k < (int)mm->n; k++) {
					const struct jr_value *t;

					if (mi[k] < 0)
						continue;
					t = &mm->v[mi[k]];
					strbuf_printf(sb, "%s%s:<*>{", d++ ? " " : "",
						      mm->keys[mi[k]]);
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
r_entries(struct strbuf *sb, const struct jr_value *e)
{
	int *pi, *ci, i, k, c = 0;

	strbuf_puts(sb, "Entries:(state.ContainerMemoryAssignments)map[");
	if (e && e->type == JR_OBJ) {
		if (!(pi = sorted(e, false)))
			return -ENOMEM;
		for (i = 0; i < (int)e->n; i++) {
			const struct jr_value *p;
			int d = 0;

			if (pi[i] < 0)
				continue;
			p = &e->v[pi[i]];
			strbuf_printf(sb, "%s%s:", c++ ? " " : "", e->keys[pi[i]]);
			if (p->type != JR_OBJ) {
				strbuf_puts(sb, "<nil>");
				continue;
			}
			if (!(ci = sorted(p, false))) {
				free(pi);
				return -ENOMEM;
			}
			strbuf_puts(sb, "map[");
			for (k = 0; k < (int)p->n; k++) {
				if (ci[k] < 0)
					continue;
				strbuf_printf(sb, "%s%s:", d++ ? " " : "",
					      p->keys[ci[k]]);
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
r_pods(struct strbuf *sb, const struct jr_value *e)
{
	int *pi, i, c = 0;

	strbuf_puts(sb, "PodEntries:(state.PodMemoryAssignments)map[");
	if (e && e->type == JR_OBJ) {
		if (!(pi = sorted(e, false)))
			return -ENOMEM;
		for (i = 0; i < (int)e->n; i++) {
			if (pi[i] < 0)
				continue;
			strbuf_printf(sb, "%s%s:{MemoryBlocks:([]state.Block)",
				      c++ ? " " : "", e->keys[pi[i]]);
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
spew_sum(const struct jr_value *d, bool pods, uint32_t *sum)
{
	const struct jr_value *p = jget(d, "policyName");
	struct strbuf sb;
	int r;

	strbuf_init(&sb);
	strbuf_printf(&sb, "(*state.MemoryManagerCheckpoint){PolicyName:"
		      "(string)%s ", p && p->type == JR_STR ? p->s : "");
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
take_blocks(struct kmemstate *ms, const struct jr_value *d)
{
	const struct jr_value *e = jget(d, "entries"), *p = jget(d, "policyName");
	int i, k, b, x;

	ms->policy = strdup(p && p->type == JR_STR ? p->s : "");
	if (!ms->policy)
		return -ENOMEM;
	if (!e || e->type != JR_OBJ)
		return 0;
	for (i = 0; i < (int)e->n; i++) {
		const struct jr_value *pod = &e->v[i];

		if (pod->type != JR_OBJ)
			continue;
		for (k = 0; k < (int)pod->n; k++) {
			const struct jr_value *bl = &pod->v[k];

			if (bl->type != JR_ARR)
				continue;
			for (b = 0; b < (int)bl->n; b++) {
				const struct jr_value *t = jget(&bl->v[b], "type");
				const struct jr_value *s = jget(&bl->v[b], "size");
				const struct jr_value *a = jget(&bl->v[b], "numaAffinity");
				struct kmem_block *nb, *kb;

				nb = realloc(ms->blocks, (size_t)(ms->nblocks + 1) *
					     sizeof(*nb));
				if (!nb)
					return -ENOMEM;
				ms->blocks = nb;
				kb = &nb[ms->nblocks++];
				memset(kb, 0, sizeof(*kb));
				kb->pod = strdup(e->keys[i]);
				kb->container = strdup(pod->keys[k]);
				kb->type = strdup(t && t->type == JR_STR ? t->s : "");
				kb->size = s && s->type == JR_NUM ? s->num.u : 0;
				if (!kb->pod || !kb->container || !kb->type)
					return -ENOMEM;
				if (a && a->type == JR_ARR && a->n > 0) {
					kb->nodes = malloc(sizeof(int) * (size_t)a->n);
					if (!kb->nodes)
						return -ENOMEM;
					for (x = 0; x < (int)a->n; x++)
						if (a->v[x].type == JR_NUM && a->v[x].num.is_u64 &&
						    a->v[x].num.u < 1 << 20)
							kb->nodes[kb->nnodes++] =
								(int)a->v[x].num.u;
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
	struct jr_value doc, data;
	const struct jr_value *dv, *dc, *ck;
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
	if (doc.type != JR_OBJ) {
		snprintf(err, errlen, "'%s' is not a kubelet memory manager "
			 "checkpoint: not a JSON object", path);
		r = -EINVAL;
		goto out;
	}
	dv = jget(&doc, "data");
	dc = jget(&doc, "dataChecksum");
	ck = jget(&doc, "checksum");
	if ((dv && dv->type == JR_STR && dv->s[0]) ||
	    (dc && dc->type == JR_NUM && dc->num.u != 0)) {
		/* The dual format: the payload or nothing. */
		const char *d = dv && dv->type == JR_STR ? dv->s : "";

		r = jparse(d, strlen(d), &data, why, sizeof(why));
		if (r == -EINVAL || (r == 0 && data.type != JR_OBJ)) {
			snprintf(err, errlen, "'%s': %sfailed to deserialize "
				 "memory manager checkpoint data: %s", path, v3,
				 r ? why : "not a JSON object");
			r = -EINVAL;
			goto out;
		}
		if (r < 0)
			goto out;
		sum = fnv1a32(fnv1a32(FNV32_INIT, "(string)", 8), d, strlen(d));
		if (verify && (!dc || dc->type != JR_NUM || dc->num.u != sum)) {
			snprintf(err, errlen, "'%s': %scheckpoint is corrupted "
				 "(computed checksum %u; --no-verify imports it "
				 "anyway)", path, v3, sum);
			r = -EINVAL;
			goto out;
		}
		r = take_blocks(ms, &data);
		goto out;
	}
	if (verify && ck && ck->type == JR_NUM && !(ck->num.u == 0)) {
		uint32_t s2 = 0, s1 = 0;

		/* v2 (pod entries) first, then v1, as the kubelet. */
		if ((r = spew_sum(&doc, true, &s2)) < 0 ||
		    (r = spew_sum(&doc, false, &s1)) < 0)
			goto out;
		if (ck->num.u != s2 && ck->num.u != s1) {
			snprintf(err, errlen, "'%s': checkpoint is corrupted "
				 "(stored checksum %llu, computed %u; "
				 "--no-verify imports it anyway)", path,
				 (unsigned long long)ck->num.u, s2);
			r = -EINVAL;
			goto out;
		}
	}
	r = take_blocks(ms, &doc);
out:
	jr_value_free(&doc);
	jr_value_free(&data);
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

/* Add bytes of kb kB pages on node to e's huge pages, by size, then node. */
static int
book_huge(struct alloc_entry *e, unsigned int kb, int node, uint64_t bytes)
{
	struct huge_booking *m;
	int i, k;

	for (i = 0; i < e->nhuge && (e->huge[i].kb < kb ||
				     (e->huge[i].kb == kb &&
				      e->huge[i].node < node)); i++)
		;
	if (i < e->nhuge && e->huge[i].kb == kb && e->huge[i].node == node) {
		e->huge[i].bytes += bytes;
		return 0;
	}
	m = realloc(e->huge, (size_t)(e->nhuge + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	e->huge = m;
	for (k = e->nhuge; k > i; k--)
		m[k] = m[k - 1];
	m[i].kb = kb;
	m[i].node = node;
	m[i].bytes = bytes;
	e->nhuge++;
	return 0;
}

/*
 * Book block b on e: memory split evenly over its nodes (the remainder
 * on the lowest), huge pages split evenly in whole pages.
 */
static int
book_block(struct alloc_entry *e, const struct kmem_block *b, unsigned int kb)
{
	uint64_t unit = kb ? (uint64_t)kb * 1024 : 1;
	uint64_t units = b->size / unit, each = units / (uint64_t)b->nnodes;
	int x, r;

	for (x = 0; x < b->nnodes; x++) {
		uint64_t bytes = each * unit;

		if (x == 0)
			bytes += b->size - each * unit * (uint64_t)b->nnodes;
		r = kb ? book_huge(e, kb, b->nodes[x], bytes) :
			 book(e, b->nodes[x], bytes);
		if (r < 0)
			return r;
	}
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
	for (i = 0; i < (int)im->n; i++) {
		struct alloc_entry *e = &im->entries[i];
		bool got = false;

		for (k = 0; k < ms->nblocks; k++) {
			const struct kmem_block *b = &ms->blocks[k];
			size_t pl = strlen(b->pod);
			unsigned int kb;

			/* Memory, and huge pages of a size named as the
			 * kubelet names it; anything else is not booked. */
			if (alloc_mem_resource(b->type, &kb) < 0 ||
			    b->nnodes == 0 ||
			    strncmp(e->name, b->pod, pl) != 0 ||
			    e->name[pl] != '/' ||
			    strcmp(e->name + pl + 1, b->container) != 0)
				continue;
			for (x = 0; x < b->nnodes; x++)
				if (!topo_node_by_id(t, b->nodes[x])) {
					snprintf(err, errlen, "'%s': '%s' has "
						 "memory on NUMA node %d, which "
						 "this machine does not have",
						 file, e->name, b->nodes[x]);
					return -EINVAL;
				}
			if (book_block(e, b, kb) < 0)
				return -ENOMEM;
			got = true;
		}
		n += got;
	}
	return n;
}
