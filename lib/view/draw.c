// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine as a picture (see draw.h).  Three steps, shared by the
 * terminal and the SVG:
 *   1. the levels: which ways of grouping CPUs become boxes, and in
 *      which order they nest (level_chain());
 *   2. the tree: boxes, cores (runs of thread cells) and text items
 *      (devices, memory attributes, the header and the legend);
 *   3. the layout: each item's size within the width it may take, its
 *      children flowed left to right and folded onto new rows, rows
 *      balanced so that a fold leaves no lone item behind.
 * The text is then painted on a grid of cells; the SVG draws the same
 * rectangles at the same places, scaled.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "view/draw.h"

enum { LV_PACKAGE, LV_DIE, LV_NODE, LV_L3, LV_N };
enum { IT_BOX, IT_CORE, IT_TEXT };
/* Kids flow in runs of one class, each run from a new row. */
enum { RUN_CPUS, RUN_LOOSE, RUN_MEMORY, RUN_TEXT };

/* What colors an item: the index of its SGR code and SVG colors. */
enum ink {
	INK_NONE, INK_PACKAGE, INK_DIE, INK_NODE, INK_L3, INK_MEM, INK_DEV,
	INK_DIM, INK_OFFLINE, INK_ISOLATED, INK_RESERVED, INK_TITLE,
	INK_HOLDER,		/* + holder index modulo NPALETTE */
};
#define NPALETTE 8

static const char *const sgr_base[] = {
	[INK_NONE] = "0", [INK_PACKAGE] = "34", [INK_DIE] = "36",
	[INK_NODE] = "32", [INK_L3] = "36", [INK_MEM] = "35",
	[INK_DEV] = "33", [INK_DIM] = "2", [INK_OFFLINE] = "31",
	[INK_ISOLATED] = "35", [INK_RESERVED] = "33", [INK_TITLE] = "1",
};
static const char *const sgr_holder[NPALETTE] = {
	"1;44;97", "1;42;97", "1;45;97", "1;46;30", "1;43;30", "1;41;97",
	"1;104;30", "1;102;30",
};
/* SVG: stroke and fill of each ink. */
static const char *const svg_stroke[] = {
	[INK_NONE] = "#444", [INK_PACKAGE] = "#2b59c3", [INK_DIE] = "#1c8a9a",
	[INK_NODE] = "#2e8b3a", [INK_L3] = "#1c8a9a", [INK_MEM] = "#8e3fa8",
	[INK_DEV] = "#a66a00", [INK_DIM] = "#999", [INK_OFFLINE] = "#c0392b",
	[INK_ISOLATED] = "#8e3fa8", [INK_RESERVED] = "#a66a00",
	[INK_TITLE] = "#000",
};
static const char *const svg_fill[] = {
	[INK_NONE] = "#ffffff", [INK_PACKAGE] = "#eef2fb",
	[INK_DIE] = "#e9f6f7", [INK_NODE] = "#eef8ef", [INK_L3] = "#e4f3f5",
	[INK_MEM] = "#f6ecf9", [INK_DEV] = "#fff6e0", [INK_DIM] = "#f4f4f4",
	[INK_OFFLINE] = "#f6d5d1", [INK_ISOLATED] = "#ecd9f2",
	[INK_RESERVED] = "#fbe8b8", [INK_TITLE] = "#ffffff",
};
static const char *const svg_holder[NPALETTE] = {
	"#4a78d0", "#3f9e4d", "#a455c0", "#39a9b8", "#d9a520", "#d0504a",
	"#7fa3ee", "#7fd08a",
};

struct item {
	int type;
	int ink;
	bool own_row;		/* a line of its own (header, legend) */
	int cls;		/* a run of like items: RUN_* */
	char *text;		/* box label or text; malloc'ed */
	int *kids, nkids, capkids;
	int first, n;		/* a core: order[first..first+n) */
	int w, h, x, y;		/* x, y: within the parent's content */
};

struct chain_el {
	int nlv;
	int lv[LV_N];		/* the first one names the box's keys */
};

struct drawing {
	const struct draw_input *in;
	const struct draw_opts *o;
	const struct topo *t;
	struct item *items;
	int nitems, cap;
	int *order;		/* the CPUs drawn, in the order drawn */
	int norder;
	long long *keys;	/* [norder][nchain + 1]: the last one the core */
	struct chain_el chain[LV_N];
	int nchain;
	int cw;			/* a cell's width in columns */
	int rows;		/* rows per cell: 1, or 2 with marks */
	bool markcol;		/* cpm-topo draw: a column for x and ~ */
	int *nodebox;		/* [topo nnodes]: the box of each node, -1 */
	bool oom;
	/* the grid the text is painted on */
	uint32_t *grid;
	unsigned char *gink;
	int gw, gh;
};

/* ---- glyphs ---- */

static const char *const glyph_uni[DRAW_NKINDS] = {
	[DRAW_PLAIN] = " ", [DRAW_SHARED] = "\u00b7",
	[DRAW_RESERVED] = "\u25b2", [DRAW_EXCLUSIVE] = "\u2588",
	[DRAW_SHARE] = "\u25c6", [DRAW_ISOLATED] = "\u25c7",
	[DRAW_OFFLINE] = "\u2717",
};
static const char *const glyph_ascii[DRAW_NKINDS] = {
	[DRAW_PLAIN] = " ", [DRAW_SHARED] = ".", [DRAW_RESERVED] = "*",
	[DRAW_EXCLUSIVE] = "#", [DRAW_SHARE] = "+", [DRAW_ISOLATED] = "~",
	[DRAW_OFFLINE] = "x",
};
static const char *const kind_names[DRAW_NKINDS] = {
	[DRAW_PLAIN] = "", [DRAW_SHARED] = "shared",
	[DRAW_RESERVED] = "reserved", [DRAW_EXCLUSIVE] = "exclusive",
	[DRAW_SHARE] = "share", [DRAW_ISOLATED] = "isolated",
	[DRAW_OFFLINE] = "offline",
};

const char *
draw_glyph(enum draw_kind k, bool ascii)
{
	if ((unsigned int)k >= DRAW_NKINDS)
		k = DRAW_PLAIN;
	return ascii ? glyph_ascii[k] : glyph_uni[k];
}

const char *
draw_kind_name(enum draw_kind k)
{
	return (unsigned int)k < DRAW_NKINDS ? kind_names[k] : "";
}

void
draw_holder_key(int i, int n, char key[3])
{
	static const char letters[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

	if (n <= 52) {
		key[0] = letters[i % 52];
		key[1] = '\0';
	} else {
		key[0] = letters[(i / 52) % 52];
		key[1] = letters[i % 52];
		key[2] = '\0';
	}
}

/* Display columns of UTF-8 text: one per code point. */
static int
text_cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* ---- the CPUs' kinds ---- */

static enum draw_kind
cpu_kind(const struct drawing *d, int cpu)
{
	const struct draw_marks *m = d->in->marks;

	if (m && cpu < m->ncpus)
		return (enum draw_kind)m->kind[cpu];
	if (!d->t->cpus[cpu].online)
		return DRAW_OFFLINE;
	if (d->t->cpus[cpu].isolated)
		return DRAW_ISOLATED;
	return DRAW_PLAIN;
}

static int
cpu_holder(const struct drawing *d, int cpu)
{
	const struct draw_marks *m = d->in->marks;

	return m && cpu < m->ncpus ? m->holder[cpu] : -1;
}

static int
cpu_ink(const struct drawing *d, int cpu)
{
	int h = cpu_holder(d, cpu);

	switch (cpu_kind(d, cpu)) {
	case DRAW_OFFLINE:
		return INK_OFFLINE;
	case DRAW_EXCLUSIVE:
	case DRAW_SHARE:
		return h >= 0 ? INK_HOLDER + h % NPALETTE : INK_NONE;
	case DRAW_ISOLATED:
		return INK_ISOLATED;
	case DRAW_RESERVED:
		return INK_RESERVED;
	case DRAW_SHARED:
		return INK_DIM;
	default:
		return INK_NONE;
	}
}

/* ---- levels ---- */

static long long
level_key(const struct topo *t, int cpu, int lv)
{
	const struct topo_cpu *c = &t->cpus[cpu];

	switch (lv) {
	case LV_PACKAGE:
		return c->socket;
	case LV_DIE:
		return c->socket >= 0 && c->die >= 0 ?
			(long long)c->socket * 65536 + c->die : -1;
	case LV_NODE:
		return c->node;
	case LV_L3:
		return c->l3;
	default:
		return c->core;
	}
}

struct pair {
	long long a, b;
};

static int
pair_cmp(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

/*
 * Whether level a's groups each lie in one group of level b, over the
 * CPUs where both are known: 1 yes, 0 no, -ENOMEM.
 */
static int
refines(const struct drawing *d, int a, int b)
{
	struct pair *p = malloc(sizeof(*p) * (size_t)(d->norder + 1));
	int i, n = 0, r = 1;

	if (p == NULL)
		return -ENOMEM;
	for (i = 0; i < d->norder; i++) {
		long long ka = level_key(d->t, d->order[i], a);
		long long kb = level_key(d->t, d->order[i], b);

		if (ka >= 0 && kb >= 0)
			p[n++] = (struct pair){ ka, kb };
	}
	qsort(p, (size_t)n, sizeof(*p), pair_cmp);
	for (i = 1; i < n; i++)
		if (p[i].a == p[i - 1].a && p[i].b != p[i - 1].b)
			r = 0;
	free(p);
	return r;
}

static bool
level_known(const struct drawing *d, int lv)
{
	int i;

	for (i = 0; i < d->norder; i++)
		if (level_key(d->t, d->order[i], lv) >= 0)
			return true;
	return false;
}

/*
 * The boxes' levels, coarsest first: each level in turn (packages,
 * nodes, L3 groups, dies) joins the chain where it nests, shares the box
 * of a level that groups the CPUs alike, or stays out when it crosses
 * one.  Returns 0 or -ENOMEM.
 */
static int
level_chain(struct drawing *d)
{
	static const int prio[] = { LV_PACKAGE, LV_NODE, LV_L3, LV_DIE };
	size_t p;
	int i, k;

	d->nchain = 0;
	for (p = 0; p < sizeof(prio) / sizeof(prio[0]); p++) {
		int lv = prio[p], pos = 0, same = -1;
		bool crosses = false;

		if (!level_known(d, lv))
			continue;
		for (i = 0; i < d->nchain && !crosses && same < 0; i++) {
			int rep = d->chain[i].lv[0];
			int finer = refines(d, lv, rep);
			int coarser = refines(d, rep, lv);

			if (finer < 0 || coarser < 0)
				return -ENOMEM;
			if (finer && coarser)
				same = i;
			else if (finer)
				pos = i + 1;
			else if (!coarser)
				crosses = true;
		}
		if (crosses)
			continue;
		if (same >= 0) {
			d->chain[same].lv[d->chain[same].nlv++] = lv;
			continue;
		}
		for (k = d->nchain; k > pos; k--)
			d->chain[k] = d->chain[k - 1];
		d->chain[pos].nlv = 1;
		d->chain[pos].lv[0] = lv;
		d->nchain++;
	}
	return 0;
}

#define KEY(d, i, k) ((d)->keys[(size_t)(i) * (size_t)((d)->nchain + 1) + (size_t)(k)])

/*
 * A CPU the kernel says little about (an offline one: its node, from
 * the node's list, and nothing else) goes where its known levels put
 * it: a coarser key it lacks is that of a CPU sharing a finer one.
 */
static void
infer_keys(struct drawing *d)
{
	int i, j, k, f, m;

	for (i = 0; i < d->norder; i++) {
		for (k = 0; k < d->nchain; k++) {
			long long key = -1;

			for (m = 0; m < d->chain[k].nlv && key < 0; m++)
				key = level_key(d->t, d->order[i],
						d->chain[k].lv[m]);
			if (key >= 0 && m == 1) {
				KEY(d, i, k) = key;
				continue;
			}
			/* Not its own level's key: find a CPU that shares
			 * one of this CPU's known keys here or deeper. */
			KEY(d, i, k) = -1;
			for (f = k; f < d->nchain && KEY(d, i, k) < 0; f++) {
				for (m = 0; m < d->chain[f].nlv; m++) {
					int lv = d->chain[f].lv[m];
					long long mine = level_key(d->t, d->order[i], lv);

					if (mine < 0)
						continue;
					for (j = 0; j < d->norder; j++) {
						long long rep = level_key(d->t, d->order[j],
									  d->chain[k].lv[0]);

						if (rep >= 0 && level_key(d->t, d->order[j], lv) == mine) {
							KEY(d, i, k) = rep;
							break;
						}
					}
					if (KEY(d, i, k) >= 0)
						break;
				}
			}
		}
		KEY(d, i, d->nchain) = d->t->cpus[d->order[i]].core;
	}
}

static struct drawing *sort_ctx;

static int
key_cmp(long long a, long long b)
{
	if (a == b)
		return 0;
	if (a < 0 || b < 0)	/* unknown goes last */
		return a < 0 ? 1 : -1;
	return a < b ? -1 : 1;
}

static int
order_cmp(const void *x, const void *y)
{
	const struct drawing *d = sort_ctx;
	int i = *(const int *)x, j = *(const int *)y, k, c;

	for (k = 0; k <= d->nchain; k++) {
		c = key_cmp(KEY(d, i, k), KEY(d, j, k));
		if (c)
			return c;
	}
	return (d->order[i] > d->order[j]) - (d->order[i] < d->order[j]);
}

/* Sort the CPUs by their keys: the tree's groups become runs. */
static int
sort_cpus(struct drawing *d)
{
	size_t row = (size_t)d->nchain + 1;
	int *idx = malloc(sizeof(int) * (size_t)(d->norder + 1));
	int *order = malloc(sizeof(int) * (size_t)(d->norder + 1));
	long long *keys = malloc(sizeof(long long) * row *
				 (size_t)(d->norder + 1));
	int i;

	if (idx == NULL || order == NULL || keys == NULL) {
		free(idx);
		free(order);
		free(keys);
		return -ENOMEM;
	}
	for (i = 0; i < d->norder; i++)
		idx[i] = i;
	sort_ctx = d;
	qsort(idx, (size_t)d->norder, sizeof(int), order_cmp);
	for (i = 0; i < d->norder; i++) {
		order[i] = d->order[idx[i]];
		memcpy(keys + row * (size_t)i, d->keys + row * (size_t)idx[i],
		       row * sizeof(long long));
	}
	free(d->order);
	free(d->keys);
	free(idx);
	d->order = order;
	d->keys = keys;
	return 0;
}

/* ---- the tree ---- */

static int
new_item(struct drawing *d, int type, int ink, char *text)
{
	struct item *it;

	if (d->nitems == d->cap) {
		int cap = d->cap ? d->cap * 2 : 64;
		struct item *n = realloc(d->items, sizeof(*n) * (size_t)cap);

		if (n == NULL) {
			d->oom = true;
			free(text);
			return -1;
		}
		d->items = n;
		d->cap = cap;
	}
	it = &d->items[d->nitems];
	memset(it, 0, sizeof(*it));
	it->type = type;
	it->ink = ink;
	it->text = text;
	return d->nitems++;
}

static void
add_kid(struct drawing *d, int parent, int kid)
{
	struct item *p;

	if (parent < 0 || kid < 0)
		return;
	p = &d->items[parent];
	if (p->nkids == p->capkids) {
		int cap = p->capkids ? p->capkids * 2 : 4;
		int *n = realloc(p->kids, sizeof(int) * (size_t)cap);

		if (n == NULL) {
			d->oom = true;
			return;
		}
		p->kids = n;
		p->capkids = cap;
	}
	p->kids[p->nkids++] = kid;
}

static char *
sb_take(struct drawing *d, struct strbuf *sb)
{
	char *s;

	if (sb->oom || (s = strdup(sb->buf ? sb->buf : "")) == NULL) {
		d->oom = true;
		s = NULL;
	}
	strbuf_free(sb);
	return s;
}

static void
put_size_kb(struct strbuf *sb, int64_t kb)
{
	if (kb >= 1024 * 1024)
		strbuf_printf(sb, "%.1f GiB", (double)kb / (1024.0 * 1024.0));
	else if (kb >= 1024)
		strbuf_printf(sb, "%lld MiB", (long long)(kb / 1024));
	else
		strbuf_printf(sb, "%lld KiB", (long long)kb);
}

static const char *
sep(const struct drawing *d)
{
	return d->o->ascii ? " - " : " \u00b7 ";
}

static void
node_words(const struct drawing *d, int node, struct strbuf *sb)
{
	const struct topo_node *n = topo_node_by_id(d->t, node);
	const struct mem_node *mn = d->in->mem ? memtier_node(d->in->mem, node) :
		NULL;
	bool paren = false;

	strbuf_printf(sb, "Node %d", node);
	if (n && n->mem_total_kb >= 0) {
		strbuf_puts(sb, " (");
		put_size_kb(sb, n->mem_total_kb);
		paren = true;
	}
	if (mn && mn->tier >= 0) {
		strbuf_printf(sb, "%stier %d", paren ? ", " : " (", mn->tier);
		paren = true;
	}
	if (paren)
		strbuf_puts(sb, ")");
}

/* The label of a box of chain element k for the CPU at order[i]. */
static char *
box_label(struct drawing *d, int k, int i)
{
	const struct chain_el *el = &d->chain[k];
	int cpu = d->order[i], m, parts = 0;
	struct strbuf sb;

	strbuf_init(&sb);
	for (m = 0; m < el->nlv; m++) {
		long long key = m == 0 ? KEY(d, i, k) :
			level_key(d->t, cpu, el->lv[m]);
		int lv = el->lv[m];

		if (lv == LV_DIE && m > 0)
			continue;	/* a die per package says nothing */
		if (parts++)
			strbuf_puts(&sb, sep(d));
		if (lv == LV_PACKAGE) {
			strbuf_printf(&sb, "Package %lld", key);
		} else if (lv == LV_DIE) {
			strbuf_printf(&sb, "Die %lld", key % 65536);
		} else if (lv == LV_NODE) {
			node_words(d, (int)key, &sb);
		} else {
			const struct topo_l3 *l = key >= 0 && key < d->t->nl3 ?
				&d->t->l3s[key] : NULL;

			strbuf_puts(&sb, "L3");
			if (l && l->size_kb > 0) {
				strbuf_puts(&sb, " ");
				put_size_kb(&sb, l->size_kb);
			}
		}
	}
	return sb_take(d, &sb);
}

static int
chain_ink(const struct drawing *d, int k)
{
	switch (d->chain[k].lv[0]) {
	case LV_PACKAGE:
		return INK_PACKAGE;
	case LV_DIE:
		return INK_DIE;
	case LV_NODE:
		return INK_NODE;
	default:
		return INK_L3;
	}
}

static int
node_index(const struct topo *t, int node)
{
	const struct topo_node *n = topo_node_by_id(t, node);

	return n ? (int)(n - t->nodes) : -1;
}

/* Boxes for the CPUs order[a..b) below parent, from chain element k. */
static void
build(struct drawing *d, int parent, int a, int b, int k)
{
	int i = a, j, m;

	while (i < b && !d->oom) {
		long long key = KEY(d, i, k);

		for (j = i + 1; j < b && KEY(d, j, k) == key; j++)
			;
		if (k == d->nchain) {
			/* a core, or CPUs whose core is unknown one by one */
			int n = key >= 0 ? j - i : 1;
			int c = new_item(d, IT_CORE, INK_NONE, NULL);

			if (c >= 0) {
				d->items[c].first = i;
				d->items[c].n = n;
				d->items[c].cls = key >= 0 ? RUN_CPUS : RUN_LOOSE;
			}
			add_kid(d, parent, c);
			i += n;
			continue;
		}
		if (key < 0) {
			build(d, parent, i, j, k + 1);
		} else {
			int box = new_item(d, IT_BOX, chain_ink(d, k),
					   box_label(d, k, i));

			add_kid(d, parent, box);
			for (m = 0; m < d->chain[k].nlv; m++) {
				int lv = d->chain[k].lv[m], ni;

				if (lv != LV_NODE || box < 0)
					continue;
				ni = node_index(d->t, (int)(m == 0 ? key :
					level_key(d->t, d->order[i], lv)));
				if (ni >= 0)
					d->nodebox[ni] = box;
			}
			build(d, box, i, j, k + 1);
		}
		i = j;
	}
}

static void
add_text(struct drawing *d, int parent, int ink, bool own_row,
	 struct strbuf *sb)
{
	int it = new_item(d, IT_TEXT, ink, sb_take(d, sb));

	if (it >= 0) {
		d->items[it].own_row = own_row;
		d->items[it].cls = RUN_TEXT;
	}
	add_kid(d, parent, it);
}

static void
device_words(const struct device *dev, struct strbuf *sb)
{
	const char *name = dev->names ? dev->names : dev->addr;
	const char *comma = strchr(name, ',');

	strbuf_add(sb, name, comma ? (size_t)(comma - name) : strlen(name));
	strbuf_printf(sb, " (%s", device_kind_name(dev->kind));
}

/* Devices under their node's box; the others on the machine's level. */
static void
add_devices(struct drawing *d, int root)
{
	const struct devices *ds = d->in->devs;
	int i;

	for (i = 0; ds && i < ds->n; i++) {
		const struct device *dev = &ds->devs[i];
		int ni = dev->node >= 0 ? node_index(d->t, dev->node) : -1;
		int box = ni >= 0 ? d->nodebox[ni] : -1;
		struct strbuf sb;

		if (!device_shown(dev))
			continue;
		strbuf_init(&sb);
		device_words(dev, &sb);
		if (box < 0 && dev->node >= 0)
			strbuf_printf(&sb, ", node %d", dev->node);
		else if (box < 0)
			strbuf_puts(&sb, ", no node");
		strbuf_puts(&sb, ")");
		add_text(d, box >= 0 ? box : root, INK_DEV, false, &sb);
	}
}

/* CPU-less memory nodes: boxes beside the packages. */
static void
add_memory_nodes(struct drawing *d, int root)
{
	const struct topo *t = d->t;
	int i;

	for (i = 0; i < t->nnodes; i++) {
		const struct mem_node *mn = d->in->mem ?
			memtier_node(d->in->mem, t->nodes[i].id) : NULL;
		int cls = mn ? memtier_class(mn) : -1;
		struct strbuf sb;
		int box;

		if (d->nodebox[i] >= 0 || !cpuset_empty(&t->nodes[i].cpulist) ||
		    (mn && mn->has_cpus))
			continue;
		strbuf_init(&sb);
		node_words(d, t->nodes[i].id, &sb);
		box = new_item(d, IT_BOX, INK_MEM, sb_take(d, &sb));
		add_kid(d, root, box);
		if (box >= 0) {
			d->nodebox[i] = box;
			d->items[box].cls = RUN_MEMORY;
		}
		strbuf_init(&sb);
		strbuf_puts(&sb, "no CPUs");
		add_text(d, box, INK_MEM, false, &sb);
		if (cls >= 0 && mn->access[cls].read_bw > 0) {
			strbuf_init(&sb);
			strbuf_printf(&sb, "%lld MB/s", (long long)mn->access[cls].read_bw);
			if (mn->access[cls].read_lat > 0)
				strbuf_printf(&sb, ", %lld ns",
					      (long long)mn->access[cls].read_lat);
			add_text(d, box, INK_MEM, false, &sb);
		}
	}
}

static void
add_header(struct drawing *d, int root)
{
	const struct topo *t = d->t;
	struct strbuf sb;
	int64_t kb = 0;
	int i, off = 0;

	for (i = 0; i < d->norder; i++)
		off += !t->cpus[d->order[i]].online;
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].mem_total_kb > 0)
			kb += t->nodes[i].mem_total_kb;
	strbuf_init(&sb);
	strbuf_printf(&sb, "Machine: %d CPUs", d->norder);
	if (off)
		strbuf_printf(&sb, " (%d offline)", off);
	if (t->nsockets)
		strbuf_printf(&sb, ", %d package%s", t->nsockets,
			      t->nsockets == 1 ? "" : "s");
	if (t->nnodes)
		strbuf_printf(&sb, ", %d NUMA node%s", t->nnodes,
			      t->nnodes == 1 ? "" : "s");
	if (kb) {
		strbuf_puts(&sb, ", ");
		put_size_kb(&sb, kb);
	}
	add_text(d, root, INK_TITLE, true, &sb);
}

/* The legend: the glyphs in use, and with marks each holder's key. */
static void
add_legend(struct drawing *d, int root)
{
	const struct draw_marks *m = d->in->marks;
	bool used[DRAW_NKINDS] = { false };
	struct strbuf sb;
	int i, k, n = 0;

	for (i = 0; i < d->norder; i++)
		used[cpu_kind(d, d->order[i])] = true;
	strbuf_init(&sb);
	for (k = DRAW_SHARED; k < DRAW_NKINDS; k++) {
		if (!used[k] && !m)
			continue;
		strbuf_printf(&sb, "%s%s %s", n++ ? "  " : "",
			      draw_glyph((enum draw_kind)k, d->o->ascii),
			      kind_names[k]);
	}
	if (n)
		add_text(d, root, INK_NONE, true, &sb);
	else
		strbuf_free(&sb);
	for (i = 0; m && i < m->nholders; i++) {
		const struct draw_holder *h = &m->holders[i];
		char key[3];
		int it;

		draw_holder_key(i, m->nholders, key);
		strbuf_init(&sb);
		strbuf_printf(&sb, "%s%s %s: %s, CPUs %s",
			      draw_glyph(h->kind, d->o->ascii), key, h->name,
			      kind_names[h->kind], h->cpus ? h->cpus : "");
		it = new_item(d, IT_TEXT, INK_HOLDER + i % NPALETTE,
			      sb_take(d, &sb));
		if (it >= 0) {
			d->items[it].own_row = true;
			d->items[it].cls = RUN_TEXT;
		}
		add_kid(d, root, it);
	}
}

/* ---- the layout ---- */

static int
gap_after(const struct drawing *d, const struct item *a)
{
	if (a->type == IT_CORE)
		return d->t->threads_per_core > 1 ? 2 : 1;
	return a->type == IT_TEXT ? 3 : 1;
}

/*
 * Place kids[from..to) in rows from (0, *y) within width; rows hold at
 * most per items (0: as many as fit).  Returns the widest row; *y moves
 * below the rows.
 */
static int
flow(struct drawing *d, const int *kids, int from, int to, int width,
     int per, int *y, int *rows)
{
	int i = from, widest = 0;

	*rows = 0;
	while (i < to) {
		(*rows)++;
		int x = 0, h = 0, n = 0;

		while (i < to && (per == 0 || n < per)) {
			struct item *it = &d->items[kids[i]];

			if (n > 0 && x + it->w > width)
				break;
			it->x = x;
			it->y = *y;
			x += it->w + gap_after(d, it);
			if (it->h > h)
				h = it->h;
			if (x - gap_after(d, it) > widest)
				widest = x - gap_after(d, it);
			n++;
			i++;
		}
		*y += h;
	}
	return widest;
}

/* Rows of kids[from..to), balanced: the same count in every row. */
static int
flow_balanced(struct drawing *d, const int *kids, int from, int to,
	      int width, int *y)
{
	int y0 = *y, w, first = 0, x = 0, rows, per, got, i, widest = 0;

	/* Boxes side by side look alike: one width for all of them. */
	for (i = from; i < to; i++)
		if (d->items[kids[i]].type == IT_BOX && d->items[kids[i]].w > widest)
			widest = d->items[kids[i]].w;
	if (widest <= width)
		for (i = from; i < to; i++)
			if (d->items[kids[i]].type == IT_BOX)
				d->items[kids[i]].w = widest;

	while (from + first < to) {
		const struct item *it = &d->items[kids[from + first]];

		if (first > 0 && x + it->w > width)
			break;
		x += it->w + gap_after(d, it);
		first++;
	}
	rows = (to - from + first - 1) / first;
	per = (to - from + rows - 1) / rows;
	w = flow(d, kids, from, to, width, per, y, &got);
	if (got > rows) {
		/* uneven items: fill rows greedily instead */
		*y = y0;
		w = flow(d, kids, from, to, width, 0, y, &got);
	}
	return w;
}

static void
layout(struct drawing *d, int id, int maxw, bool border)
{
	struct item *it = &d->items[id];
	int pad = border ? 4 : 0, inner = maxw - pad, i, j, y = 0, w = 0;

	if (inner < 1)
		inner = 1;
	if (it->type == IT_CORE) {
		it->w = it->n * d->cw + it->n - 1;
		it->h = d->rows;
		return;
	}
	if (it->type == IT_TEXT) {
		it->w = text_cols(it->text ? it->text : "");
		if (it->w > maxw)
			it->w = maxw;
		it->h = 1;
		return;
	}
	for (i = 0; i < it->nkids; i++)
		layout(d, it->kids[i], inner, true);
	it = &d->items[id];	/* no realloc here, but be plain */
	/* runs of like items: CPU content, then texts; own rows alone */
	for (i = 0; i < it->nkids; i = j) {
		const struct item *a = &d->items[it->kids[i]];
		int rw;

		for (j = i + 1; j < it->nkids && !a->own_row; j++) {
			const struct item *b = &d->items[it->kids[j]];

			if (b->own_row || b->cls != a->cls)
				break;
		}
		rw = flow_balanced(d, it->kids, i, j, inner, &y);
		if (rw > w)
			w = rw;
	}
	if (border) {
		int lw = text_cols(it->text ? it->text : "");

		if (lw > w)
			w = lw;
		w += pad;
		if (w > maxw)
			w = maxw;
		y += 2;
	}
	it->w = w;
	it->h = y;
}

/* ---- painting the text ---- */

static void
put_cp(struct drawing *d, int x, int y, uint32_t cp, int ink)
{
	if (x < 0 || y < 0 || x >= d->gw || y >= d->gh)
		return;
	d->grid[(size_t)y * (size_t)d->gw + (size_t)x] = cp;
	d->gink[(size_t)y * (size_t)d->gw + (size_t)x] = (unsigned char)ink;
}

/* UTF-8 s at (x, y), at most maxw columns.  Returns the columns used. */
static int
put_str(struct drawing *d, int x, int y, const char *s, int maxw, int ink)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = 0;

	while (*p && n < maxw) {
		uint32_t cp = *p++;

		if (cp >= 0xf0 && p[0] && p[1] && p[2]) {
			cp = ((cp & 7) << 18) | ((uint32_t)(p[0] & 0x3f) << 12) |
			     ((uint32_t)(p[1] & 0x3f) << 6) | (p[2] & 0x3f);
			p += 3;
		} else if (cp >= 0xe0 && p[0] && p[1]) {
			cp = ((cp & 15) << 12) | ((uint32_t)(p[0] & 0x3f) << 6) |
			     (p[1] & 0x3f);
			p += 2;
		} else if (cp >= 0xc0 && p[0]) {
			cp = ((cp & 31) << 6) | (p[0] & 0x3f);
			p++;
		} else if (cp >= 0x80) {
			cp = '?';
		}
		put_cp(d, x + n++, y, cp, ink);
	}
	return n;
}

static void
paint_cells(struct drawing *d, const struct item *it, int x, int y)
{
	int k;

	for (k = 0; k < it->n; k++) {
		int cpu = d->order[it->first + k], cx = x + k * (d->cw + 1);
		enum draw_kind kind = cpu_kind(d, cpu);
		int ink = cpu_ink(d, cpu), nw = d->cw - (d->markcol ? 1 : 0);
		char num[16], key[3] = "";

		snprintf(num, sizeof(num), "%*d", nw, cpu);
		put_str(d, cx, y, num, nw, ink);
		if (d->markcol && kind != DRAW_PLAIN)
			put_str(d, cx + nw, y, draw_glyph(kind, d->o->ascii), 1,
				ink);
		if (d->rows < 2)
			continue;
		if (cpu_holder(d, cpu) >= 0)
			draw_holder_key(cpu_holder(d, cpu),
					d->in->marks->nholders, key);
		/* the glyph, then the key, right-aligned */
		put_str(d, cx + d->cw - 1 - (int)strlen(key), y + 1,
			draw_glyph(kind, d->o->ascii), 1, ink);
		put_str(d, cx + d->cw - (int)strlen(key), y + 1, key, 2, ink);
	}
}

static void
paint(struct drawing *d, int id, int x, int y, bool border)
{
	const struct item *it = &d->items[id];
	const bool a = d->o->ascii;
	int i, off = border ? 2 : 0;

	if (it->type == IT_CORE) {
		paint_cells(d, it, x, y);
		return;
	}
	if (it->type == IT_TEXT) {
		put_str(d, x, y, it->text ? it->text : "", it->w, it->ink);
		return;
	}
	if (border) {
		uint32_t h = a ? '-' : 0x2500, v = a ? '|' : 0x2502;

		for (i = 1; i < it->w - 1; i++) {
			put_cp(d, x + i, y, h, it->ink);
			put_cp(d, x + i, y + it->h - 1, h, it->ink);
		}
		for (i = 1; i < it->h - 1; i++) {
			put_cp(d, x, y + i, v, it->ink);
			put_cp(d, x + it->w - 1, y + i, v, it->ink);
		}
		put_cp(d, x, y, a ? '+' : 0x250c, it->ink);
		put_cp(d, x + it->w - 1, y, a ? '+' : 0x2510, it->ink);
		put_cp(d, x, y + it->h - 1, a ? '+' : 0x2514, it->ink);
		put_cp(d, x + it->w - 1, y + it->h - 1, a ? '+' : 0x2518,
		       it->ink);
		if (it->text && it->w > 4) {
			put_cp(d, x + 1, y, ' ', it->ink);
			i = put_str(d, x + 2, y, it->text, it->w - 4, it->ink);
			put_cp(d, x + 2 + i, y, ' ', it->ink);
		}
	}
	for (i = 0; i < it->nkids; i++) {
		const struct item *k = &d->items[it->kids[i]];

		paint(d, it->kids[i], x + off + k->x, y + (border ? 1 : 0) + k->y,
		      true);
	}
}

static void
put_utf8(struct strbuf *sb, uint32_t cp)
{
	char b[4];

	if (cp < 0x80) {
		b[0] = (char)cp;
		strbuf_add(sb, b, 1);
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 3);
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(sb, b, 4);
	}
}

static const char *
sgr(int ink)
{
	if (ink >= INK_HOLDER)
		return sgr_holder[(ink - INK_HOLDER) % NPALETTE];
	return sgr_base[ink];
}

static void
emit_grid(const struct drawing *d, struct strbuf *out)
{
	int x, y;

	for (y = 0; y < d->gh; y++) {
		const uint32_t *row = d->grid + (size_t)y * (size_t)d->gw;
		const unsigned char *ink = d->gink + (size_t)y * (size_t)d->gw;
		int last = d->gw - 1, cur = INK_NONE;

		while (last >= 0 && row[last] == ' ')
			last--;
		for (x = 0; x <= last; x++) {
			int want = row[x] == ' ' && (ink[x] < INK_HOLDER) ?
				INK_NONE : ink[x];

			if (d->o->color && want != cur) {
				strbuf_puts(out, "\033[0m");
				if (want != INK_NONE)
					strbuf_printf(out, "\033[%sm", sgr(want));
				cur = want;
			}
			put_utf8(out, row[x]);
		}
		if (d->o->color && cur != INK_NONE)
			strbuf_puts(out, "\033[0m");
		strbuf_add(out, "\n", 1);
	}
}

/* ---- the whole ---- */

static void
drawing_free(struct drawing *d)
{
	int i;

	for (i = 0; i < d->nitems; i++) {
		free(d->items[i].text);
		free(d->items[i].kids);
	}
	free(d->items);
	free(d->order);
	free(d->keys);
	free(d->nodebox);
	free(d->grid);
	free(d->gink);
}

static int
digits(int v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Steps 1 to 3: the tree, laid out within o->width; the root is item 0. */
static int
drawing_make(struct drawing *d, const struct draw_input *in,
	     const struct draw_opts *o)
{
	const struct topo *t = in->topo;
	const struct cpuset *drawn = cpuset_empty(&t->present) ?
		&t->possible : &t->present;
	int i, root, maxcpu = 0;

	memset(d, 0, sizeof(*d));
	d->in = in;
	d->o = o;
	d->t = t;
	d->order = malloc(sizeof(int) * (size_t)(t->ncpus + 1));
	d->nodebox = malloc(sizeof(int) * (size_t)(t->nnodes + 1));
	if (d->order == NULL || d->nodebox == NULL)
		return -ENOMEM;
	for (i = 0; i < t->nnodes; i++)
		d->nodebox[i] = -1;
	for (i = 0; i < t->ncpus; i++) {
		if (!cpuset_isset(drawn, (unsigned int)i))
			continue;
		d->order[d->norder++] = i;
		maxcpu = i;
		if (!in->marks && cpu_kind(d, i) != DRAW_PLAIN)
			d->markcol = true;
	}
	if (level_chain(d) < 0)
		return -ENOMEM;
	d->keys = malloc(sizeof(long long) * (size_t)(d->nchain + 1) *
			 (size_t)(d->norder + 1));
	if (d->keys == NULL)
		return -ENOMEM;
	infer_keys(d);
	if (sort_cpus(d) < 0)
		return -ENOMEM;
	d->cw = digits(maxcpu) + (d->markcol ? 1 : 0);
	d->rows = 1;
	if (in->marks) {
		int kw = in->marks->nholders > 52 ? 2 : 1;

		if (d->cw < kw + 1)
			d->cw = kw + 1;
		d->rows = 2;
	}
	root = new_item(d, IT_BOX, INK_NONE, NULL);
	add_header(d, root);
	build(d, root, 0, d->norder, 0);
	add_memory_nodes(d, root);
	add_devices(d, root);
	add_legend(d, root);
	if (d->oom)
		return -ENOMEM;
	layout(d, root, o->width > 0 ? o->width : 80, false);
	return 0;
}

int
draw_text(const struct draw_input *in, const struct draw_opts *o,
	  struct strbuf *out)
{
	struct drawing d;
	size_t n, i;
	int r;

	r = drawing_make(&d, in, o);
	if (r == 0) {
		d.gw = d.items[0].w;
		d.gh = d.items[0].h;
		n = (size_t)d.gw * (size_t)d.gh;
		d.grid = malloc(sizeof(uint32_t) * (n + 1));
		d.gink = calloc(n + 1, 1);
		if (d.grid == NULL || d.gink == NULL)
			r = -ENOMEM;
	}
	if (r == 0) {
		for (i = 0; i < n; i++)
			d.grid[i] = ' ';
		paint(&d, 0, 0, 0, false);
		emit_grid(&d, out);
		if (out->oom)
			r = -ENOMEM;
	}
	drawing_free(&d);
	return r;
}

/* ---- SVG ---- */

#define CX 9	/* pixels per column */
#define CY 20	/* pixels per row */

static void
xml_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			strbuf_puts(sb, "&amp;");
			break;
		case '<':
			strbuf_puts(sb, "&lt;");
			break;
		case '>':
			strbuf_puts(sb, "&gt;");
			break;
		case '"':
			strbuf_puts(sb, "&quot;");
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				strbuf_add(sb, s, 1);
		}
	}
}

static const char *
ink_fill(int ink)
{
	return ink >= INK_HOLDER ? svg_holder[(ink - INK_HOLDER) % NPALETTE] :
		svg_fill[ink];
}

static void
svg_cells(const struct drawing *d, const struct item *it, int x, int y,
	  struct strbuf *sb)
{
	int k;

	strbuf_printf(sb, "<rect class=\"core\" x=\"%d\" y=\"%d\" width=\"%d\" "
		      "height=\"%d\" rx=\"3\"/>\n", x * CX - 2, y * CY + 1,
		      it->w * CX + 4, it->h * CY - 2);
	for (k = 0; k < it->n; k++) {
		int cpu = d->order[it->first + k], cx = x + k * (d->cw + 1);
		int ink = cpu_ink(d, cpu), h = cpu_holder(d, cpu);
		enum draw_kind kind = cpu_kind(d, cpu);
		bool dark = ink >= INK_HOLDER;
		char key[3] = "";

		strbuf_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
			      "height=\"%d\" rx=\"2\" fill=\"%s\" stroke=\"%s\"/>\n",
			      cx * CX, y * CY + 3, d->cw * CX, it->h * CY - 6,
			      ink == INK_NONE ? "#fafafa" : ink_fill(ink),
			      ink >= INK_HOLDER ? "#333" : svg_stroke[ink]);
		strbuf_printf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\""
			      "%s>%d</text>\n", cx * CX + d->cw * CX / 2,
			      y * CY + 15, dark ? " fill=\"#fff\"" : "", cpu);
		if (d->rows < 2 && kind == DRAW_PLAIN)
			continue;
		if (h >= 0)
			draw_holder_key(h, d->in->marks->nholders, key);
		if (d->rows < 2)
			continue;
		strbuf_printf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\""
			      "%s>", cx * CX + d->cw * CX / 2, y * CY + CY + 13,
			      dark ? " fill=\"#fff\"" : "");
		xml_text(sb, draw_glyph(kind, d->o->ascii));
		xml_text(sb, key);
		strbuf_puts(sb, "</text>\n");
	}
}

static void
svg_item(const struct drawing *d, int id, int x, int y, bool border,
	 struct strbuf *sb)
{
	const struct item *it = &d->items[id];
	int i, off = border ? 2 : 0;

	if (it->type == IT_CORE) {
		svg_cells(d, it, x, y, sb);
		return;
	}
	if (it->type == IT_TEXT) {
		strbuf_printf(sb, "<text x=\"%d\" y=\"%d\" fill=\"%s\"%s>",
			      x * CX, y * CY + 15,
			      it->ink >= INK_HOLDER ? ink_fill(it->ink) :
			      svg_stroke[it->ink],
			      it->ink == INK_TITLE ? " font-weight=\"bold\"" : "");
		xml_text(sb, it->text ? it->text : "");
		strbuf_puts(sb, "</text>\n");
		return;
	}
	if (border) {
		strbuf_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
			      "height=\"%d\" rx=\"6\" fill=\"%s\" stroke=\"%s\" "
			      "stroke-width=\"1.5\"/>\n", x * CX + CX / 2,
			      y * CY + CY / 2, (it->w - 1) * CX, (it->h - 1) * CY,
			      svg_fill[it->ink], svg_stroke[it->ink]);
		if (it->text) {
			int lw = text_cols(it->text);

			strbuf_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
				      "height=\"%d\" fill=\"%s\"/>\n",
				      (x + 1) * CX, y * CY + 2, (lw + 2) * CX,
				      CY - 4, svg_fill[it->ink]);
			strbuf_printf(sb, "<text x=\"%d\" y=\"%d\" fill=\"%s\" "
				      "font-weight=\"bold\">", (x + 2) * CX,
				      y * CY + 15, svg_stroke[it->ink]);
			xml_text(sb, it->text);
			strbuf_puts(sb, "</text>\n");
		}
	}
	for (i = 0; i < it->nkids; i++) {
		const struct item *k = &d->items[it->kids[i]];

		svg_item(d, it->kids[i], x + off + k->x,
			 y + (border ? 1 : 0) + k->y, true, sb);
	}
}

int
draw_svg(const struct draw_input *in, const struct draw_opts *o,
	 struct strbuf *out)
{
	struct drawing d;
	int r, w, h;

	r = drawing_make(&d, in, o);
	if (r == 0) {
		w = (d.items[0].w + 2) * CX;
		h = (d.items[0].h + 1) * CY;
		strbuf_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			      "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			      "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
			      "<style>text{font-family:'DejaVu Sans Mono',"
			      "'Liberation Mono',Menlo,Consolas,monospace;"
			      "font-size:15px;white-space:pre}"
			      ".core{fill:none;stroke:#888;stroke-width:1}</style>\n"
			      "<rect width=\"100%%\" height=\"100%%\" "
			      "fill=\"#ffffff\"/>\n<g transform=\"translate(%d %d)\">\n",
			      w, h, w, h, CX, CY / 2);
		svg_item(&d, 0, 0, 0, false, out);
		strbuf_puts(out, "</g>\n</svg>\n");
		if (out->oom)
			r = -ENOMEM;
	}
	drawing_free(&d);
	return r;
}
