/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine as a picture: nested boxes for packages, dies, NUMA nodes
 * and L3 groups, cores as runs of hardware-thread cells labelled with
 * their CPU numbers, CPU-less memory nodes beside the packages, devices
 * under their node.  Drawn in the terminal (Unicode box drawing or ASCII,
 * with or without ANSI colors) and as SVG, from one layout.
 *
 * Terminology:
 *   level     a way the kernel groups CPUs (package, die, node, L3).
 *             Levels nest by what the machine says, not in a fixed
 *             order: where every node lies in one package, nodes go
 *             inside packages; where a node holds several packages, the
 *             packages go inside it.  Two levels that group the CPUs
 *             alike share one box; a level that crosses another is left
 *             out of the boxes.
 *   cell      one CPU: its number, and with marks its kind and holder.
 *   marks     what cpm-alloc map adds: per CPU a kind (shared, reserved,
 *             exclusive, share-mode, isolated, offline) and the
 *             allocation that holds it, shown by a key and a legend.
 */
#ifndef CPM_DRAW_H
#define CPM_DRAW_H

#include <stdbool.h>

#include "base/strbuf.h"
#include "machine/device.h"
#include "machine/memtier.h"
#include "machine/topo.h"

enum draw_kind {
	DRAW_PLAIN,		/* no mark (cpm-topo draw) */
	DRAW_SHARED,		/* the shared pool */
	DRAW_RESERVED,
	DRAW_EXCLUSIVE,
	DRAW_SHARE,		/* held in share mode */
	DRAW_ISOLATED,
	DRAW_OFFLINE,
	DRAW_NKINDS
};

/* An allocation, as the map's legend names it. */
struct draw_holder {
	const char *name;
	enum draw_kind kind;	/* DRAW_EXCLUSIVE or DRAW_SHARE */
	const char *cpus;	/* its cpulist, for the legend */
};

/* cpm-alloc map's labels: kind[cpu] and holder[cpu] (-1: none). */
struct draw_marks {
	int ncpus;
	const unsigned char *kind;
	const int *holder;
	int nholders;
	const struct draw_holder *holders;
};

struct draw_opts {
	int width;		/* columns the picture must fit */
	bool ascii;		/* ASCII instead of Unicode box drawing */
	bool color;		/* ANSI colors (text only) */
};

/* What the picture shows; memtier, devices and marks may be NULL. */
struct draw_input {
	const struct topo *topo;
	const struct memtier *mem;
	const struct devices *devs;
	const struct draw_marks *marks;
};

/*
 * The picture as text lines of at most o->width columns (where the
 * machine can be drawn that narrow at all: every CPU's cell and the
 * box borders around it), each ending in a newline.  Returns 0 or
 * -ENOMEM.
 */
int draw_text(const struct draw_input *in, const struct draw_opts *o,
	      struct strbuf *out);

/* The same picture as one self-contained SVG document.  0 or -ENOMEM. */
int draw_svg(const struct draw_input *in, const struct draw_opts *o,
	     struct strbuf *out);

/* The glyph that marks a kind, in Unicode or ASCII. */
const char *draw_glyph(enum draw_kind k, bool ascii);
/* "shared", "reserved", "exclusive", ... */
const char *draw_kind_name(enum draw_kind k);

/*
 * The key of holder i among n ("a".."z", "A".."Z", then two letters
 * when there are more than 52) into key[3].
 */
void draw_holder_key(int i, int n, char key[3]);

#endif
