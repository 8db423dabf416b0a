// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The picture's layout: levels nest as the machine says (nodes inside
 * packages, or packages inside nodes), levels that group CPUs alike
 * share a box, a level that crosses another stays out, siblings fold
 * onto new rows at a narrow width and stand side by side at a wide one,
 * no line is wider than asked, an offline CPU goes into its node, and
 * the map's second row carries each CPU's glyph and holder key.
 */
#include <string.h>

#include "base/strbuf.h"
#include "machine.h"
#include "unit.h"
#include "view/draw.h"

/* Two packages, each of two nodes with two cores of two threads. */
static const char spec_smt[] =
	"node 0 mem_kb=8388608 distance=10,12,21,21\n"
	"node 1 mem_kb=8388608 distance=12,10,21,21\n"
	"node 2 mem_kb=8388608 distance=21,21,10,12\n"
	"node 3 mem_kb=8388608 distance=21,21,12,10\n"
	"cpu 0 core=0 socket=0 node=0 l3=0\n"
	"cpu 1 core=1 socket=0 node=0 l3=0\n"
	"cpu 2 core=2 socket=0 node=1 l3=1\n"
	"cpu 3 core=3 socket=0 node=1 l3=1\n"
	"cpu 4 core=0 socket=1 node=2 l3=2\n"
	"cpu 5 core=1 socket=1 node=2 l3=2\n"
	"cpu 6 core=2 socket=1 node=3 l3=3\n"
	"cpu 7 core=3 socket=1 node=3 l3=3 online=0\n"
	"cpu 8 core=0 socket=0 node=0 l3=0\n"
	"cpu 9 core=1 socket=0 node=0 l3=0\n"
	"cpu 10 core=2 socket=0 node=1 l3=1\n"
	"cpu 11 core=3 socket=0 node=1 l3=1\n"
	"cpu 12 core=0 socket=1 node=2 l3=2\n"
	"cpu 13 core=1 socket=1 node=2 l3=2\n"
	"cpu 14 core=2 socket=1 node=3 l3=3\n"
	"cpu 15 core=3 socket=1 node=3 l3=3\n";

/* Each node holding two packages; an L3 across the two nodes. */
static const char spec_nodes[] =
	"node 0 mem_kb=4194304\n"
	"node 1 mem_kb=4194304\n"
	"cpu 0 core=0 socket=0 node=0 l3=0\n"
	"cpu 1 core=1 socket=1 node=0 l3=1\n"
	"cpu 2 core=0 socket=2 node=1 l3=1\n"
	"cpu 3 core=1 socket=3 node=1 l3=2\n";

/* The columns of each line, the widest. */
static int
widest(const char *s)
{
	int w = 0, n = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			if (n > w)
				w = n;
			n = 0;
		} else if (((unsigned char)*s & 0xc0) != 0x80) {
			n++;
		}
	}
	return w;
}

/* The column of needle on the line it is on; -1 when absent. */
static int
column_of(const char *s, const char *needle)
{
	const char *p = strstr(s, needle), *q;
	int n = 0;

	if (p == NULL)
		return -1;
	for (q = p; q > s && q[-1] != '\n'; q--)
		;
	for (; q < p; q++)
		if (((unsigned char)*q & 0xc0) != 0x80)
			n++;
	return n;
}

static char *
draw(const struct topo *t, const struct draw_marks *m, int width, bool ascii)
{
	struct draw_input in = { .topo = t, .marks = m };
	struct draw_opts o = { .width = width, .ascii = ascii };
	struct strbuf sb;

	strbuf_init(&sb);
	if (draw_text(&in, &o, &sb) < 0)
		return NULL;
	return sb.buf;
}

static void
test_smt(void)
{
	struct topo t;
	char *s;

	unit_machine(spec_smt, 0, &t, NULL);
	s = draw(&t, NULL, 60, true);
	CHECK("a picture at 60 columns", s != NULL);
	if (s == NULL)
		return;
	CHECK("no line wider than 60", widest(s) <= 60);
	CHECK("nodes sit inside packages",
	      column_of(s, "+ Node 0") > column_of(s, "+ Package 0"));
	CHECK("a node and its L3 share a box", strstr(s, "Node 0 (8.0 GiB) - L3") != NULL);
	CHECK("two packages fold onto two rows at 60 columns",
	      column_of(s, "+ Package 1") == 0);
	/* a column after each number for its mark: "0 " "8 " */
	CHECK("threads of a core sit together", strstr(s, " 0   8    1   9") != NULL);
	CHECK("an offline CPU is marked", strstr(s, " 7x") != NULL);
	CHECK("the legend names the mark", strstr(s, "x offline") != NULL);
	free(s);
	s = draw(&t, NULL, 140, false);
	CHECK("two packages side by side at 140 columns", s &&
	      column_of(s, "\u250c Package 1") > 0 && widest(s) <= 140);
	CHECK("Unicode box drawing", s && strstr(s, "\u2502") != NULL);
	free(s);
	topo_free(&t);
	unit_machine_remove();
}

static void
test_marks(void)
{
	static const struct draw_holder holders[] = {
		{ "web", DRAW_EXCLUSIVE, "1,9" }, { "batch", DRAW_SHARE, "2" },
	};
	unsigned char kind[16];
	int holder[16], i;
	struct draw_marks m = { 16, kind, holder, 2, holders };
	struct draw_input in = { .marks = &m };
	struct draw_opts o = { .width = 80, .ascii = true };
	struct topo t;
	struct strbuf sb;
	char *s;

	unit_machine(spec_smt, 0, &t, NULL);
	for (i = 0; i < 16; i++) {
		kind[i] = DRAW_SHARED;
		holder[i] = -1;
	}
	kind[0] = DRAW_RESERVED;
	kind[1] = kind[9] = DRAW_EXCLUSIVE;
	holder[1] = holder[9] = 0;
	kind[2] = DRAW_SHARE;
	holder[2] = 1;
	kind[7] = DRAW_OFFLINE;
	s = draw(&t, &m, 80, true);
	CHECK("a map", s != NULL);
	if (s == NULL)
		return;
	CHECK("the glyph and key under each CPU",
	      strstr(s, "|  0  8   1  9 |") != NULL || strstr(s, " 0  8   1  9") != NULL);
	CHECK("reserved, shared, exclusive keys in one row",
	      strstr(s, " *  .  #a #a") != NULL);
	CHECK("a share-mode holder", strstr(s, "+b") != NULL);
	CHECK("the legend names each holder",
	      strstr(s, "#a web: exclusive, CPUs 1,9\n") != NULL &&
	      strstr(s, "+b batch: share, CPUs 2\n") != NULL);
	CHECK("the legend names the glyphs", strstr(s, ". shared  * reserved  "
	      "# exclusive  + share  ~ isolated  x offline") != NULL);
	free(s);
	in.topo = &t;
	strbuf_init(&sb);
	CHECK("an SVG map", draw_svg(&in, &o, &sb) == 0 && sb.buf &&
	      strncmp(sb.buf, "<?xml", 5) == 0 &&
	      strstr(sb.buf, "</svg>\n") && strstr(sb.buf, "batch: share"));
	strbuf_free(&sb);
	topo_free(&t);
	unit_machine_remove();
}

static void
test_nodes_hold_packages(void)
{
	struct topo t;
	char *s;

	memcpy(unit_tmp + strlen(unit_tmp) - 6, "XXXXXX", 6);
	unit_machine(spec_nodes, 0, &t, NULL);
	s = draw(&t, NULL, 80, true);
	CHECK("packages sit inside nodes", s &&
	      column_of(s, "+ Package 0") > column_of(s, "+ Node 0") &&
	      strstr(s, "+ Package 0") > strstr(s, "+ Node 0"));
	CHECK("an L3 that crosses packages is no box", s && !strstr(s, "L3"));
	free(s);
	topo_free(&t);
	unit_machine_remove();
}

int
main(void)
{
	test_smt();
	memcpy(unit_tmp + strlen(unit_tmp) - 6, "XXXXXX", 6);
	test_marks();
	test_nodes_hold_packages();
	return unit_failed;
}
